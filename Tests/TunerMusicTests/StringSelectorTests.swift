import Foundation
import Testing
import TunerBridge
@testable import TunerMusic

@Suite struct StringSelectorTests {
    let guitar = Tuning.named("guitar")!
    let a2 = Hertz(110), d3 = Note(midi: 50).frequency()

    /// The target string of each pitched reading, and the reading's distance above A2 in cents.
    func targets(_ readings: [Reading], selector: inout StringSelector) -> [(index: Int, aboveA2: Double, time: Double)] {
        readings.compactMap { reading in
            guard let target = selector.select(reading), let pitch = reading.pitch else { return nil }
            return (target.stringIndex, pitch.cents(from: Note(midi: 45)).value, reading.time)
        }
    }

    func select(_ selector: inout StringSelector, _ reading: Reading) -> TargetReading? {
        selector.select(reading)
    }

    /// How often the chosen index changes along a sequence.
    func switches(_ indices: [Int]) -> Int { zip(indices, indices.dropFirst()).filter { $0 != $1 }.count }

    @Test func aSlideFromA2ToD3SwitchesOnceAndPastTheMidpoint() throws {
        // 0.5 s on A2, a 2 s glide up to D3, 0.5 s on D3 — real engine readings.
        let signal = MusicianSignals.glide([(a2, a2, 0.5), (a2, d3, 2), (d3, d3, 0.5)])
        let readings = try MusicianSignals.readings(of: signal)
        var selector = StringSelector(tuning: guitar)
        let path = targets(readings, selector: &selector)
        #expect(path.count > 250)
        let indices = path.map(\.index)
        #expect(indices.first == 1 && indices.last == 2, "A2 string, then D3 string")
        #expect(switches(indices) == 1, "one switch, never back: \(indices)")
        let first = try #require(path.firstIndex { $0.index == 2 })
        #expect(path[first].aboveA2 > 290 && path[first].aboveA2 < 320,
                "the switch comes about 50 ¢ past the midpoint (250 ¢): \(path[first].aboveA2)")
        // Measured against its own string the whole way: cents relative to the target, unclamped.
        let onA2 = path.filter { $0.index == 1 }
        #expect((onA2.map(\.aboveA2).max() ?? 0) > 250, "the A2 string is kept past the midpoint")
    }

    @Test func aWobbleAroundTheMidpointDoesNotFlip() throws {
        // Glide to the midpoint between A2 and D3 and hold it with a wide 6 Hz vibrato (±40 ¢, short of the 50 ¢ margin).
        let mid = a2.shifted(by: Cents(250))
        let signal = MusicianSignals.glide([(a2, a2, 0.5), (a2, mid, 0.5)])
            + MusicianSignals.vibrato(around: mid, depth: Cents(40), hertz: 6, seconds: 2)
        let readings = try MusicianSignals.readings(of: signal)
        // Without hysteresis the nearest string flips with every vibrato cycle…
        let nearest = readings.compactMap { r in
            r.pitch.map { p in abs(p.cents(from: Note(midi: 45)).value) < abs(p.cents(from: Note(midi: 50)).value) ? 1 : 2 }
        }
        #expect(switches(nearest) >= 10, "the signal does cross the midpoint: \(switches(nearest)) crossings")
        // …with it, the target stays.
        var selector = StringSelector(tuning: guitar)
        let indices = targets(readings, selector: &selector).map(\.index)
        #expect(switches(indices) == 0, "\(indices)")
        #expect(indices.first == 1)
    }

    @Test func aStringTunedFarOffIsStillPickedWhenItIsHeld() {
        // The D3 string tuned far down, to C3 - 40 ¢: 260 ¢ above A2 and 240 ¢ below D3, nearer to
        // D3 by only 20 ¢, so the margin never lets it switch; held for 0.25 s it is picked anyway.
        var selector = StringSelector(tuning: guitar)
        _ = selector.select(MusicianSignals.reading("A2", 0, at: 0))
        var picked: [Int] = []
        for i in 1...40 {
            picked.append(selector.select(MusicianSignals.reading("C3", -40, at: Double(i) * 0.01))!.stringIndex)
        }
        #expect(picked.prefix(24).allSatisfy { $0 == 1 }, "kept within switchAfter: \(picked)")
        #expect(picked.suffix(15).allSatisfy { $0 == 2 }, "then taken over: \(picked)")
    }

    @Test func strayOctaveReadingsAndDropoutsNeitherFlipNorRepeat() throws {
        // Real readings of a ringing B3 string, spoiled the way a real pickup spoils them: every
        // third reading lost, every seventh an octave low (B2, which is nearest the A2 string).
        let clean = try MusicianSignals.readings(of: MusicianSignals.pluck(Note(midi: 59).frequency(), seconds: 2))
        let spoiled = clean.enumerated().map { i, reading -> Reading in
            var r = reading
            if i % 3 == 2 { r.pitch = nil }
            if i % 7 == 6, let p = r.pitch {
                r.pitch = Pitch(frequency: Hertz(p.frequency.value / 2), note: Note(midi: p.note.midi - 12), rawCents: p.rawCents)
            }
            return r
        }
        var tracker = TuningTracker(tuning: guitar)
        let steps = spoiled.map { tracker.process($0) }
        let targets = steps.compactMap(\.target).map(\.stringIndex)
        #expect(targets.count > 100)
        #expect(Set(targets.dropFirst(5)) == [4], "stays on the B3 string: \(targets)")
        let settled = steps.compactMap(\.settled)
        #expect(settled.count == 1)
        #expect(settled.first.map { $0.stringIndex == 4 && abs($0.cents.value) < 0.1 } == true)
        #expect(tracker.checklist?.isDone(4) == true)
    }

    @Test func lockedStringsAndCentsFromTheTarget() throws {
        var selector = StringSelector(tuning: guitar)
        let flatE = try #require(select(&selector, MusicianSignals.reading("E2", -4, at: 0)))
        #expect(flatE.stringIndex == 0 && flatE.note.description == "E2" && !flatE.isLocked)
        #expect(abs(flatE.rawCents.value + 4) < 1e-9 && !flatE.isInTune)

        // Key 2 locks the A2 string: an E2 reads 500 ¢ flat of it, clamped to -50 for the needle.
        let pressed2 = selector.press(digit: 2)
        #expect(pressed2)
        let locked = try #require(select(&selector, MusicianSignals.reading("E2", 1, at: 0.01)))
        #expect(locked.stringIndex == 1 && locked.isLocked)
        #expect(abs(locked.rawCents.value + 499) < 1e-9)
        #expect(locked.cents.value == -50)
        #expect(selector.locked == 1)

        // Keys beyond the strings are refused and change nothing; 0 is automatic again.
        let pressed7 = selector.press(digit: 7)
        #expect(!pressed7)
        #expect(selector.locked == 1)
        let pressed0 = selector.press(digit: 0)
        #expect(pressed0)
        #expect(selector.locked == nil)
        // Back in auto, the nearest string takes over when nearer by the margin for 20 ms (3 readings).
        let autos = [0.02, 0.03, 0.04].compactMap { select(&selector, MusicianSignals.reading("E2", 1, at: $0)) }
        #expect(autos.map(\.stringIndex) == [1, 1, 0])
        #expect(autos.allSatisfy { !$0.isLocked } && autos[2].isInTune)

        // No pitch: no target, and the current string is kept.
        let silent = selector.select(MusicianSignals.silentReading(at: 0.05))
        #expect(silent == nil)
        #expect(selector.current == 0)
    }

    @Test func reEntrantUkuleleAndA4() throws {
        // C4 on a GCEA ukulele is string 2 though the first string (G4) is higher.
        var selector = StringSelector(tuning: Tuning.named("ukulele")!)
        let c4 = selector.select(MusicianSignals.reading("C4", 2, at: 0))
        #expect(c4?.stringIndex == 1)
        // Readings made at A4 = 432 are measured against the strings at 432: a 432-based A2
        // (108 Hz) is an in-tune A2 string.
        let readings = try MusicianSignals.readings(of: MusicianSignals.pluck(Hertz(108), seconds: 1),
                                                    a4: Hertz(432))
        var guitarSelector = StringSelector(tuning: guitar)
        let late = readings.filter { $0.time > 0.5 }.compactMap { guitarSelector.select($0) }
        #expect(!late.isEmpty && late.allSatisfy { $0.stringIndex == 1 && abs($0.rawCents.value) < 0.05 })
    }
}

