import Foundation
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
import TunerTestSupport

/// The one way from measurements to readings: note and cents for A4, the tolerance, and settings
/// changed on the consumer's side.
@Suite struct ReadingPipelineTests {
    @Test func theNearestNoteAndCentsFollowA4() {
        // 110 Hz against A4 = 400 Hz lies between notes; the reading names the nearest one and the
        // distance to it, the same as Note.nearest computes.
        let pipeline = ReadingPipeline(settings: .init(a4: Hertz(400)))
        let reading = pipeline.reading(from: PitchMeasurement(time: 1, frequency: Hertz(110), clarity: 0.9,
                                                              level: Decibels(-20)))
        let expected = Note.nearest(to: Hertz(110), a4: Hertz(400))
        #expect(reading.pitch?.note == expected.note)
        #expect(reading.pitch?.rawCents == expected.cents)
        #expect(reading.time == 1 && reading.confidence == 0.9 && reading.level == Decibels(-20))
        // At 440 the same frequency is A2 exactly.
        let at440 = ReadingPipeline().reading(from: PitchMeasurement(time: 1, frequency: Hertz(110), clarity: 0.9,
                                                                     level: Decibels(-20)))
        #expect(at440.pitch?.note.description == "A2" && at440.pitch?.rawCents == Cents(0))
    }

    @Test func centsAreClampedToTheNeedleAndJudgedWithTheTolerance() {
        var pipeline = ReadingPipeline(settings: .init(tolerance: Cents(3)))
        func reading(_ cents: Double) -> Reading {
            pipeline.reading(from: PitchMeasurement(time: 0, frequency: Hertz(110).shifted(by: Cents(cents)),
                                                    clarity: 1, level: Decibels(-20)))
        }
        #expect(reading(2.9).isInTune && !reading(3.1).isInTune)
        pipeline.settings.tolerance = Cents(5)
        #expect(reading(3.1).isInTune && !reading(5.1).isInTune)
        // 49.9 ¢ sharp of A2 stays A2 (nearest), and the needle's cents equal the raw ones within ±50.
        let far = reading(49.9)
        #expect(far.pitch?.note.description == "A2" && abs((far.pitch?.cents.value ?? 0) - 49.9) < 1e-9)
    }

    @Test func noFrequencyOrOneOutsideMIDIIsNoPitch() {
        let pipeline = ReadingPipeline()
        for frequency in [nil, Hertz(0), Hertz(-3), Hertz(.nan), Hertz(.infinity), Hertz(7), Hertz(20_000)] {
            let reading = pipeline.reading(from: PitchMeasurement(time: 0, frequency: frequency, clarity: 0,
                                                                  level: Decibels(-20)))
            #expect(reading.pitch == nil, "\(String(describing: frequency))")
        }
        // 8.5 Hz is MIDI 0 (C-1, 8.18 Hz) within 50 ¢: still a note; the engine never reports it.
        #expect(pipeline.reading(from: PitchMeasurement(time: 0, frequency: Hertz(8.3), clarity: 1,
                                                        level: Decibels(-20))).pitch?.note.midi == 0)
    }

    @Test func settingsChangedWhileConsumingApplyToTheNextMeasurementOnly() async throws {
        let rate = 48000.0
        // A4 4 ¢ sharp for 2 s. After 1 s of measurements, the consumer changes its pipeline's tolerance
        // and A4: nothing goes to the analysis thread, and the very next measurement is judged anew.
        let source = ArraySource(Synth.sine(Hertz(440).shifted(by: Cents(4)), seconds: 2, sampleRate: rate),
                                 sampleRate: rate, chunk: 480)
        let session = try TunerSession(source: source)
        var pipeline = ReadingPipeline(settings: .init(tolerance: Cents(3)))
        var before: [Reading] = [], after: [Reading] = []
        for await measurement in session.measurements {
            let step = pipeline.process(measurement)
            if measurement.time <= 1.0 {
                before.append(step.reading)
                if measurement.time == 1.0 { pipeline.settings = .init(a4: Hertz(441), tolerance: Cents(5)) }
            } else {
                after.append(step.reading)
            }
        }
        #expect(before.filter { $0.time > 0.5 }.allSatisfy { !$0.isInTune && $0.tolerance == Cents(3) })
        #expect(after.count == 100)
        #expect(after.allSatisfy { $0.tolerance == Cents(5) })
        // At A4 = 441 the note is 4 − 3.93 = 0.07 ¢ sharp: in tune with either tolerance.
        let held = after.filter { $0.time > 1.5 }
        #expect(!held.isEmpty && held.allSatisfy {
            $0.isInTune && abs($0.pitch!.cents.value - (4 - 1200 * log2(441.0 / 440))) < 0.05
        })
    }

    @Test func theTrackerStepsOnceForEveryMeasurement() {
        // The pipeline's last stage is the TuningTracker: with a tuning, each measurement gets its target
        // string, and a held note settles once.
        var pipeline = ReadingPipeline(tuning: Tuning.named("guitar"))
        var settled: [SettledNote] = []
        for i in 0..<100 {
            let step = pipeline.process(PitchMeasurement(time: Double(i) / 100, frequency: Hertz(110),
                                                         clarity: 1, level: Decibels(-20)))
            #expect(step.target?.stringIndex == 1)
            if let s = step.settled { settled.append(s) }
        }
        #expect(settled.count == 1 && settled.first?.stringIndex == 1)
    }
}
