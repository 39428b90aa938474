import Foundation
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
#if canImport(Glibc)
import Glibc
#endif

extension ScreenTmuxTests {
    /// A strum of standard tuning (Synth.Pluck per string, 10 ms apart), each string detuned by
    /// `cents[i]` (nil: muted), written as a 16-bit WAV.
    static func writeStrumWAV(path: String, _ cents: [Double?], seconds: Double) throws {
        let rate = 48_000.0
        let guitar = try Tuning.resolve("guitar")
        let n = Int(seconds * rate)
        var mix = [Float](repeating: 0, count: n)
        for (index, detune) in cents.enumerated() {
            guard let detune else { continue }
            let pluck = Synth.Pluck(frequency: guitar.frequency(ofString: index).shifted(by: Cents(detune)),
                                    inharmonicity: 1e-4, partials: 16, decay: 4, peak: 0.12)
                .render(seconds: seconds, sampleRate: rate)
            let start = Int(0.01 * Double(index) * rate)
            for i in start..<n { mix[i] += pluck[i - start] }
        }
        try AudioFileWriter().write([mix], sampleRate: Int(rate), format: .init(.wav, .pcm16), to: path)
    }

    /// The real binary with --poly: one line per string (name, needle, cents to 0.1, ✓/✗, "settled"
    /// once settled in tune), "—" for the muted string; key p to one string and back.
    @Test func polyShowsEveryStringAndKeyPSwitches() throws {
        let tmux = try TmuxHarness(name: "strum")
        let file = tmux.path("strum.wav")
        try Self.writeStrumWAV(path: file, [0, -8, 0, 5, 0, nil], seconds: 8)
        launch(tmux, "--file \(file) --tuning guitar --poly")

        func line(_ screen: String, _ label: String) -> String {
            screen.split(separator: "\n").map(String.init).first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label + " ") } ?? ""
        }
        let shown = tmux.waitFor(timeout: 20) {
            line($0, "E2").contains("✓ settled") && line($0, "A2").contains("-8.0 ¢  ✗") && line($0, "G3").contains("+5.0 ¢  ✗")
        }
        #expect(shown != nil, "every string's cents, E2 settled in tune:\n\(tmux.screen)")
        let screen = shown ?? tmux.screen
        #expect(screen.contains("Strum all strings"))
        #expect(line(screen, "E4").hasSuffix("—"), "the muted E4 is not heard: \(line(screen, "E4"))")
        #expect(line(screen, "A2").contains("●"), "a needle on the A2 line")
        #expect(screen.contains("p one string"))

        tmux.keys("p")
        let single = tmux.waitFor { $0.contains("1-9 lock") && !$0.contains("Strum all strings") }
        #expect(single != nil, "key p: one string at a time:\n\(tmux.screen)")
        tmux.keys("p")
        #expect(tmux.waitFor { $0.contains("Strum all strings") } != nil, "key p again: every string")

        tmux.keys("q")
        expectCleanExit(tmux, status: 0)
    }
}
