import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

/// The screen with a tuning system in force: the status line says what it is, and notes are written
/// as the system names them.
@Suite struct TuningSystemScreenTests {
    func model(system: TargetSystem, tuning: Tuning? = nil) -> ScreenModel {
        ScreenModel(sourceLabel: "file x.wav, 48000 Hz", sampleRate: 48000, size: ScreenSize(rows: 24, columns: 120),
                    tuning: tuning, system: system)
    }

    @Test func theStatusLineSaysWhatIsInForce() {
        let system = TargetSystem(temperament: .named("meantone")!, root: 62, transposition: -2)
        let m = model(system: system, tuning: Tuning.named("guitar")!.capo(2))
        #expect(ScreenRenderer.statusLine(m).hasSuffix("A4 440 Hz · tolerance ±3.0 ¢ · meantone in D · capo 2 · B♭ instrument"),
                "\(ScreenRenderer.statusLine(m))")
        #expect(ScreenRenderer.statusLine(model(system: TargetSystem(names: .german))).hasSuffix("±3.0 ¢ · german names"))
        // Nothing in force: the line of before.
        #expect(ScreenRenderer.statusLine(model(system: .standard)) == "file x.wav, 48000 Hz · A4 440 Hz · tolerance ±3.0 ¢")
    }

    @Test func notesAreWrittenAsTheSystemNamesThem() {
        var m = model(system: TargetSystem(names: .german))
        m.apply(PitchMeasurement(time: 0, frequency: Note(parsing: "B3")!.frequency(), clarity: 1, level: Decibels(-20)))
        let canvas = TextCanvas(size: m.size)
        ScreenRenderer.draw(m, on: canvas)
        #expect(canvas.lines.contains { $0.contains("H3   246.94 Hz   0.0 ¢") }, "\(canvas.text)")
        // The big letters draw an H, not the "?" of an unknown glyph.
        #expect(BigGlyphs.note("H3") == BigGlyphs.note("H", octave: 3))
        #expect(!BigGlyphs.rows("H").joined().isEmpty && BigGlyphs.rows("H") != BigGlyphs.rows("?"))
        #expect(BigGlyphs.rows("SOL") != BigGlyphs.rows("???"))
    }

    @Test func meantoneCentsAreFromTheTemperedTarget() {
        // 328.977 Hz is meantone's E4: in tune on a meantone screen, 3.4 ¢ flat on an equal one.
        var tempered = model(system: TargetSystem(temperament: .named("meantone")!))
        tempered.apply(PitchMeasurement(time: 0, frequency: Hertz(328.977), clarity: 1, level: Decibels(-20)))
        #expect(tempered.shown?.offset == Cents(0) && tempered.isInTune)
        var equal = model(system: .standard)
        equal.apply(PitchMeasurement(time: 0, frequency: Hertz(328.977), clarity: 1, level: Decibels(-20)))
        #expect(equal.shown?.offset == Cents(-3.4) && !equal.isInTune)
    }
}
