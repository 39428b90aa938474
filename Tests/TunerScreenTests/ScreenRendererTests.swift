import Foundation
import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

@Suite struct ScreenRendererTests {
    func render(_ model: ScreenModel) -> TextCanvas {
        let canvas = TextCanvas(size: model.size)
        ScreenRenderer.draw(model, on: canvas)
        return canvas
    }

    func model(rows: Int = 24, columns: Int = 80) -> ScreenModel {
        ScreenModel(sourceLabel: "file a2.wav, 44100 Hz", sampleRate: 44100, size: ScreenSize(rows: rows, columns: columns))
    }

    @Test func showsNoteFrequencyCentsAndFlatCue() {
        var m = model()
        m.apply(reading(cents: -7.3))
        let c = render(m)
        #expect(c.text.contains("A2   109.54 Hz   -7.3 ¢   ♭ FLAT — tune up"))
        for row in BigGlyphs.note("A", octave: 2) {
            #expect(c.text.contains(row.trimmingCharacters(in: .whitespaces)), "the big note")
        }
        #expect(c.lines[0].contains("file a2.wav, 44100 Hz · A4 440 Hz · tolerance ±3.0 ¢"))
        #expect(c.lines[23].contains("q quit"))
        #expect(!c.text.contains("IN TUNE"))
    }

    @Test func inTuneHasATextCueAndItsOwnStyle() {
        var m = model()
        m.apply(reading(midi: 46, cents: 1.04))
        let c = render(m)
        #expect(c.text.contains("A♯2"))
        #expect(c.text.contains("+1.0 ¢   IN TUNE ✓"))
        let row = c.lines.firstIndex { $0.contains("IN TUNE") }!
        let column = Array(c.lines[row]).firstIndex(of: "I")!
        #expect(c.styles[row][column] == .good)
        #expect(c.text.contains("♯"), "sharp sign")
        #expect(c.lines.contains { $0.contains(BigGlyphs.rows("A♯")[1]) }, "big sharp sign")
    }

    @Test func needleSitsOnTheScaleAndZoneWidensWithTolerance() {
        var m = model()
        m.apply(reading(cents: -50))
        var c = render(m)
        let scaleRow = c.lines.firstIndex { $0.contains("┃") }!
        let scale = Array(c.lines[scaleRow])
        #expect(c.lines[scaleRow - 1].contains("▼"))
        let left = scale.firstIndex { $0 != " " }!
        #expect(scale[left] == "█", "needle at -50 ¢ is at the left end")
        let narrow = scale.filter { $0 == "▒" }.count
        for _ in 0..<10 { _ = m.handle(.toleranceUp) }
        c = render(m)
        #expect(Array(c.lines[scaleRow]).filter { $0 == "▒" }.count > narrow)
        #expect(c.lines[scaleRow + 1].contains("-50") && c.lines[scaleRow + 1].contains("+50"))
    }

    @Test func levelMeterSaysWhenTheGateIsClosed() {
        var m = model()
        m.apply(silence(level: -70))
        let c = render(m)
        #expect(c.text.contains("gate closed"))
        #expect(c.text.contains("level ▕██░"))
    }

    @Test func tooSmallTerminalGetsAPlainMessage() {
        let c = render(model(rows: 10, columns: 30))
        #expect(c.lines[0] == "Terminal too small (need")
        #expect(c.lines[1] == "40×12)")
        let wide = render(model(rows: 11, columns: 80))
        #expect(wide.lines[0] == "Terminal too small (need 40×12)")
    }

    @Test func everythingFitsTheMinimumSize() {
        var m = model(rows: 12, columns: 40)
        m.apply(reading(midi: 46, cents: -49.9))
        let c = render(m)
        #expect(c.lines[0].hasPrefix(" A4 440 Hz · tolerance ±3.0 ¢ · file"), "settings first when narrow")
        #expect(c.text.contains("A♯2"))
        #expect(c.text.contains("-49.9 ¢"))
        #expect(c.text.contains("level"))
        #expect(c.lines[11].contains("q quit"))
    }

    @Test func signedCentsFormat() {
        #expect(ScreenRenderer.signedCents(Cents(0.04)) == "0.0 ¢")
        #expect(ScreenRenderer.signedCents(Cents(-0.04)) == "0.0 ¢")
        #expect(ScreenRenderer.signedCents(Cents(12.25)) == "+12.3 ¢" || ScreenRenderer.signedCents(Cents(12.25)) == "+12.2 ¢")
        #expect(ScreenRenderer.signedCents(Cents(-50)) == "-50.0 ¢")
    }

    @Test func bigGlyphRowsAreEvenAndCoverEveryNoteAndOctave() {
        for name in Note.sharpNames {
            for octave in -1...9 {
                let rows = BigGlyphs.note(name, octave: octave)
                #expect(rows.count == BigGlyphs.height)
                #expect(Set(rows.map(\.count)).count == 1)
                #expect(!rows.joined().contains("?"))
            }
        }
    }
}
