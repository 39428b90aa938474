import Foundation
import Testing
import TunerBridge
@testable import TunerMusic

/// Every settle threshold bracketed from both sides with hand-made readings (the onset thresholds are
/// the engine's: CTuner/tests/OnsetTests.cpp): each case
/// sits just inside or just outside one threshold, so moving that threshold by about a sixth of its
/// value (6 → 5 or 7 ¢, 0.4 → 0.35 or 0.45 s, 6 → 5.5 or 6.5 dB) fails a test.
@Suite struct SettleThresholdTests {
    func events(_ readings: [Reading], _ detector: SettleDetector = SettleDetector()) -> [SettledNote] {
        var detector = detector
        return readings.compactMap { detector.process($0) }
    }

    /// 0, +d, −d, 0, +d, … cents: 90 % of the readings within d of their median 0, the same median in
    /// any part of a window.
    static func levels(_ d: Double) -> (Double) -> Double {
        { t in [0, d, -d][Int((t * 100).rounded()) % 3] }
    }

    @Test func aSteadyNoteSettlesAfterExactlyTheWindow() {
        let found = events(MusicianSignals.path("A2", seconds: 2, cents: { _ in 1 }))
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.time - 0.4) < 0.005 && $0.start == 0 } == true, "\(found)")
    }

    @Test func theSteadySpreadIsSixCents() {
        // ±5.5 ¢ settles in the 0.4 s window; ±6.5 ¢ has to wait for the 1 s waver window.
        let inside = events(MusicianSignals.path("A2", seconds: 2, cents: Self.levels(5.5)))
        let outside = events(MusicianSignals.path("A2", seconds: 2, cents: Self.levels(6.5)))
        #expect(inside.first.map { abs($0.time - 0.4) < 0.005 } == true, "\(inside)")
        #expect(outside.first.map { abs($0.time - 1.0) < 0.005 } == true, "\(outside)")
    }

    @Test func theSteadyDriftIsThreeCents() {
        // A pitch rising steadily: its window halves' medians are 0.205 s apart. 12 ¢/s (2.5 ¢)
        // settles at once; 17 ¢/s (3.5 ¢) never does (nor in the waver window: 8.6 ¢).
        let slow = events(MusicianSignals.path("A2", seconds: 2, cents: { t in -12 + 12 * t }))
        let fast = events(MusicianSignals.path("A2", seconds: 2, cents: { t in -17 + 17 * t }))
        #expect(slow.first.map { abs($0.time - 0.4) < 0.005 } == true, "\(slow)")
        #expect(fast.isEmpty, "\(fast)")
    }

    @Test func theWaverWindowIsOneSecondAndItsSpreadThirtyCents() {
        let wide = events(MusicianSignals.path("A2", seconds: 2, cents: Self.levels(20)))
        #expect(wide.count == 1)
        #expect(wide.first.map { abs($0.time - 1.0) < 0.005 && abs($0.cents.value) < 1e-9 } == true, "\(wide)")
        let inside = events(MusicianSignals.path("A2", seconds: 2, cents: Self.levels(28.5)))
        let outside = events(MusicianSignals.path("A2", seconds: 2, cents: Self.levels(31.5)))
        #expect(inside.count == 1, "\(inside)")
        #expect(outside.isEmpty, "\(outside)")
    }

    @Test func theWaverDriftIsSixCents() {
        // ±20 ¢ on a slow rise: the 1 s window's halves are about 0.5 s apart. 11 ¢/s (5.5 ¢)
        // settles, 13 ¢/s (6.5 ¢) does not.
        func rising(_ slope: Double) -> [SettledNote] {
            events(MusicianSignals.path("A2", seconds: 2, cents: { t in Self.levels(20)(t) + slope * (t - 1) }))
        }
        #expect(rising(11).count == 1, "\(rising(11))")
        #expect(rising(13).isEmpty, "\(rising(13))")
    }

    @Test func aMoveOfTwentyCentsIsANewPitch() {
        func stepped(_ cents: Double) -> [SettledNote] {
            events(MusicianSignals.path("A2", seconds: 3, cents: { t in t < 1 ? 0 : cents }))
        }
        #expect(stepped(19).count == 1, "\(stepped(19))")
        #expect(stepped(21).map { Int($0.cents.value.rounded()) } == [0, 21], "\(stepped(21))")
        #expect(stepped(-21).count == 2)
    }

    @Test func readingsWithinTwentyCentsOfAPartialAreTheNote() {
        // A2 settles; then the engine reads its octave 19 ¢ sharp or flat, or its 3rd partial
        // (folded: the same note), or its octave 21 ¢ off (a new pitch).
        func tail(_ note: String, _ cents: Double) -> [SettledNote] {
            var readings = MusicianSignals.path("A2", seconds: 1, cents: { _ in 0 })
            readings += MusicianSignals.path(note, seconds: 1.5, start: 1, cents: { _ in cents })
            return events(readings)
        }
        #expect(tail("A3", 19).count == 1)
        #expect(tail("A3", -19).count == 1)
        #expect(tail("E4", 2).count == 1)
        #expect(tail("A3", 21).count == 2)
        #expect(tail("A3", -21).count == 2)
    }

    @Test func aShortNoteSettlesWhenItHasBeenGoneForTheReleaseGap() {
        // 0.6 s of ±15 ¢ (too wide for the steady window, too short for the waver window), then no
        // pitch: it settles 0.2 s after its last reading.
        var readings = MusicianSignals.path("D3", seconds: 0.6, cents: Self.levels(15))
        readings += MusicianSignals.path("D3", seconds: 1, start: 0.6, cents: { _ in nil }, level: { _ in -80 })
        let found = events(readings)
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.time - 0.79) < 0.005 && abs($0.cents.value) < 1e-9 } == true, "\(found)")
        // Under 0.4 s of pitch: nothing.
        var shorter = MusicianSignals.path("D3", seconds: 0.38, cents: Self.levels(15))
        shorter += MusicianSignals.path("D3", seconds: 1, start: 0.38, cents: { _ in nil }, level: { _ in -80 })
        #expect(events(shorter).isEmpty)
    }

    @Test func aShortNotesHalvesMayDifferTwelveCents() {
        // 0.6 s of ±15 ¢ on a rise; the halves' medians lie 0.3 s apart: 37 ¢/s (11 ¢) settles on
        // release, 43 ¢/s (13 ¢) does not.
        func short(_ slope: Double) -> [SettledNote] {
            var readings = MusicianSignals.path("D3", seconds: 0.6, cents: { t in Self.levels(15)(t) + slope * (t - 0.3) })
            readings += MusicianSignals.path("D3", seconds: 1, start: 0.6, cents: { _ in nil }, level: { _ in -80 })
            return events(readings)
        }
        #expect(short(37).count == 1, "\(short(37))")
        #expect(short(43).isEmpty, "\(short(43))")
    }

    @Test func aShortNoteIsJudgedWithinTwentySixDecibelsOfItsLoudest() {
        // 0.45 s of ±15 ¢ (never steady) fading from −20 to −38 dBFS, then 0.3 s of a faint tail 25 ¢ sharp (a dying
        // ensemble's wobble), then no pitch. A tail 28 dB under the loudest is left out: the note settles
        // on its loud part, at 0 ¢. One 24 dB under counts: its halves then differ by ~25 ¢ and nothing
        // settles. So the range lies between 24 and 28 dB (26).
        func short(tailDb: Double) -> [SettledNote] {
            var readings = MusicianSignals.path("G3", seconds: 0.45, cents: Self.levels(15), level: { t in -20 - 40 * t })
            readings += MusicianSignals.path("G3", seconds: 0.3, start: 0.45, cents: { t in 25 + Self.levels(15)(t) },
                                             level: { _ in -20 - tailDb })
            readings += MusicianSignals.path("G3", seconds: 1, start: 0.75, cents: { _ in nil }, level: { _ in -90 })
            return events(readings)
        }
        let faint = short(tailDb: 28)
        #expect(faint.count == 1, "\(faint)")
        #expect(faint.first.map { abs($0.cents.value) < 1e-9 && $0.start == 0 } == true, "\(faint)")
        #expect(short(tailDb: 24).isEmpty, "\(short(tailDb: 24))")
    }

    /// Plucks of A2 (onsets at `onsets`), each held steady at +1 ¢ until the next, the k-th at level
    /// `levels[k]` dBFS and `cents[k]` off; the last held 0.6 s, then silence.
    static func plucks(_ onsets: [Double], levels: [Double], cents: [Double]? = nil) -> [Reading] {
        var readings: [Reading] = []
        for (k, start) in onsets.enumerated() {
            let end = k + 1 < onsets.count ? onsets[k + 1] : start + 0.6
            let c = cents?[k] ?? 1
            var part = MusicianSignals.path("A2", seconds: end - start, start: start, cents: { _ in c },
                                            level: { _ in levels[k] })
            part[0].onset = true
            readings += part
        }
        let end = onsets.last! + 0.6
        return readings + MusicianSignals.path("A2", seconds: 0.5, start: end, cents: { _ in nil }, level: { _ in -90 })
    }

    @Test func anEchoComesWithinThreeQuartersOfASecond() {
        // A pluck, and 5 dB under it a repeat after g seconds: an echo (not announced) at 0.7 s, a new
        // pluck at 0.8 s.
        #expect(events(Self.plucks([0, 0.7], levels: [-20, -25])).count == 1, "\(events(Self.plucks([0, 0.7], levels: [-20, -25])))")
        #expect(events(Self.plucks([0, 0.8], levels: [-20, -25])).count == 2, "\(events(Self.plucks([0, 0.8], levels: [-20, -25])))")
    }

    @Test func anEchoIsThreeDecibelsUnderTheNoteItRepeats() {
        // A repeat 0.5 s after the pluck: 3.5 dB under it is an echo; 2.5 dB under it, a re-pluck.
        #expect(events(Self.plucks([0, 0.5], levels: [-20, -23.5])).count == 1)
        #expect(events(Self.plucks([0, 0.5], levels: [-20, -22.5])).count == 2)
    }

    @Test func anEchoIsOfTheSamePitch() {
        // 5 dB under and 0.5 s after, but 25 ¢ away (over rearmDistance): a new pitch, announced; 15 ¢
        // away (the pitch the last event said, as far as settling goes): an echo.
        #expect(events(Self.plucks([0, 0.5], levels: [-20, -25], cents: [1, 26])).count == 2)
        #expect(events(Self.plucks([0, 0.5], levels: [-20, -25], cents: [1, 16])).count == 1)
    }

    @Test func echoesOfEchoesStayQuietAndAStrongPluckAfterThemIsAnnounced() {
        // A pluck, four repeats 0.5 s apart (each 5 dB under the one before), then a pluck as strong as
        // the first 0.5 s after the last repeat: two events, the first pluck and the last.
        let found = events(Self.plucks([0, 0.5, 1.0, 1.5, 2.0, 2.5], levels: [-20, -25, -30, -35, -40, -20]))
        #expect(found.count == 2, "\(found)")
        #expect(found.map { abs($0.time - 0.4) < 0.005 || abs($0.time - 2.9) < 0.005 } == [true, true], "\(found)")
    }

    // ---- onsets (found by the engine: CTuner/src/LevelRise and OnsetGuard, bracketed in
    // CTuner/tests/GuardTests.cpp; here only what the settle logic does with them)

    /// A2 held steady for 2 s at one level, with the engine's onset set on the readings at `onsets`.
    static func held(onsets: [Double]) -> [Reading] {
        MusicianSignals.path("A2", seconds: 2, cents: { _ in 1 }).map { r in
            var r = r
            r.onset = onsets.contains { abs($0 - r.time) < 0.001 }
            return r
        }
    }

    @Test func aReadingWithOnsetSetStartsANewNote() {
        // The same pitch at the same level: one event without an onset, a second one 0.4 s after it.
        #expect(events(Self.held(onsets: [])).count == 1)
        let again = events(Self.held(onsets: [1.0]))
        #expect(again.count == 2, "\(again)")
        #expect(again.last.map { $0.start >= 1.0 - 1e-9 && abs($0.time - 1.4) < 0.005 } == true, "\(again)")
    }

    @Test func anOnsetWhileTheTunerSpeaksStartsNoNote() {
        // The onset at 1.0 s falls on an ignored reading: the note that settled before is not announced again.
        var detector = SettleDetector()
        let found = Self.held(onsets: [1.0]).compactMap { r in
            detector.process(r, ignored: r.time >= 0.95 && r.time < 1.05)
        }
        #expect(found.count == 1, "\(found)")
    }

    @Test func aLevelRiseWithoutTheEnginesOnsetIsTheSameNote() {
        // The settle logic no longer reads the level: +20 dB with no onset flag is not a new note.
        let louder = Self.held(onsets: []).map { r in
            var r = r
            if r.time >= 1 { r.level = Decibels(0) }
            return r
        }
        #expect(events(louder).count == 1)
    }
}
