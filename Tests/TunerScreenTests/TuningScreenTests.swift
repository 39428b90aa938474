import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

/// The musician's screen through the pure model and the text canvas: the tuning row, string locks,
/// cents from the target string, and the strobe band.
@Suite struct TuningScreenTests {
    static let guitar = Tuning.named("guitar")!

    func model(tuning: Tuning? = guitar, rows: Int = 24, columns: Int = 80) -> ScreenModel {
        ScreenModel(sourceLabel: "file strings.wav, 48000 Hz", sampleRate: 48000,
                    size: ScreenSize(rows: rows, columns: columns), tuning: tuning)
    }

    func render(_ model: ScreenModel) -> TextCanvas {
        let canvas = TextCanvas(size: model.size)
        ScreenRenderer.draw(model, on: canvas)
        return canvas
    }

    /// A reading of `midi` `cents` off at `time`.
    func reading(_ midi: Int, _ cents: Double, at time: Double) -> PitchMeasurement {
        PitchMeasurement(time: time, frequency: Note(midi: midi).frequency().shifted(by: Cents(cents)), clarity: 0.9,
                         level: Decibels(-18))
    }

    /// Holds `midi` for `seconds` from `start`, one reading per 10 ms.
    func hold(_ m: inout ScreenModel, _ midi: Int, _ cents: Double, from start: Double, seconds: Double) {
        for i in 0..<Int(seconds * 100) { m.apply(reading(midi, cents, at: start + Double(i) / 100)) }
    }

    func row(_ canvas: TextCanvas, containing text: String) -> Int? {
        canvas.lines.firstIndex { $0.contains(text) }
    }

    @Test func theTuningRowHighlightsTheTargetAndTicksAnInTuneSettledString() throws {
        var m = model()
        hold(&m, 45, 0.5, from: 0, seconds: 0.3)
        var c = render(m)
        let r = try #require(row(c, containing: "[A2]"), "the target string is marked:\n\(c.text)")
        #expect(c.lines[r].contains(" E2 ") && c.lines[r].contains(" E4 "), "every string is named")
        #expect(!c.lines[r].contains("✓"), "nothing has settled yet")
        #expect(c.lines[r].hasSuffix("auto"))
        let column = Array(c.lines[r]).firstIndex(of: "[")!
        #expect(c.styles[r][column] == .active && c.styles[r][column + 3] == .active, "drawn reversed")
        #expect(c.styles[r][Array(c.lines[r]).firstIndex(of: "E")!] == .normal)
        // Under the big note, above the numbers.
        let numbers = try #require(row(c, containing: " Hz   "))
        #expect(numbers == r + 1)
        #expect(c.lines[numbers].contains("A2") && c.lines[numbers].contains("+0.5 ¢   IN TUNE ✓"))

        hold(&m, 45, 0.5, from: 0.3, seconds: 0.5)  // held 0.8 s: settled in tune
        c = render(m)
        #expect(c.lines[r].contains("[A2]✓"), "\(c.lines[r])")
        let tick = Array(c.lines[r]).firstIndex(of: "✓")!
        #expect(c.styles[r][tick] == .good)
        #expect(m.strings.map(\.isDone) == [false, true, false, false, false, false])

        // The low E string 10 cents flat: it becomes the target, settles, and shows -10, no ✓.
        hold(&m, 40, -10, from: 1, seconds: 0.8)
        c = render(m)
        #expect(c.lines[r].contains("[E2]-10"), "\(c.lines[r])")
        #expect(c.lines[r].contains(" A2 ✓"), "A2 stays done")
        #expect(c.text.contains("-10.0 ¢   ♭ FLAT — tune up"))
        #expect(c.lines[23].contains("1-9 lock") && c.lines[23].contains("s strobe"))
    }

