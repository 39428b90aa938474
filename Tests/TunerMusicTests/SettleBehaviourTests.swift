import Foundation
import Testing
import TunerAudio
import TunerBridge
@testable import TunerMusic

/// One settled event per note, whatever its pitch does while it sounds (issue 19): real engine
/// readings of synthesised notes, through the `TuningTracker` every output uses.
@Suite struct SettleBehaviourTests {
    func events(_ readings: [Reading], tuning: Tuning? = nil) -> [SettledNote] {
        var tracker = TuningTracker(tuning: tuning)
        return readings.compactMap { tracker.process($0).settled }
    }

    /// The three partials of `shaped`, each decaying 1/e per `decay` seconds.
    static func decaying(_ decay: Double) -> (Int, Double) -> Double {
        { k, t in [1, 0.5, 0.25][k - 1] * exp(-t / decay) }
    }

    @Test func aDecayingPluckWhosePitchSinksIsOneEvent() throws {
        // A2 plucked sharp (+10 ¢ at the attack, gone within 0.3 s), then sinking 3 ¢ a second for
        // 4.5 s while it decays: 13 ¢ in all. The old detector re-announced it every 5 ¢.
        let signal = MusicianSignals.shaped(Hertz(110), seconds: 4.5, cents: { t in 10 * exp(-t / 0.1) - 3 * t },
                                            partial: Self.decaying(1.5))
        let found = events(try MusicianSignals.readings(of: signal))
        #expect(found.count == 1, "\(found)")
        // The value is the steady part's, just after the attack, not the attack's sharp start.
        let first = try #require(found.first)
        #expect(first.note.description == "A2")
        #expect(abs(first.cents.value) < 2.5, "\(first)")
    }

    @Test func aBowWaverOfFiveCentsAtFiveHertzSettlesOnItsCentre() throws {
        let signal = MusicianSignals.vibrato(around: Hertz(130.81).shifted(by: Cents(-8)), depth: Cents(5),
                                             hertz: 5, seconds: 3)
        let found = events(try MusicianSignals.readings(of: signal))
        #expect(found.count == 1, "\(found)")
        #expect(found.first.map { $0.note.description == "C3" && abs($0.cents.value + 8) < 1 } == true, "\(found)")
    }

    @Test func aVibratoSettlesOnceOnItsCentre() throws {
        // ±25 ¢ at 5.5 Hz around 4 ¢ sharp of A3: one event, on the centre, once the 1 s window has it.
        // The 1 s window holds 5.5 cycles, so by where it starts its median lies up to 25·sin(π/24) =
        // 3.3 ¢ off the centre (the half cycle over five whole ones), plus what the readings add: 4.5 ¢.
        // (3.8 ¢ off since the note starts at the input's first result, not at the onset 0.16 s in.)
        let signal = MusicianSignals.vibrato(around: Hertz(220).shifted(by: Cents(4)), depth: Cents(25),
                                             hertz: 5.5, seconds: 4)
        let found = events(try MusicianSignals.readings(of: signal))
        #expect(found.count == 1, "\(found)")
        let first = try #require(found.first)
        #expect(first.note.description == "A3" && abs(first.cents.value - 4) < 4.5, "\(first)")
        #expect(first.time >= 1.0)
    }

    @Test func briefGateDropoutsDoNotRepeatTheNote() throws {
        // D3 held for 3.5 s at −15 dBFS, dropping 50 dB (under the −60 dB gate) for 0.2 s twice.
        let dips = [1.2, 2.2]
        let signal = MusicianSignals.shaped(Hertz(146.83), seconds: 3.5, partial: { k, t in
            [1, 0.5, 0.25][k - 1] * (dips.contains { t >= $0 && t < $0 + 0.2 } ? pow(10, -50.0 / 20) : 1)
        })
        let readings = try MusicianSignals.readings(of: signal)
        let silentAfterDip = readings.filter { $0.pitch == nil && $0.time > 1.2 && $0.time < 1.5 }
        #expect(silentAfterDip.count >= 10, "the gate closes for at least 0.1 s in each dip")
        let found = events(readings)
        #expect(found.count == 1, "\(found)")
    }

