import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
@testable import TunerMusic

@Suite struct SettleDetectorTests {
    /// Runs readings through a tracker and returns every step that settled.
    func settled(_ readings: [Reading], tuning: Tuning? = nil) -> [SettledNote] {
        var tracker = TuningTracker(tuning: tuning)
        return readings.compactMap { tracker.process($0).settled }
    }

    @Test func threeSuccessiveNotesGiveExactlyThreeEvents() throws {
        let e2 = Note(midi: 40).frequency(), a2 = Note(midi: 45).frequency(), d3 = Note(midi: 50).frequency()
        let signal = MusicianSignals.pluck(e2.shifted(by: Cents(-4)), seconds: 1.5)
            + MusicianSignals.pluck(a2, seconds: 1.5)
            + MusicianSignals.pluck(d3.shifted(by: Cents(12)), seconds: 1.5)
        let readings = try MusicianSignals.readings(of: signal)
        #expect(readings.count == 450, "one reading per 10 ms hop")

        let events = settled(readings)
        #expect(events.map(\.note.description) == ["E2", "A2", "D3"])
        #expect(events.map { Int($0.cents.value.rounded()) } == [-4, 0, 12])
        #expect(events.map(\.isInTune) == [false, true, false])
        #expect(events.allSatisfy { $0.stringIndex == nil })
        // Each fired once its note had been held for the 0.4 s window, within its own pluck.
        for (event, start) in zip(events, [0.0, 1.5, 3.0]) {
            #expect(event.time > start + 0.4 && event.time < start + 1.5, "\(event)")
            #expect(abs(event.time - event.start - 0.4) < 0.011)
        }
        // With a tuning, the same file gives the same three, on strings 1, 2, 3.
        let tuned = settled(readings, tuning: Tuning.named("guitar"))
        #expect(tuned.map(\.stringIndex) == [0, 1, 2])
        #expect(tuned.map(\.note.description) == ["E2", "A2", "D3"])
    }

    @Test func aLongHeldNoteSettlesOnceNotPerFrame() throws {
        let readings = try MusicianSignals.readings(
            of: MusicianSignals.glide([(Hertz(196), Hertz(196), 4)]))
        #expect(readings.count == 400)
        #expect(readings.filter { $0.pitch != nil }.count > 390, "pitched the whole time")
        let events = settled(readings)
        #expect(events.count == 1)
        #expect(events.first?.note.description == "G3")
        #expect(abs((events.first?.frequency.value ?? 0) - 196) < 0.01)
    }

    @Test func theSameNotePluckedAgainAfterSilenceSettlesAgain() throws {
        let a2 = Hertz(110)
        let signal = MusicianSignals.pluck(a2, seconds: 1.2) + MusicianSignals.silence(0.4)
            + MusicianSignals.pluck(a2, seconds: 1.2)
        let readings = try MusicianSignals.readings(of: signal)
        let events = settled(readings)
        #expect(events.map(\.note.description) == ["A2", "A2"])
        #expect((events.last?.time ?? 0) > 1.6)
    }

    @Test func aDroppedReadingDoesNotRepeatTheNote() {
        // Hand-made readings: A2 +2 ¢ steadily for 2 s, with one reading lost at 1.2 s and one
        // stray octave reading at 1.5 s. One event only.
        var detector = SettleDetector()
        var events: [SettledNote] = []
        for i in 0..<200 {
            let t = Double(i) * 0.01
            let reading: Reading
            switch i {
            case 120: reading = MusicianSignals.silentReading(at: t)
            case 150: reading = MusicianSignals.reading("A3", 2, at: t)
            default: reading = MusicianSignals.reading("A2", 2 + 0.3 * sin(Double(i)), at: t)
            }
            if let event = detector.process(reading) { events.append(event) }
        }
        #expect(events.count == 1)
        #expect(events.first.map { abs($0.time - 0.4) < 1e-9 } == true, "\(events)")
    }

