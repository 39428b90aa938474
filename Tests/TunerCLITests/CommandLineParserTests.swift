import Testing
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// The accepted spellings of flags, parsed in-process.
@Suite struct CommandLineParserTests {
    func options(_ arguments: [String]) throws -> TunerOptions {
        guard case .run(let options) = try CommandLineParser().parse(arguments) else {
            Issue.record("\(arguments) did not parse to a run")
            return TunerOptions()
        }
        return options
    }

    @Test func defaultsComeFromTheInitialiser() throws {
        let parsed = try options([])
        #expect(parsed == TunerOptions())
        #expect(parsed.tolerance == Cents(3))
        #expect(parsed.a4 == Hertz(440))
        #expect(parsed.output == nil)
        #expect(OutputFormat.automatic(outputIsTerminal: false) == .text)
        #expect(parsed.device == "default")
        #expect(parsed.rate == 48_000)
        #expect(parsed.channel == nil && parsed.file == nil && !parsed.listDevices)
    }

    @Test(arguments: [["--tolerance", "5"], ["--tolerance=5"], ["-t", "5"], ["-t5"], ["-t=5"], ["-t", "1", "-t", "5"]])
    func toleranceSpellings(_ arguments: [String]) throws {
        #expect(try options(arguments).tolerance == Cents(5))
    }

    @Test func everyFlagTogether() throws {
        let parsed = try options(["-f", "bass.flac", "--channel=2", "--a4", "442.5", "--output", "jsonl", "-t", "0.1"])
        #expect(parsed.file == "bass.flac")
        #expect(parsed.channel == 2)
        #expect(parsed.a4 == Hertz(442.5))
        #expect(parsed.output == .jsonl)
        #expect(parsed.tolerance == Cents(0.1))
        #expect(parsed.given == ["file", "channel", "a4", "output", "tolerance"])
    }

    @Test func liveFlagsParseForTheNextIssue() throws {
        let parsed = try options(["-d", "hw:1", "--rate", "44100", "--list-devices"])
        #expect(parsed.device == "hw:1" && parsed.rate == 44_100 && parsed.listDevices)
    }

    @Test func aFileNameThatStartsWithADashNeedsTheEqualsForm() throws {
        #expect(try options(["--file=-odd.wav"]).file == "-odd.wav")
        #expect(try options(["--file", "-"]).file == "-")
    }

    @Test func helpAndVersion() throws {
        #expect(try CommandLineParser().parse(["--version"]) == .version)
        #expect(try CommandLineParser().parse(["-t", "5", "-h"]) == .help)
        #expect(throws: UsageError.unexpectedArgument("--help")) { try CommandLineParser().parse(["--", "--help"]) }
    }

    @Test func boundsAreInclusive() throws {
        #expect(try options(["-t", "0.1"]).tolerance == Cents(0.1))
        #expect(try options(["-t", "50"]).tolerance == Cents(50))
        #expect(try options(["--a4", "400"]).a4 == Hertz(400))
        #expect(try options(["--a4", "480"]).a4 == Hertz(480))
    }
}
