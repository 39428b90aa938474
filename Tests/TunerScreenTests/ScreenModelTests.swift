import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

/// What the engine reports for MIDI note `midi` `cents` off (at A4 = 440 Hz).
func reading(midi: Int = 45, cents: Double, level: Double = -18) -> PitchMeasurement {
    PitchMeasurement(time: 0, frequency: Note(midi: midi).frequency().shifted(by: Cents(cents)), clarity: 0.9,
                     level: Decibels(level))
}

func silence(level: Double = -90) -> PitchMeasurement {
    PitchMeasurement(time: 0, frequency: nil, clarity: 0, level: Decibels(level))
}

@Suite struct ScreenModelTests {
    var model = ScreenModel(sourceLabel: "test", sampleRate: 48000, size: ScreenSize(rows: 24, columns: 80))

    @Test func settingsAreClampedToTheirRanges() {
        let m = ScreenModel(settings: .init(a4: Hertz(500), tolerance: Cents(0)), sourceLabel: "x",
                            sampleRate: 1, size: ScreenSize(rows: 24, columns: 80))
        #expect(m.settings.a4 == Hertz(480))
        #expect(m.settings.tolerance == Cents(0.1))
    }

    @Test func toleranceKeysStepHalfThenWholeCentsWithinRange() {
        var m = model
        do {
            let result = m.handle(.toleranceUp)
            #expect(result == .settingsChanged(.init(a4: Hertz(440), tolerance: Cents(3.5))))
        }
        var seen: [Double] = [m.settings.tolerance.value]
        while case .settingsChanged = m.handle(.toleranceUp) { seen.append(m.settings.tolerance.value) }
        #expect(seen.prefix(4) == [3.5, 4, 4.5, 5])
        #expect(seen.dropFirst(4).prefix(2) == [6, 7])
        #expect(m.settings.tolerance == Cents(50))
        do {
            let result = m.handle(.toleranceUp)
            #expect(result == .ignored, "stops at 50 ¢")
        }
        while case .settingsChanged = m.handle(.toleranceDown) {}
        #expect(m.settings.tolerance == Cents(0.1))
        do {
            let result = m.handle(.toleranceUp)
            #expect(result == .settingsChanged(.init(a4: Hertz(440), tolerance: Cents(0.5))))
        }
    }

    @Test func offStepToleranceMovesToTheNextStep() {
        var m = ScreenModel(settings: .init(tolerance: Cents(2.3)), sourceLabel: "x", sampleRate: 1,
                            size: ScreenSize(rows: 24, columns: 80))
        _ = m.handle(.toleranceDown)
        #expect(m.settings.tolerance == Cents(2))
    }

    @Test func referenceKeysNudgeByOneHertzWithin400And480() {
        var m = model
        do {
            let result = m.handle(.referenceUp)
            #expect(result == .settingsChanged(.init(a4: Hertz(441), tolerance: Cents(3))))
        }
        do {
            let result = m.handle(.referenceDown)
            #expect(result == .settingsChanged(.init(a4: Hertz(440), tolerance: Cents(3))))
        }
        for _ in 0..<100 { _ = m.handle(.referenceDown) }
        #expect(m.settings.a4 == Hertz(400))
        do {
            let result = m.handle(.referenceDown)
            #expect(result == .ignored)
        }
        for _ in 0..<100 { _ = m.handle(.referenceUp) }
        #expect(m.settings.a4 == Hertz(480))
    }

    @Test func quitAndOtherKeys() {
        var m = model
        do {
            let result = m.handle(.quit)
            #expect(result == .quit)
        }
        do {
            let result = m.handle(.other)
            #expect(result == .ignored)
        }
    }

    @Test func changesOnlyWhenWhatIsShownChanges() {
        var m = model
        do {
            let result = m.apply(reading(cents: -7.31))
            #expect(result)
        }
        #expect(m.shown?.cents == Cents(-7.3))
        let frequency = m.shown?.frequency
        do {
            let result = m.apply(reading(cents: -7.28))
            #expect(!result, "same to 0.1 ¢: nothing to redraw")
        }
        #expect(m.shown?.frequency == frequency, "the numbers on screen stay those of the drawn reading")
        do {
            let result = m.apply(reading(cents: -7.36))
            #expect(result, "-7.4 now")
        }
        do {
            let result = m.apply(reading(midi: 46, cents: -7.36))
            #expect(result, "another note")
        }
        do {
            let result = m.apply(reading(midi: 46, cents: -7.36, level: -19))
            #expect(!result, "level within the same bucket")
        }
        do {
            let result = m.apply(reading(midi: 46, cents: -7.36, level: -50))
            #expect(result, "level bucket changed")
        }
    }

    @Test func inTuneFollowsTheModelsToleranceAtOnce() {
        var m = model
        m.apply(reading(cents: 3.4))
        #expect(!m.isInTune)
        _ = m.handle(.toleranceUp)  // 3.5
        #expect(m.isInTune)
        #expect(m.display.inTune)
    }

    @Test func silenceHoldsTheLastNoteAndClosesTheGate() {
        var m = model
        m.apply(reading(cents: 0.2))
        #expect(m.isInTune && !m.gateClosed)
        do {
            let result = m.apply(silence())
            #expect(result)
        }
        #expect(m.shown?.note == Note(midi: 45), "held")
        #expect(m.shown?.live == false)
        #expect(!m.isInTune, "no in-tune cue without a live pitch")
        #expect(m.gateClosed)
        #expect(m.levelBucket == 0)
        do {
            let result = m.apply(silence(level: -95))
            #expect(!result, "still silent")
        }
    }

    @Test func levelBucketsSpanMinus80To0() {
        var m = model
        m.apply(silence(level: 0))
        #expect(m.levelBucket == ScreenModel.levelBuckets)
        m.apply(silence(level: -40))
        #expect(m.levelBucket == ScreenModel.levelBuckets / 2)
        m.apply(silence(level: -.infinity))
        #expect(m.levelBucket == 0)
    }

    @Test func tooSmallBelow40By12() {
        var m = model
        #expect(!m.size.isTooSmall)
        do {
            let result = m.resize(to: ScreenSize(rows: 11, columns: 80))
            #expect(result)
        }
        #expect(m.size.isTooSmall)
        do {
            let result = m.resize(to: ScreenSize(rows: 12, columns: 39))
            #expect(result)
        }
        #expect(m.size.isTooSmall)
        do {
            let result = m.resize(to: ScreenSize(rows: 12, columns: 40))
            #expect(result)
        }
        #expect(!m.size.isTooSmall)
        do {
            let result = m.resize(to: ScreenSize(rows: 12, columns: 40))
            #expect(!result, "same size: nothing to redraw")
        }
    }

    @Test func inputEndKeepsTheReadingAndItsCue() {
        var m = model
        m.apply(reading(cents: 1))
        do {
            let result = m.inputEnded()
            #expect(result)
        }
        #expect(m.ended && m.shown != nil && m.isInTune)
    }
}
