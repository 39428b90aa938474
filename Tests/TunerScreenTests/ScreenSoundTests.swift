import Testing
import TunerKit
@testable import TunerScreen

/// Key t (the reference tone) and the chimes, in the model and the loop: what is asked to play, and
/// that the input is ignored while the tuner's own sound plays and for `InputMute.tail` after.
@Suite struct ScreenSoundTests {
    static func timed(_ r: Reading, _ time: Double) -> Reading {
        var r = r
        r.time = time
        return r
    }

    func model(tuning: Tuning? = nil) -> ScreenModel {
        ScreenModel(sourceLabel: "test", sampleRate: 48000, size: ScreenSize(rows: 24, columns: 80), tuning: tuning)
    }

    @Test func keyTPlaysTheNoteShownAtTheCurrentA4() {
        var m = model()
        #expect(m.handle(.tone) == .ignored, "nothing to play before a note was heard")
        m.apply(Self.timed(reading(midi: 45, cents: 4), 0.01))
        _ = m.handle(.referenceUp)
        #expect(m.handle(.tone) == .play(.tone(Note(midi: 45), a4: Hertz(441))))
    }

    @Test func withATuningKeyTPlaysTheTargetStringNotTheNoteHeard() {
        var m = model(tuning: Tuning.named("guitar")!)
        // 60 ¢ sharp of A2 is heard as A♯2, but the target is the A string.
        m.apply(Self.timed(reading(midi: 45, cents: 49), 0.01))
        m.apply(Self.timed(reading(midi: 46, cents: -40), 0.02))
        #expect(m.shown?.heard == Note(midi: 46))
        #expect(m.handle(.tone) == .play(.tone(Note(midi: 45), a4: Hertz(440))))
    }

    @Test func inputIsIgnoredWhileTheSoundPlaysAndForTheTailAfter() {
        var m = model()
        m.apply(Self.timed(reading(midi: 45, cents: 1), 1.0))
        #expect(m.shown?.live == true)
        m.soundStarted(.tone(Note(midi: 45), a4: Hertz(440)))
        #expect(m.toneNote == Note(midi: 45))
        #expect(ScreenRenderer.bottomLine(m).hasPrefix("♪ A2 — playing"))
        m.apply(Self.timed(reading(midi: 45, cents: 20), 1.5))
        #expect(m.shown?.live == false, "its own tone is not read")
        #expect(m.shown?.offset == Cents(1))
        #expect(m.handle(.tone) == .ignored, "one sound at a time")
        m.soundEnded(failure: nil)
        #expect(m.toneNote == nil)
        m.apply(Self.timed(reading(midi: 45, cents: 20), 1.5 + InputMute.defaultTail - 0.01))
        #expect(m.shown?.live == false, "still within the tail")
        m.apply(Self.timed(reading(midi: 45, cents: 20), 1.5 + InputMute.defaultTail + 0.01))
        #expect(m.shown?.live == true)
        #expect(m.shown?.offset == Cents(20))
    }

    @Test func aSoundThatCouldNotPlayIsShownUntilTheNextKey() {
        var m = model()
        m.soundStarted(.chime(inTune: true))
        m.soundEnded(failure: "cannot open playback device \"x\"")
        #expect(ScreenRenderer.bottomLine(m) == "cannot open playback device \"x\"")
        _ = m.handle(.strobe)
        #expect(ScreenRenderer.bottomLine(m) == ScreenRenderer.keyHelp)
    }
}
