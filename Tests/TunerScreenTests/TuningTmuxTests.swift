import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A 16-bit mono WAV of steady sines one after another, `(frequency, seconds)` each.
func writeNotesWAV(path: String, _ notes: [(frequency: Double, seconds: Double)], sampleRate: Int = 48000) throws {
    var samples: [Int16] = []
    var phase = 0.3
    for note in notes {
        for _ in 0..<Int(note.seconds * Double(sampleRate)) {
            samples.append(Int16(clamping: Int((0.5 * sin(phase) * 32767).rounded())))
            phase += 2 * Double.pi * note.frequency / Double(sampleRate)
        }
    }
    var data = Data()
    func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + 2 * samples.count)); data.append(contentsOf: Array("WAVE".utf8))
    data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(1); u32(UInt32(sampleRate))
    u32(UInt32(sampleRate * 2)); u16(2); u16(16)
    data.append(contentsOf: Array("data".utf8)); u32(UInt32(2 * samples.count))
    for s in samples { u16(UInt16(bitPattern: s)) }
    try data.write(to: URL(fileURLWithPath: path))
}

extension ScreenTmuxTests {
    /// The real binary with --file and --tuning: the tuning row with the active string in reverse
    /// video, ✓ on the strings that settled in tune, a string lock (key 1), the strobe (key s).
    @Test func tuningRowShowsTheActiveStringAndTheChecklist() throws {
        let tmux = try TmuxHarness(name: "tuning")
        // The low E string in tune for 1.5 s, then the A string in tune for 5 s.
        let file = tmux.path("e2-a2.wav")
        try writeNotesWAV(path: file, [(82.406_889, 1.5), (110, 5)])
        launch(tmux, "--file \(file) --tuning guitar")

        let shown = tmux.waitForSteady { $0.contains("[A2]✓") && $0.contains(" E2 ✓") }
        #expect(shown != nil, "E2 and A2 ticked, A2 the target:\n\(tmux.screen)")
        let row = (shown ?? "").split(separator: "\n").first { $0.contains("[A2]") }.map(String.init) ?? ""
        #expect(row.contains(" D3 ") && row.contains(" E4 ") && row.hasSuffix("auto"), "\(row)")
        #expect(!row.contains("D3 ✓"), "strings not played have no tick")
        let styled = tmux.tmuxOutput("capture-pane -p -e -t 0")
        #expect(styled.contains("7m[A2]"), "the target string is drawn in reverse video")
        #expect(numbersLine(shown ?? "")?.contains("IN TUNE ✓") == true)

        tmux.keys("1")
        let locked = tmux.waitFor { $0.contains("[E2]") && $0.contains("locked") && $0.contains("+500.0 ¢") }
        #expect(locked != nil, "key 1 locks the E string; the A2 reads 500 cents sharp of it:\n\(tmux.screen)")
        tmux.keys("0")
        #expect(tmux.waitFor { $0.contains("[A2]") && $0.contains("auto") } != nil, "key 0: automatic again")

        tmux.keys("s")
        let strobe = tmux.waitFor { $0.split(separator: "\n").contains { $0.contains("░") && $0.contains("▓") } }
        #expect(strobe != nil, "key s shows the strobe band:\n\(tmux.screen)")

        tmux.keys("q")
        expectCleanExit(tmux, status: 0)
    }
}