@Suite struct TuningTrackerTests {
    @Test func theTuningRowFollowsTargetLockAndChecklist() {
        var tracker = TuningTracker(tuning: Tuning.named("drop-d")!)
        #expect(tracker.strings.map(\.label) == ["D2", "A2", "D3", "G3", "B3", "E4"])
        #expect(tracker.strings.allSatisfy { !$0.isActive && !$0.isLocked && !$0.isDone })
        // 0.6 s of G3 in tune: string 4 is the target, then settles and is ticked.
        var settled: [SettledNote] = []
        for i in 0...60 {
            if let s = tracker.process(MusicianSignals.reading("G3", 0.5, at: Double(i) * 0.01)).settled { settled.append(s) }
        }
        #expect(settled.count == 1)
        let row = tracker.strings
        #expect(row.map(\.isActive) == [false, false, false, true, false, false])
        #expect(row.map(\.isDone) == [false, false, false, true, false, false])
        #expect(row[3].number == 4 && row[3].lastSettled == settled.first)
        // Silence keeps the highlight; key 1 moves it and locks.
        _ = tracker.process(MusicianSignals.silentReading(at: 0.61))
        #expect(tracker.strings[3].isActive)
        let pressed = tracker.press(digit: 1)
        #expect(pressed)
        #expect(tracker.strings[0].isActive && tracker.strings[0].isLocked)
        let step = tracker.process(MusicianSignals.reading("G3", 0.5, at: 0.62))
        #expect(step.target?.stringIndex == 0)
        #expect(step.rawCents.map { abs($0.value - 1700.5) < 1e-9 } == true, "G3 is 1700.5 ¢ above D2")
        // Chromatic mode has no row and ignores string keys; its cents are the reading's own.
        var chromatic = TuningTracker()
        #expect(chromatic.strings.isEmpty && chromatic.tuning == nil)
        let refused = chromatic.press(digit: 1)
        #expect(!refused)
        let plain = chromatic.process(MusicianSignals.reading("G3", 0.5, at: 0))
        #expect(plain.target == nil && plain.rawCents == Cents(0.5))
    }
}
