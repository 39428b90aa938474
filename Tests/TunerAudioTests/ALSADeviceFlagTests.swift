import Foundation
import Testing
import TunerTestSupport
import TunerBridge
import TunerMusic
@testable import TunerAudio
#if canImport(Glibc)
import Glibc
#endif

/// `tuner --device` end to end with no sound card: a private `~/.asoundrc` (under a temporary HOME)
/// defines a capture PCM that plays a raw file through alsa-lib's `file` plugin; the binary captures it
/// like a microphone. The plugin never ends, so the run is cut by `head` (the CLI stops quietly on a
/// closed pipe) after a known number of readings, within the file.
@Suite struct ALSADeviceFlagTests {
    @Test func deviceFlagCapturesAPluckedA2Minus7Point3Cents() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tuner-alsa-home-\(getpid())").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let samples = ALSASessionTests.pluck.render(seconds: 2.5, sampleRate: 48000)
        try ALSAFileDevice.install(samples, home: home)

        // 150 readings = 1.5 s of the 2.5 s file at the engine's 10 ms hop.
        let output = Shell.output("HOME=\(home) \(Shell.tunerPath) --device tunerfile --rate 48000 --output jsonl "
                                + "2>\(home)/err | head -n 150")
        let lines = output.split(separator: "\n")
        #expect(lines.count == 150, "stderr: \((try? String(contentsOfFile: home + "/err", encoding: .utf8)) ?? "")")
        struct Line: Decodable { var note: String?; var cents: Double? }
        let decoded = try lines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let pitched = decoded.filter { $0.note != nil }
        #expect(pitched.count > 100)
        #expect(pitched.allSatisfy { $0.note == "A2" })
        let cents = pitched.compactMap(\.cents).sorted()
        let median = cents.isEmpty ? .nan : cents[cents.count / 2]
        #expect(abs(median + 7.3) <= 0.2, "median \(median) ¢")
    }

    @Test func namedDeviceThatDoesNotExistExits69NamingIt() {
        let out = Shell.output("\(Shell.tunerPath) --device no-such-pcm --output text 2>&1; echo \"status=$?\"")
        #expect(out == "Error: cannot open capture device \"no-such-pcm\" (ALSA: No such file or directory); "
                + "see --list-devices\nstatus=69\n")
    }
}