    @Test func digitKeysLockAStringAndCentsAreFromItsPitch() throws {
        var m = model()
        hold(&m, 45, 0, from: 0, seconds: 0.2)
        #expect(m.handle(.digit(1)) == .viewChanged)
        #expect(m.isLocked)
        m.apply(reading(45, 0, at: 0.2))
        var c = render(m)
        let r = try #require(row(c, containing: "[E2]"))
        #expect(c.lines[r].hasSuffix("locked"))
        // An A2 measured against the locked E2 string: 500 cents sharp, needle pinned right.
        #expect(c.text.contains("+500.0 ¢   ♯ SHARP — tune down"), "\(c.text)")
        #expect(m.shown?.cents == Cents(50) && m.shown?.note.description == "E2")
        #expect(m.handle(.digit(7)) == .ignored, "a guitar has six strings")
        #expect(m.handle(.digit(0)) == .viewChanged)
        m.apply(reading(45, 0, at: 0.3))
        hold(&m, 45, 0, from: 0.31, seconds: 0.3)
        c = render(m)
        #expect(c.lines[r].contains("[A2]") && c.lines[r].hasSuffix("auto"), "back to automatic: \(c.lines[r])")

        var chromatic = model(tuning: nil)
        #expect(chromatic.handle(.digit(1)) == .ignored)
        chromatic.apply(reading(45, 0, at: 0))
        #expect(!render(chromatic).text.contains("[A2]"), "no tuning row without a tuning")
    }

    /// True when `after` is `before` moved by `cells` whole cells (+ right, - left), comparing the
    /// cells both have (the pattern enters at one edge).
    func isShifted(_ before: String, _ after: String, by cells: Int) -> Bool {
        let b = Array(before), a = Array(after)
        guard a.count == b.count, abs(cells) < b.count else { return false }
        return (0..<b.count).allSatisfy { i in !(0..<b.count).contains(i - cells) || a[i] == b[i - cells] }
    }

    @Test(arguments: [(5.0, 1), (-5.0, -1), (0.0, 0)])
    func theStrobeDriftsRightWhenSharpLeftWhenFlatAndStandsStillInTune(cents: Double, cells: Int) throws {
        for tuning in [Self.guitar, nil] as [Tuning?] {
            var m = model(tuning: tuning)
            #expect(m.strobeBand == nil)
            #expect(m.handle(.strobe) == .viewChanged)
            m.apply(reading(45, cents, at: 1.0))
            let before = try #require(m.strobeBand)
            #expect(before.count == m.scaleWidth)
            // 0.2 s of reading time at 5 ¢ (1 cell per second per cent): one cell.
            for i in 1...20 { m.apply(reading(45, cents, at: 1.0 + Double(i) / 100)) }
            let after = try #require(m.strobeBand)
            #expect(isShifted(before, after, by: cells), "\(cents) ¢:\n\(before)\n\(after)")
            if cells != 0 {
                #expect(after != before)
                #expect(!isShifted(before, after, by: -cells), "not the other way")
            } else {
                #expect(after == before)
            }
            // Drawn under the scale.
            let c = render(m)
            let scale = try #require(row(c, containing: "├"))
            #expect(c.lines[scale + 1].trimmingCharacters(in: .whitespaces) == after)
            #expect(m.handle(.strobe) == .viewChanged)
            #expect(!render(m).text.contains(after))
        }
    }

    @Test func aSmallTerminalKeepsTheTuningRowAndTheStrobe() throws {
        var m = model(rows: 12, columns: 40)
        _ = m.handle(.strobe)
        hold(&m, 50, 1, from: 0, seconds: 0.8)
        let c = render(m)
        #expect(c.lines.count == 12)
        let r = try #require(row(c, containing: "[D3]✓"), "\(c.text)")
        #expect(c.lines[r].count <= 40)
        #expect(row(c, containing: "├") != nil)
        #expect(c.text.contains("░") || c.text.contains("▓"), "strobe band")
        #expect(c.lines[11].contains("q quit"))
        #expect(!c.text.contains("-25"), "scale labels made room")
    }

    @Test func curseKeysMapToDigitsAndTheStrobe() {
        #expect(CursesTerminal.key(for: 48) == .digit(0))
        #expect(CursesTerminal.key(for: 49) == .digit(1))
        #expect(CursesTerminal.key(for: 57) == .digit(9))
        #expect(CursesTerminal.key(for: 115) == .strobe)
        #expect(CursesTerminal.key(for: 83) == .strobe)
        #expect(CursesTerminal.key(for: 113) == .quit)
    }

    @Test func flatAndSharpLabelsUseTheMusicalSigns() {
        #expect(ScreenRenderer.displayLabel("Eb2") == "E♭2")
        #expect(ScreenRenderer.displayLabel("F#3") == "F♯3")
        #expect(ScreenRenderer.displayLabel("B3") == "B3")
        var m = model(tuning: Tuning.named("half-step-down"))
        m.apply(reading(39, 0, at: 0))
        #expect(render(m).text.contains("[E♭2]"))
    }
}
