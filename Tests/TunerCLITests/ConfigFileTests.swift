import Foundation
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
import TunerTestSupport
@testable import TunerCLI

/// The config file: where it is looked for, that the command line wins, and every way it can be wrong
/// (one line naming file and line, exit 78).
@Suite struct ConfigFileTests {
    /// A folder used as XDG_CONFIG_HOME, with `text` as its tuner/config.
    static func configHome(_ text: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("tuner"), withIntermediateDirectories: true)
        try text.write(toFile: dir.path("tuner/config"), atomically: true, encoding: .utf8)
        return dir
    }

    /// An A2 sine (110 Hz) for `--expect A2`: in tune at A4 = 440, 7.9 cents flat of A2 at A4 = 442.
    static func a2(in dir: TemporaryDirectory) throws -> String {
        try dir.write("a2.wav", [Synth.sine(Hertz(110), seconds: 1.5, sampleRate: 48_000, amplitude: 0.5)],
                      rate: 48_000, format: .init(.wav, .pcm16))
    }

    // MARK: Reading and precedence

    @Test func theFileSetsWhatTheCommandLineDoesNotAndTheCommandLineWins() throws {
        let home = try Self.configHome("# my bass\na4 = 442   # a comment after a value\n\ntolerance = 2\n")
        let file = try Self.a2(in: home)
        let environment = ["XDG_CONFIG_HOME": home.url.path]
        let fromFile = try TunerBinary.run(["--file", file, "--expect", "A2"], environment: environment)
        #expect(fromFile.status == 1, "at A4 = 442 the A2 of 440 is 7.9 cents flat: \(fromFile.stdout)")
        #expect(fromFile.stdout.contains("flat"))
        #expect(fromFile.stdout.contains("tolerance ±2 cents"), "the tolerance comes from the file: \(fromFile.stdout)")
        let overridden = try TunerBinary.run(["--file", file, "--expect", "A2", "--a4", "440"], environment: environment)
        #expect(overridden.status == 0, "--a4 on the command line wins: \(overridden.stdout)")
        #expect(overridden.stdout.contains("tolerance ±2 cents"))
        let none = try TunerBinary.run(["--file", file, "--expect", "A2", "--no-config"], environment: environment)
        #expect(none.status == 0)
        #expect(none.stdout.contains("tolerance ±3 cents"), "--no-config reads nothing: \(none.stdout)")
    }

    @Test func withoutXDGConfigHomeTheFileIsUnderHome() throws {
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: home.path(".config/tuner"), withIntermediateDirectories: true)
        try "tolerance = 4\n".write(toFile: home.path(".config/tuner/config"), atomically: true, encoding: .utf8)
        let file = try Self.a2(in: home)
        // A relative XDG_CONFIG_HOME is ignored, as the XDG rules say.
        let result = try TunerBinary.run(["--file", file, "--expect", "A2"],
                                         environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": "relative"])
        #expect(result.stdout.contains("tolerance ±4 cents"), "\(result.stdout) \(result.stderr)")
    }

    @Test func configNamesAnotherFile() throws {
        let dir = try TemporaryDirectory()
        try "tolerance = 5\ntuning = \"E1 A1 D2 G2\"\n".write(toFile: dir.path("bass.conf"), atomically: true, encoding: .utf8)
        let file = try Self.a2(in: dir)
        let result = try TunerBinary.run(["--config", dir.path("bass.conf"), "--file", file, "--expect", "A2"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("tolerance ±5 cents"))
    }

    /// How readings are shown is one choice: `--output` on the command line replaces the file's
    /// `announce = true` rather than conflicting with it.
    @Test func aModeOnTheCommandLineReplacesTheFilesMode() throws {
        let home = try Self.configHome("announce = true\n")
        let file = try Self.a2(in: home)
        let result = try TunerBinary.run(["--file", file, "--output", "jsonl"], environment: ["XDG_CONFIG_HOME": home.url.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("{\"time\""), "jsonl, not announcements: \(result.stdout.prefix(80))")
        let announced = try TunerBinary.run(["--file", file], environment: ["XDG_CONFIG_HOME": home.url.path])
        #expect(announced.stdout.hasPrefix("A2"), "the file's announce = true: \(announced.stdout.prefix(80))")
    }

    /// `poly = true` is a standing preference (strum mode with the file's tuning), not a run's action:
    /// it reads strums when nothing else is asked, and gives way to a one-note action on the command line
    /// (`--expect`) instead of conflicting with it.
    @Test func aFilesPolyReadsStrumsAndGivesWayToAOneNoteAction() throws {
        let home = try Self.configHome("poly = true\ntuning = guitar\n")
        let file = try Self.a2(in: home)
        let environment = ["XDG_CONFIG_HOME": home.url.path]
        let strums = try TunerBinary.run(["--file", file, "--output", "jsonl"], environment: environment)
        #expect(strums.status == 0, "\(strums.stderr)")
        #expect(strums.stdout.contains("\"strings\":["), "a strum per line: \(strums.stdout.prefix(120))")
        let expect = try TunerBinary.run(["--file", file, "--expect", "A2"], environment: environment)
        #expect(expect.status == 0, "--expect replaces the file's poly: \(expect.stderr)")
        #expect(expect.stdout.contains("A2"))
        let refused = try TunerBinary.run(["--file", file, "--expect", "A2", "--poly"], environment: environment)
        #expect(refused.status == 64, "both on the command line still conflict: \(refused.stderr)")
    }

    @Test func parsingKeepsSharpsQuotesAndSkipsComments() throws {
        let entries = try ConfigFile.parse("""
            # comment
              tuning = C#2 F#2 B2   # trailing comment
            device = "hw:1"
            a4=442
            """)
        #expect(entries == [ConfigFile.Entry(line: 2, key: "tuning", value: "C#2 F#2 B2"),
                            ConfigFile.Entry(line: 3, key: "device", value: "hw:1"),
                            ConfigFile.Entry(line: 4, key: "a4", value: "442")])
    }

    // MARK: Every bad file: one line, file and line, exit 78

    static let badFiles: [(text: String, message: String)] = [
        ("a4 = 442\n\ntolerence = 1\n", ":3: unknown key 'tolerence'; did you mean 'tolerance'?"),
        ("colour = red\n", ":1: unknown key 'colour' (the keys are the long flag names, see 'tuner --help')"),
        ("a4 = 500\n", ":1: invalid value '500' for 'a4': must be between 400 and 480"),
        ("tuning = bas\n", ":1: invalid value 'bas' for 'tuning': "),
        ("announce = maybe\n", ":1: invalid value 'maybe' for 'announce': must be true or false"),
        ("a4 442\n", ":1: expected 'key = value' (e.g. 'a4 = 442'), got 'a4 442'"),
        (" = 442\n", ":1: a setting needs a key before '='"),
        ("file = a.wav\n", ":1: 'file' cannot be set in a config file"),
        ("list-devices = true\n", ":1: 'list-devices' cannot be set in a config file"),
    ]

    @Test(arguments: badFiles.indices)
    func aBadFileIsOneLineNamingFileAndLineAndExits78(index: Int) throws {
        let (text, message) = Self.badFiles[index]
        let home = try Self.configHome(text)
        let result = try TunerBinary.run(["--list-tunings"], environment: ["XDG_CONFIG_HOME": home.url.path])
        #expect(result.status == 78)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: \(home.path("tuner/config"))\(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aMissingOrUnreadableConfigFileExits78() throws {
        let dir = try TemporaryDirectory()
        let missing = try TunerBinary.run(["--config", dir.path("nope"), "--list-tunings"])
        #expect(missing.status == 78)
        #expect(missing.stderr == "Error: \(dir.path("nope")): cannot read the config file: no such file\n")
        let directory = try TunerBinary.run(["--config", dir.url.path, "--list-tunings"])
        #expect(directory.status == 78)
        #expect(directory.stderr == "Error: \(dir.url.path): cannot read the config file: it is a directory\n")
        // The usual file missing is not an error.
        let none = try TunerBinary.run(["--list-tunings"], environment: ["XDG_CONFIG_HOME": dir.url.path])
        #expect(none.status == 0)
    }

    @Test func configAndNoConfigTogetherIsAUsageError() throws {
        let result = try TunerBinary.run(["--config", "x", "--no-config"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: '--config' and '--no-config' cannot be used together"))
    }

    /// The tests' children never read the config file of whoever runs the tests.
    @Test func childrenGetTheTestsOwnConfigFolder() throws {
        let result = try TunerBinary.shell("printf '%s' \"$XDG_CONFIG_HOME\"")
        #expect(result.stdout == TestEnvironment.configHome)
        #expect(!FileManager.default.fileExists(atPath: TestEnvironment.configHome + "/tuner"))
    }
}
