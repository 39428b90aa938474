import Foundation
import Testing
import TunerAudio
import TunerKit
#if canImport(Glibc)
import Glibc
#endif

/// `--announce` on live input, end to end with no sound card: a private `~/.asoundrc` (under a
/// temporary HOME) defines a capture PCM that plays a raw file through alsa-lib's `file` plugin. The
/// lines come out as the notes settle (`head` gets three while the capture still runs); the plugin
/// never ends, so the run ends when the fourth line finds the pipe closed.
@Suite struct LiveAnnounceTests {
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

    @Test func liveAnnounceWritesEachSettledNoteAsItComes() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tuner-announce-home-\(getpid())").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        var samples: [Float] = []
        for (midi, cents) in [(40, -4.0), (45, 0.0), (50, 12.0), (55, 0.0)] {
            let frequency = Note(midi: midi).frequency().shifted(by: Cents(cents))
            samples += Synth.Pluck(frequency: frequency).render(seconds: 1.5, sampleRate: 48000)
        }
        let raw = home + "/strings.raw"
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

        try ("HOME=\(home) timeout 60 \(Self.tunerPath) --device tunerfile --rate 48000 --tuning guitar --announce "
             + "2>\(home)/err | head -n 3\necho \"status=${PIPESTATUS[0]}\"\n")
            .write(toFile: home + "/run.sh", atomically: true, encoding: .utf8)
        let output = Self.shell("bash \(home)/run.sh")
        let err = (try? String(contentsOfFile: home + "/err", encoding: .utf8)) ?? ""
        #expect(output == "E2, 4 cents flat\nA2 in tune\nD3, 12 cents sharp\nstatus=0\n", "stderr: \(err)")
    }
}
