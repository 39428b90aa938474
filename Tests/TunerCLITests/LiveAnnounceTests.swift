import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic
#if canImport(Glibc)
import Glibc
#endif

/// `--announce` on live input, end to end with no sound card: a private `~/.asoundrc` (under a
/// temporary HOME) defines a capture PCM that plays a raw file through alsa-lib's `file` plugin. The
/// lines come out as the notes settle (`head` gets three while the capture still runs); the plugin
/// never ends, so the run ends when the fourth line finds the pipe closed.
@Suite struct LiveAnnounceTests {
    @Test func liveAnnounceWritesEachSettledNoteAsItComes() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tuner-announce-home-\(getpid())").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        var samples: [Float] = []
        for (midi, cents) in [(40, -4.0), (45, 0.0), (50, 12.0), (55, 0.0)] {
            let frequency = Note(midi: midi).frequency().shifted(by: Cents(cents))
            samples += Synth.Pluck(frequency: frequency).render(seconds: 1.5, sampleRate: 48000)
        }
        try ALSAFileDevice.install(samples, home: home)

        try ("HOME=\(home) timeout 60 \(Shell.tunerPath) --device tunerfile --rate 48000 --tuning guitar --announce "
             + "2>\(home)/err | head -n 3\necho \"status=${PIPESTATUS[0]}\"\n")
            .write(toFile: home + "/run.sh", atomically: true, encoding: .utf8)
        let output = Shell.output("bash \(home)/run.sh")
        let err = (try? String(contentsOfFile: home + "/err", encoding: .utf8)) ?? ""
        #expect(output == "E2, 4 cents flat\nA2 in tune\nD3, 12 cents sharp\nstatus=0\n", "stderr: \(err)")
    }
}
