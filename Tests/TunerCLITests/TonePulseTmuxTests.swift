import Foundation
import Testing
import TunerTestSupport
import TunerAudio
#if canImport(Glibc)
import Glibc
#endif

/// Key `t` on the screen, with the tone played into a private PulseAudio server's null sink. The server
/// plays at a sound card's pace, so the 4 s tone takes 4 s and the screen's "playing" state lasts as long
/// as it would for a player. (Through alsa-lib's `file` plugin over a `null` slave, as this test once ran,
/// nothing paces the writes: the tone "ended" as soon as it was written, and a loaded machine's pane
/// captures missed the state about one run in six.)
@Suite(.serialized, .enabled(if: PulseServer.shouldRun, PulseServer.skipReason))
struct TonePulseTmuxTests {
    @Test func keyTPlaysTheNoteShownAndIgnoresTheInputMeanwhile() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "tone")
        defer { server.stop() }
        let dir = try TemporaryDirectory("tuner-tone")
        let rate = PulseServer.rate
        let a2 = (0..<(40 * rate)).map { Float(0.5 * sin(2 * Double.pi * 110 * Double($0) / Double(rate) + 0.3)) }
        let file = try dir.write("a2.wav", [a2], rate: rate, format: .init(.wav, .pcm16))
        let recording = dir.path("monitor.wav")
        let recorder = try ChildProcess("parecord", ["--device=\(PulseServer.monitorName)", "--file-format=wav",
                                                     "--format=s16le", "--rate=\(rate)", "--channels=1", recording],
                                        environment: server.environment)
        defer { recorder.stop() }

        let tmux = try PulseTmux(name: "tone", environment: server.environment)
        let tuner = try TunerBinary.location().path
        tmux.run("\(tuner) --file \(file) --playback-device pulse --duration 4 --tone-timbre pluck; echo EXIT=$?")
        #expect(tmux.waitFor { $0.contains("IN TUNE ✓") } != nil, "A2 shown:\n\(tmux.screen)")

        tmux.keys("t")
        // The bar says what plays, and the reading is held: the input is ignored while the tone plays.
        let playing = tmux.waitFor { $0.contains("♪ A2 — playing the reference tone") && $0.contains("(held)") }
        #expect(playing != nil, "tone playing, input ignored:\n\(tmux.screen)")
        let after = tmux.waitFor { $0.contains("t tone") && $0.contains("IN TUNE ✓") }
        #expect(after != nil, "back to the key help and live readings:\n\(tmux.screen)")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("EXIT=0") } != nil)
        recorder.stop()

        // The tone in the sink's monitor is A2, measured by the tuner itself over 0.3–0.7 s of the tone
        // (the pluck's steady part; the monitor is silent before it, and the input file is not played).
        let readings = Shell.output("\(tuner) --file \(recording) --output jsonl")
            .split(separator: "\n").compactMap { line -> (Double, String, Double)? in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let t = o["time"] as? Double, let n = o["note"] as? String, let c = o["cents"] as? Double
                else { return nil }
                return (t, n, c)
            }
        let start = try #require(readings.first?.0, "the tone was recorded from the sink")
        let steady = readings.filter { (start + 0.3...start + 0.7).contains($0.0) }
        #expect(steady.count > 20, "readings of the played tone")
        #expect(steady.allSatisfy { $0.1 == "A2" && abs($0.2) <= 0.1 }, "\(steady.prefix(5))")
    }
}