    @Test func aFundamentalFadingUnderItsOctaveKeepsTheNotesOctave() throws {
        // A2 whose fundamental dies in 0.5 s while its 2nd partial rings for 4 s: the engine reads A3
        // in the tail. One event, A2 — with and without a guitar tuning (string 2).
        let signal = MusicianSignals.shaped(Hertz(110), seconds: 4, partial: { k, t in
            [exp(-t / 0.5), 0.8 * exp(-t / 4), 0.2 * exp(-t / 1)][k - 1]
        })
        let readings = try MusicianSignals.readings(of: signal)
        #expect(readings.contains { $0.pitch?.note.description == "A3" }, "the tail reads an octave up")
        let found = events(readings)
        #expect(found.map(\.note.description) == ["A2"], "\(found)")
        let tuned = events(readings, tuning: Tuning.named("guitar"))
        #expect(tuned.map(\.stringIndex) == [1], "\(tuned)")
    }

    @Test func eachPluckOfTheSameStringIsOneEvent() throws {
        // The A string plucked three times, 1.5 s apart, each ringing into the next.
        let pluck = Synth.Pluck(frequency: Hertz(110), decay: 0.8).render(seconds: 1.5, sampleRate: MusicianSignals.rate)
        let found = events(try MusicianSignals.readings(of: pluck + pluck + pluck))
        #expect(found.count == 3, "\(found)")
        #expect(found.allSatisfy { $0.note.description == "A2" && $0.isInTune })
        for (event, start) in zip(found, [0.0, 1.5, 3.0]) { #expect(event.start >= start && event.time < start + 1.5) }
    }

    @Test func aRepluckAtTheSameLevelIsANewEvent() throws {
        // The A string stopped and plucked again every 0.9 s at the same strength, decaying only
        // 1.2 dB in between: no level rise to hear, only the break in its periodicity (the engine's
        // onset). Three events, one per pluck; the level alone (the Swift detector before issue 13)
        // gave one.
        let pluck = Synth.Pluck(frequency: Hertz(110), decay: 6).render(seconds: 0.9, sampleRate: MusicianSignals.rate)
        let readings = try MusicianSignals.readings(of: pluck + pluck + pluck)
        let found = events(readings)
        #expect(found.count == 3, "\(found)")
        #expect(found.allSatisfy { $0.note.description == "A2" })
        for (event, start) in zip(found, [0.0, 0.9, 1.8]) { #expect(event.start >= start && event.time < start + 0.9) }
        // The readings' levels around each re-pluck stay within the detector's 6 dB rise.
        let levels = readings.filter { $0.time > 0.3 }.map(\.level.value)
        #expect((levels.max() ?? 0) - (levels.min() ?? 0) < 6, "levels \(levels.min() ?? 0)…\(levels.max() ?? 0)")
    }

    @Test func aPegTurnedWhileABowedStringSoundsIsOneEventPerPosition() throws {
        // D3 bowed 15 ¢ flat with a ±4 ¢ waver; at 1.6 s the peg is turned up 30 ¢ over 0.3 s and
        // left there. Two events: −15 and +15.
        let signal = MusicianSignals.shaped(Hertz(146.83), seconds: 3.6, cents: { t in
            -15 + 30 * min(1, max(0, (t - 1.6) / 0.3)) + 4 * sin(2 * Double.pi * 5 * t)
        })
        let found = events(try MusicianSignals.readings(of: signal))
        #expect(found.count == 2, "\(found)")
        #expect(found.first.map { abs($0.cents.value + 15) < 1 } == true, "\(found)")
        // The second once the turn is (nearly all) out of the window: within 3 ¢ of where it stopped.
        #expect(found.last.map { abs($0.cents.value - 15) < 3 && $0.start >= 1.8 } == true, "\(found)")
    }

    @Test func aNoteOfZeroPointFourSecondsSettles() throws {
        // 0.45 s of G3 (0.4 s of full readings after the engine's window fills), then silence.
        let signal = MusicianSignals.shaped(Hertz(196), seconds: 0.45) + MusicianSignals.silence(0.6)
        let readings = try MusicianSignals.readings(of: signal)
        let pitched = readings.filter { $0.pitch != nil }
        #expect((pitched.last?.time ?? 0) - (pitched.first?.time ?? 0) < 0.5, "no more than about 0.4 s of pitch")
        let found = events(readings)
        #expect(found.count == 1, "\(found)")
        #expect(found.first.map { $0.note.description == "G3" && abs($0.cents.value) < 1 } == true)
    }

    @Test func aStringStillRingingAfterTheTunerSpokeIsNotAnnouncedAgain() {
        // A2 held 3 s; the tuner speaks (input ignored) from 0.6 to 1.5 s, after it settled. The
        // string still rings afterwards: the same note, no second announcement.
        var tracker = TuningTracker()
        let readings = MusicianSignals.path("A2", seconds: 3, cents: { _ in 1 })
        let found = readings.compactMap { tracker.process($0, ignored: $0.time >= 0.6 && $0.time < 1.5).settled }
        #expect(found.count == 1, "\(found)")
    }

    @Test func inATemperamentTheSettledCentsAreTheTargetStringsCents() throws {
        // Quarter-comma meantone: the G3 string played as F3 (a meantone whole tone, 193.2 ¢, below
        // it). The event says what every reading says: its cents from the tempered G3.
        let system = TargetSystem(temperament: try #require(Temperament.named("meantone")))
        let f3 = system.frequency(of: Note(parsing: "F3")!)
        var tracker = TuningTracker(tuning: Tuning.named("guitar"), system: system)
        var steps: [TuningTracker.Step] = []
        for i in 0..<150 {
            let nearest = try #require(system.nearest(to: f3))
            let pitch = Pitch(frequency: f3, note: nearest.note, rawCents: nearest.cents)
            steps.append(tracker.process(Reading(time: Double(i) * 0.01, pitch: pitch, level: Decibels(-20),
                                                 confidence: 0.99, tolerance: Cents(3))))
        }
        let targetCents = try #require(steps.last?.target?.rawCents.value)
        #expect(steps.last?.target?.stringIndex == 3 && abs(targetCents + 193.16) < 0.1, "\(targetCents)")
        let found = steps.compactMap(\.settled)
        #expect(found.count == 1)
        #expect(found.first.map { $0.stringIndex == 3 && abs($0.cents.value - targetCents) < 1e-6 } == true, "\(found)")
    }

    @Test func theGateDecidesWhatSettles() throws {
        // The default gate is −60 dBFS: a tone 3 dB under it never settles (a gate 5 dB looser would
        // let it), one 8 dB over it settles (a gate 10 dB stricter would not).
        let quiet = try MusicianSignals.readings(of: MusicianSignals.sine(Hertz(220), seconds: 1.5, rms: -63))
        let audible = try MusicianSignals.readings(of: MusicianSignals.sine(Hertz(220), seconds: 1.5, rms: -52))
        #expect(events(quiet).isEmpty)
        #expect(events(audible).count == 1)
        // A gate set to −40 dBFS (TunerConfiguration.gate): −43 never settles, −35 does.
        let gated = Decibels(-40)
        let under = try MusicianSignals.readings(of: MusicianSignals.sine(Hertz(220), seconds: 1.5, rms: -43), gate: gated)
        let over = try MusicianSignals.readings(of: MusicianSignals.sine(Hertz(220), seconds: 1.5, rms: -35), gate: gated)
        #expect(events(under).isEmpty)
        #expect(events(over).count == 1)
    }
}
