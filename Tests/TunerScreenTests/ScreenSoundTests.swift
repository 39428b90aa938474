import Foundation
import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

/// Key t (the reference tone) and the chimes, in the model and the loop: what is asked to play, and
/// that the input is ignored while the tuner's own sound plays and for `InputMute.tail` after.
@Suite struct ScreenSoundTests {
    static func timed(_ r: PitchMeasurement, _ time: Double) -> PitchMeasurement {
        var r = r
        r.time = time
        return r
    }

    func model(tuning: Tuning? = nil) -> ScreenModel {
        ScreenModel(sourceLabel: "test", sampleRate: 48000, size: ScreenSize(rows: 24, columns: 80), tuning: tuning)
    }

    @Test func keyTPlaysTheNoteShownAtTheCurrentA4() {
        var m = model()
        #expect(m.handle(.tone) == .viewChanged, "nothing to play before a note was heard: it says so")
        #expect(ScreenRenderer.bottomLine(m) == "t: no note to play yet; play a string first")
        m.apply(Self.timed(reading(midi: 45, cents: 4), 0.01))
        _ = m.handle(.referenceUp)
        #expect(m.handle(.tone) == .play(.tone(Note(midi: 45), frequency: Note(midi: 45).frequency(a4: Hertz(441)))))
    }

    @Test func withATuningKeyTPlaysTheTargetStringNotTheNoteHeard() {
        var m = model(tuning: Tuning.named("guitar")!)
        // 60 ¢ sharp of A2 is heard as A♯2, but the target is the A string.
        m.apply(Self.timed(reading(midi: 45, cents: 49), 0.01))
        m.apply(Self.timed(reading(midi: 46, cents: -40), 0.02))
        #expect(m.shown?.heard == Note(midi: 46))
        #expect(m.handle(.tone) == .play(.tone(Note(midi: 45), frequency: Hertz(110))))
    }

    @Test func inputIsIgnoredWhileTheSoundPlaysAndForTheTailAfter() {
        var m = model()
        m.apply(Self.timed(reading(midi: 45, cents: 1), 1.0))
        #expect(m.shown?.live == true)
        m.soundStarted(.tone(Note(midi: 45), frequency: Hertz(110)))
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

/// A player that plays nothing and says so at once; the loop's `post` drops its `.soundEnded`, so a
/// sound, once started, lasts as long as the test wants.
struct SilentSounds: ScreenSounds {
    func play(_ sound: ScreenSound) async -> String? { nil }
}

@Suite struct ScreenChimeTests {
    /// A2 +1 ¢ for 0.8 s (it settles in tune at 0.5 s), then the "chime" heard as C4 for 0.4 s.
    func run(chime: Bool) async -> ScreenModel {
        let input = ScriptedInput()
        let loop = ScreenLoop(model: ScreenModel(sourceLabel: "fake", sampleRate: 48000, size: input.size),
                              canvas: TextCanvas(size: input.size), input: input, sounds: SilentSounds(),
                              chime: chime, post: { _ in })
        let (stream, send) = AsyncStream<ScreenEvent>.makeStream()
        for i in 0..<80 { send.yield(.measurement(ScreenSoundTests.timed(reading(midi: 45, cents: 1), Double(i) / 100))) }
        for i in 80..<120 { send.yield(.measurement(ScreenSoundTests.timed(reading(midi: 60, cents: 0), Double(i) / 100))) }
        send.yield(.signal(15))
        _ = await loop.run(stream)
        return loop.model
    }

    @Test func aNoteSettlingInTuneChimesAndTheChimeIsNotRead() async {
        let model = await run(chime: true)
        #expect(model.soundPlaying == .chime(inTune: true))
        #expect(model.shown?.note == Note(midi: 45), "C4 during the chime was ignored")
        #expect(model.shown?.live == false)
        let control = await run(chime: false)
        #expect(control.soundPlaying == nil)
        #expect(control.shown?.note == Note(midi: 60), "without the chime, the same input is read")
    }
}

/// `--chime` in strum mode (`--poly`, key p): a chime when the strum settles, in tune only when every
/// heard string is, and the strum read while the chime sounds is ignored.
@Suite struct ScreenStrumChimeTests {
    static let guitar = Tuning.named("guitar")!

    /// One hop: each string at `cents` from its target (nil: not heard).
    static func strum(_ cents: [Double?], at time: Double) -> PolyMeasurement {
        let targets = StrumJudge(tuning: guitar).targets
        return PolyMeasurement(time: time, strings: zip(targets, cents).map { target, c in
            StringMeasurement(frequency: c.map { Hertz(target.value * pow(2, $0 / 1200)) }, level: Decibels(-20),
                              clarity: 0.9)
        })
    }

    /// `first` for 0.8 s (it settles at 0.5 s), then `then` for 0.4 s — while the chime sounds.
    func run(chime: Bool, first: [Double?], then: [Double?]) async -> ScreenModel {
        let input = ScriptedInput()
        let model = ScreenModel(sourceLabel: "fake", sampleRate: 48000, size: input.size, tuning: Self.guitar,
                                readsStrums: true)
        let loop = ScreenLoop(model: model, canvas: TextCanvas(size: input.size), input: input,
                              sounds: SilentSounds(), chime: chime, post: { _ in })
        let (stream, send) = AsyncStream<ScreenEvent>.makeStream()
        for i in 0..<80 { send.yield(.strum(Self.strum(first, at: Double(i) / 100))) }
        for i in 80..<120 { send.yield(.strum(Self.strum(then, at: Double(i) / 100))) }
        send.yield(.signal(15))
        _ = await loop.run(stream)
        return loop.model
    }

    @Test func aStrumSettlingInTuneChimesInTuneAndTheChimeIsNotRead() async {
        let inTune: [Double?] = [1, -1, 0, 2, nil, 1]  // a muted B string does not count
        let other: [Double?] = [40, 40, 40, 40, 40, 40]
        let model = await run(chime: true, first: inTune, then: other)
        #expect(model.soundPlaying == .chime(inTune: true))
        // The chime starts at the hop the strum settled on; nothing after it (0.8 s on, 40 ¢ sharp) was read.
        #expect((model.strum?.time ?? 1) < 0.8, "the strum during the chime was ignored: \(String(describing: model.strum?.time))")
        #expect(model.strum?.strings[0].map { abs($0.cents.value - 1) < 0.01 } == true)
        let control = await run(chime: false, first: inTune, then: other)
        #expect(control.soundPlaying == nil)
        #expect(control.strum?.time == 1.19, "without the chime, the same input is read")
    }

    @Test func oneStringOutOfTuneChimesOutOfTune() async {
        let tolerance = ScreenModel.Settings().tolerance.value
        // Just inside and just outside the tolerance, on one string: bracketed from both sides.
        let inside = await run(chime: true, first: [0, 0, 0, tolerance - 0.5, 0, 0], then: [0, 0, 0, 0, 0, 0])
        #expect(inside.soundPlaying == .chime(inTune: true))
        let outside = await run(chime: true, first: [0, 0, 0, tolerance + 0.5, 0, 0], then: [0, 0, 0, 0, 0, 0])
        #expect(outside.soundPlaying == .chime(inTune: false))
    }
}
