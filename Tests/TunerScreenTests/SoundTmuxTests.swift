import Foundation
import Testing
import TunerTestSupport

/// The sounds of the screen on a real (tmux) terminal: key t plays the target note through a playback
/// PCM that alsa-lib's `file` plugin writes to a WAV (a private ~/.asoundrc in the pane's HOME).
@Suite(.serialized) struct SoundTmuxTests {
    @Test func keyTPlaysTheNoteShownAndIgnoresTheInputMeanwhile() throws {
        let tmux = try TmuxHarness(name: "tone")
        let out = tmux.path("out.wav")
        try "pcm.out { type file slave.pcm null file \"\(out)\" format \"wav\" }\n"
            .write(toFile: tmux.path(".asoundrc"), atomically: true, encoding: .utf8)
        let file = tmux.path("a2.wav")
        // The tone lasts 4 s and the file 40 s: on a loaded machine a capture of the pane can take most of a
        // second, and a 1 s tone came and went between two captures (the test then failed on a screen that
        // had shown it). The wait returns as soon as the state is seen, so this costs nothing when idle.
        try writeSineWAV(path: file, frequency: 110, seconds: 40)
        tmux.run("\(TmuxHarness.tunerPath) --file \(file) --playback-device out --duration 4 --tone-timbre pluck; echo EXIT=$?")
        #expect(tmux.waitFor { $0.contains("IN TUNE ✓") } != nil, "A2 shown:\n\(tmux.screen)")

        tmux.keys("t")
        // The bar says what plays, and the reading is held: the input is ignored while the tone plays.
        let playing = tmux.waitFor { $0.contains("♪ A2 — playing the reference tone") && $0.contains("(held)") }
        #expect(playing != nil, "tone playing, input ignored:\n\(tmux.screen)")
        let after = tmux.waitFor { $0.contains("t tone") && $0.contains("IN TUNE ✓") }
        #expect(after != nil, "back to the key help and live readings:\n\(tmux.screen)")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("EXIT=0") } != nil)

        // The tone in the WAV is A2, measured by the tuner itself.
        let lines = Shell.output("\(TmuxHarness.tunerPath) --file \(out) --output jsonl")
            .split(separator: "\n").compactMap { line -> (String, Double)? in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let t = o["time"] as? Double, (0.3...0.7).contains(t),
                      let n = o["note"] as? String, let c = o["cents"] as? Double else { return nil }
                return (n, c)
            }
        #expect(lines.count > 20, "readings of the played tone")
        #expect(lines.allSatisfy { $0.0 == "A2" && abs($0.1) <= 0.1 }, "\(lines.prefix(5))")
    }
}