    @Test func atLeastHalfTheWindowMustBeTheNote() {
        // A2 heard in 2 of every 5 readings (the others lost, never 0.1 s in a row): not held.
        // In 3 of every 5: held, and settles once after 0.4 s.
        func events(heard: Set<Int>) -> [SettledNote] {
            var detector = SettleDetector()
            return (0..<150).compactMap { i in
                let t = Double(i) * 0.01
                return detector.process(heard.contains(i % 5) ? MusicianSignals.reading("A2", 1, at: t)
                                                              : MusicianSignals.silentReading(at: t))
            }
        }
        #expect(events(heard: [0, 1]).isEmpty)
        let held = events(heard: [0, 1, 2])
        #expect(held.count == 1)
        #expect(held.first.map { abs($0.time - 0.4) < 0.03 && $0.start == 0 } == true, "\(held)")
    }

    @Test func unsteadyPitchNeverSettlesAndTurningThePegSettlesAgain() {
        var detector = SettleDetector()
        var events: [SettledNote] = []
        // 1.5 s gliding up 40 ¢ a second (a peg being turned): nothing. Then 1 s at -12 ¢: one
        // event. Then the peg is turned over 0.5 s up to +10 ¢ (22 ¢) and held 1 s: a second event.
        var t = 0.0
        func feed(_ cents: Double) {
            if let e = detector.process(MusicianSignals.reading("E2", cents, at: t)) { events.append(e) }
            t += 0.01
        }
        for i in 0..<150 { feed(-40 + 0.4 * Double(i)) }
        #expect(events.isEmpty, "\(events)")
        for _ in 0..<100 { feed(-12) }
        for i in 0..<50 { feed(-12 + 22 * Double(i) / 50) }
        for _ in 0..<100 { feed(10) }
        #expect(events.map { Int($0.cents.value.rounded()) } == [-12, 10], "\(events)")
        #expect(events.map(\.isInTune) == [false, false])
    }

    @Test func theChecklistTicksAnInTuneStringAndNotATenCentFlatOne() throws {
        let guitar = Tuning.named("guitar")!
        // String 2 (A2) in tune, string 4 (G3) 10 cents flat — synthesised plucks, real readings.
        let signal = MusicianSignals.pluck(Hertz(110), seconds: 1.5)
            + MusicianSignals.pluck(Note(midi: 55).frequency().shifted(by: Cents(-10)), seconds: 1.5)
        var tracker = TuningTracker(tuning: guitar)
        for reading in try MusicianSignals.readings(of: signal) { _ = tracker.process(reading) }
        let checklist = try #require(tracker.checklist)
        #expect(checklist.isDone(1))
        #expect(!checklist.isDone(3))
        #expect(abs((checklist.last[3]?.cents.value ?? 0) + 10) < 0.1, "the flat string's reading is kept")
        #expect(checklist.last[0] == nil && !checklist.isDone(0))
        #expect(checklist.doneCount == 1 && !checklist.isComplete)
        #expect(checklist.summary == "E2 ·  A2 ✓  D3 ·  G3 -10  B3 ·  E4 ·")

        // Tuned up and played again, it is ticked.
        for reading in try MusicianSignals.readings(of: MusicianSignals.pluck(Note(midi: 55).frequency(), seconds: 1.5)) {
            var later = reading
            later.time += 3
            _ = tracker.process(later)
        }
        #expect(tracker.checklist?.isDone(3) == true)
        var reset = try #require(tracker.checklist)
        reset.reset()
        #expect(reset.doneCount == 0)
    }

    @Test func settledNotesStreamFromASession() async throws {
        let signal = MusicianSignals.pluck(Hertz(82.4069), seconds: 1.5)
            + MusicianSignals.pluck(Hertz(110), seconds: 1.5)
            + MusicianSignals.pluck(Hertz(146.832), seconds: 1.5)
        let session = try TunerSession(source: ArraySource(signal, sampleRate: MusicianSignals.rate))
        var events: [SettledNote] = []
        for await event in SettledNotes(measurements: session.measurements, tuning: Tuning.named("guitar")) {
            events.append(event)
        }
        #expect(events.map(\.stringIndex) == [0, 1, 2])
        #expect(events.allSatisfy { $0.isInTune })
        #expect(events.map { Announcement.text(for: $0) } == ["E2 in tune", "A2 in tune", "D3 in tune"])
    }

