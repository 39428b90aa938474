import Foundation
import Testing
import TunerKit
@testable import TunerAudio
#if canImport(Glibc)
import Glibc
#endif

/// `tuner --device` end to end with no sound card: a private `~/.asoundrc` (under a temporary HOME)
/// defines a capture PCM that plays a raw file through alsa-lib's `file` plugin; the binary captures it
/// like a microphone. The plugin never ends, so the run is cut by `head` (the CLI stops quietly on a
/// closed pipe) after a known number of readings, within the file.
@Suite struct ALSADeviceFlagTests {
    static var tunerPath: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("tuner").path
    }

    /// Output of a shell command line (`popen`).
    static func shell(_ command: String) -> String {
        guard let pipe = popen(command, "r") else { return "" }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        pclose(pipe)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func deviceFlagCapturesAPluckedA2Minus7Point3Cents() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tuner-alsa-home-\(getpid())").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let samples = ALSASessionTests.pluck.render(seconds: 2.5, sampleRate: 48000)
        let raw = home + "/pluck.raw"
        try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: raw))
        try """
            pcm.tunerfile {
                type file
                slave.pcm null
                file "/dev/null"
                infile "\(raw)"
                format "raw"
            }
            """.write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)

        // 150 readings = 1.5 s of the 2.5 s file at the engine's 10 ms hop.
        let output = Self.shell("HOME=\(home) \(Self.tunerPath) --device tunerfile --rate 48000 --output jsonl "
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
        let out = Self.shell("\(Self.tunerPath) --device no-such-pcm --output text 2>&1; echo \"status=$?\"")
        #expect(out == "Error: cannot open capture device \"no-such-pcm\" (ALSA: No such file or directory); "
                + "see --list-devices\nstatus=69\n")
    }
}