    @Test func perHopStepsAndAStringLockTravelAlongTheEvents() async throws {
        let signal = MusicianSignals.pluck(Hertz(110), seconds: 1.5)
        let session = try TunerSession(source: ArraySource(signal, sampleRate: MusicianSignals.rate))
        // Locked to string 1, the E2 string: an A2 then reads 500 ¢ sharp of it.
        let notes = SettledNotes(measurements: session.measurements, tuning: Tuning.named("guitar"),
                                 perHop: .everyReading, lockedString: 1)
        var steps: [TuningTracker.Step] = []
        for await step in notes.steps { steps.append(step) }
        var events: [SettledNote] = []
        for await event in notes.events { events.append(event) }
        #expect(steps.count == 150)
        let targets = steps.compactMap(\.target)
        #expect(!targets.isEmpty && targets.allSatisfy { $0.stringIndex == 0 && $0.isLocked })
        #expect(targets.last.map { abs($0.rawCents.value - 500) < 0.1 } == true)
        #expect(events.count == 1 && events.first?.stringIndex == 0)
        #expect(events.first.map { Announcement.text(for: $0) } == "E2, 500 cents sharp")
    }

    @Test func aKeyPressReachesTheTrackerBetweenReadings() async throws {
        // Readings fed by hand: 60 of D3, then key 4 (the G3 string) once those were seen, then 60 more.
        let (readings, feed) = AsyncStream<PitchMeasurement>.makeStream()
        let notes = SettledNotes(measurements: readings, tuning: Tuning.named("guitar"), perHop: .everyReading)
        var steps = notes.steps.makeAsyncIterator()
        for i in 0..<60 { feed.yield(MusicianSignals.measurement("D3", 0, at: Double(i) * 0.01)) }
        var before: [TuningTracker.Step] = []
        for _ in 0..<60 { if let step = await steps.next() { before.append(step) } }
        notes.lock(string: 4)
        for i in 60..<120 { feed.yield(MusicianSignals.measurement("D3", 0, at: Double(i) * 0.01)) }
        feed.finish()
        var after: [TuningTracker.Step] = []
        while let step = await steps.next() { after.append(step) }
        #expect(before.allSatisfy { $0.target?.stringIndex == 2 && $0.target?.isLocked == false })
        #expect(after.count == 60)
        #expect(after.allSatisfy { $0.target?.stringIndex == 3 && $0.target?.isLocked == true })
        #expect(after.allSatisfy { abs(($0.target?.rawCents.value ?? 0) + 500) < 1e-9 })
        var events: [SettledNote] = []
        for await event in notes { events.append(event) }
        // Settled on the D3 string at 0.5 s, then again against the locked G3 string, 500 ¢ flat of it.
        #expect(events.map(\.stringIndex) == [2, 3])
        #expect(events.map { Announcement.text(for: $0) } == ["D3 in tune", "G3, 500 cents flat"])
    }

    @Test func ignoredInputGivesNoEventsUntilTheTailHasPassed() async throws {
        // A2 held for 3 s, but ignored (speaking) from the start until reading 100 has been seen:
        // nothing settles while ignored or in the 0.3 s tail, then one event.
        let (readings, feed) = AsyncStream<PitchMeasurement>.makeStream()
        let notes = SettledNotes(measurements: readings, perHop: .everyReading)
        notes.setIgnoringInput(true)
        var steps = notes.steps.makeAsyncIterator()
        var seen: [TuningTracker.Step] = []
        for i in 0..<100 { feed.yield(MusicianSignals.measurement("A2", 1, at: Double(i) * 0.01)) }
        for _ in 0..<100 { if let step = await steps.next() { seen.append(step) } }
        notes.setIgnoringInput(false)
        for i in 100..<300 { feed.yield(MusicianSignals.measurement("A2", 1, at: Double(i) * 0.01)) }
        feed.finish()
        while let step = await steps.next() { seen.append(step) }
        #expect(seen.count == 300)
        #expect(seen.prefix(129).allSatisfy { $0.reading.pitch == nil }, "ignored, and 0.3 s after")
        #expect(seen.suffix(170).allSatisfy { $0.reading.pitch != nil })
        var events: [SettledNote] = []
        for await event in notes.events { events.append(event) }
        #expect(events.count == 1)
        #expect(events.first.map { $0.start >= 1.29 && abs($0.time - $0.start - 0.4) < 0.011 } == true, "\(events)")
    }
}
