import Foundation
import Testing
import TunerBridge
@testable import TunerMusic

/// `--poly --announce`: one line per strum (issue 15). Hand-made hops of a guitar's six strings, 10 ms
/// apart, each string heard or not, at given cents and level.
@Suite struct StrumSettlerTests {
    static let labels = ["E2", "A2", "D3", "G3", "B3", "E4"]
    static let cents: [Double] = [0, -4, 0, 6, 0, 2]

    /// One hop at time `t`: string i heard at `cents[i]` (nil: not heard), each at `level` dBFS.
    static func hop(_ t: Double, _ cents: [Double?], level: Double = -30) -> StrumReading {
        StrumReading(time: t, strings: cents.enumerated().map { index, value in
            value.map {
                StringReading(stringIndex: index, label: labels[index], frequency: Hertz(100), cents: Cents($0),
                              isInTune: abs($0) <= 3, level: Decibels(level))
            }
        })
    }

    /// The lines said over hops from `from` to `to` seconds, each hop given by `strings(t)` and `level(t)`.
    static func lines(from: Double = 0.01, to: Double, strings: (Double) -> [Double?],
                      level: (Double) -> Double = { -30 - 3 * $0 }) -> [String] {
        var settler = StrumSettler(tolerance: Cents(3))
        var said: [String] = []
        for j in Int((from * 100).rounded())...Int((to * 100).rounded()) {
            let t = Double(j) / 100
            if let line = settler.process(hop(t, strings(t), level: level(t))) { said.append(line) }
        }
        return said
    }

    static let full = "E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 in tune, E4 in tune"

    @Test func aStrumWhoseStringsRingIsSaidOnce() {
        #expect(Self.lines(to: 2.5, strings: { _ in Self.cents }) == [Self.full])
    }

    @Test func aStringThatStopsBeingHeardDoesNotRepeatTheLine() {
        // B3 decays under the gate at 1.0 s, the others ring on: before, the strum was said again
        // without B3 once they had settled anew.
        let said = Self.lines(to: 2.5, strings: { t in
            var c: [Double?] = Self.cents
            if t >= 1.0 { c[4] = nil }
            return c
        })
        #expect(said == [Self.full])
    }

    @Test func aStringLostAndFoundAtItsValueIsNoNews() {
        // The analyser loses B3 among the others' partials for 0.3 s, then hears it again where it was.
        let said = Self.lines(to: 2.5, strings: { t in
            var c: [Double?] = Self.cents
            if t >= 1.0 && t < 1.3 { c[4] = nil }
            return c
        })
        #expect(said == [Self.full])
    }

    @Test func aStringHeardLateAddsOneLineWithIt() {
        let said = Self.lines(to: 2.5, strings: { t in
            var c: [Double?] = Self.cents
            if t < 1.0 { c[4] = nil }
            return c
        })
        #expect(said == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, E4 in tune", Self.full])
    }

    @Test func aPegTurnedWhileTheStringsRingIsSaidAgain() {
        // A2 turned from 4 cents flat to 4 cents sharp at 1.2 s: 8 cents, over the 5 cents that re-arm.
        let turned = Self.lines(to: 2.5, strings: { t in
            var c: [Double?] = Self.cents
            if t >= 1.2 { c[1] = 4 }
            return c
        })
        #expect(turned == [Self.full, Self.full.replacingOccurrences(of: "A2 4 cents flat", with: "A2 4 cents sharp")])
        // 4 cents (−4 → 0) is under it: the strum is not said again.
        let nudged = Self.lines(to: 2.5, strings: { t in
            var c: [Double?] = Self.cents
            if t >= 1.2 { c[1] = 0 }
            return c
        })
        #expect(nudged == [Self.full])
    }

    @Test func aSecondStrumOverTheRingingStringsIsSaidAgain() {
        // Strummed again at 1.5 s, the strings' summed level rising by `rise` dB over their decay of
        // 3 dB a second. StrumSettler.strumRise is 3 dB: 3.5 dB starts a new strum, 2.5 dB (two strings
        // beating, a partial moving between them) does not.
        func strummedAgain(rise: Double) -> [String] {
            Self.lines(to: 3.0, strings: { _ in Self.cents }, level: { t in -30 - 3 * t + (t >= 1.5 ? rise : 0) })
        }
        #expect(strummedAgain(rise: 3.5) == [Self.full, Self.full])
        #expect(strummedAgain(rise: 2.5) == [Self.full])
        // The second line waits for the new strum's strings to settle: a full window after it.
        var settler = StrumSettler(tolerance: Cents(3))
        var times: [Double] = []
        for j in 1...300 {
            let t = Double(j) / 100
            if settler.process(Self.hop(t, Self.cents, level: -30 - 3 * t + (t >= 1.5 ? 3.5 : 0))) != nil {
                times.append(t)
            }
        }
        #expect(times.count == 2 && times[1] >= 1.5 + settler.window, "\(times)")
    }

    @Test func aStrumAfterSilenceIsSaidAgain() {
        // Nothing heard from 1.5 to 2.0 s (the strum damped), then the same strum again.
        let again = Self.lines(to: 3.5, strings: { t in t >= 1.5 && t < 2.0 ? Array(repeating: nil, count: 6) : Self.cents })
        #expect(again == [Self.full, Self.full])
        // A break of 50 ms, under the settler's 0.1 s gap, is the analyser missing a hop or two: same strum.
        let blink = Self.lines(to: 3.5, strings: { t in t >= 1.5 && t < 1.55 ? Array(repeating: nil, count: 6) : Self.cents })
        #expect(blink == [Self.full])
    }

    @Test func aStringThatNeverSettlesHoldsTheLineBackForPatienceAtMost() {
        // E4 is heard throughout but wanders over 6 cents, never settling, while the other five have
        // settled by 0.5 s. The line comes StrumSettler.patience (1.5 s) later, E4 said unsteady.
        var settler = StrumSettler(tolerance: Cents(3))
        var said: [(time: Double, line: String)] = []
        for j in 1...300 {
            let t = Double(j) / 100
            var c: [Double?] = Self.cents
            c[5] = Double(j % 3) * 3
            if let line = settler.process(Self.hop(t, c)) { said.append((t, line)) }
        }
        #expect(said.map(\.line) == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 in tune, E4 unsteady"])
        if let first = said.first { #expect(abs(first.time - (0.5 + StrumSettler.patience)) < 0.05, "\(first.time)") }
    }

    @Test func aStrumWithAnUnsteadyStringIsNotInTune() {
        // Every string in tune, E4 wandering within ±6 ¢ of 0 (never settling): the line names E4
        // unsteady, and the strum is not called in tune (the chime knocks) — it was, with E4 left out.
        var settler = StrumSettler(tolerance: Cents(3))
        var settled: [StrumSettler.Settled] = []
        for j in 1...300 {
            var c: [Double?] = [0, 1, -1, 0, 2, nil]
            c[5] = Double(j % 3 - 1) * 6
            if let s = settler.settle(Self.hop(Double(j) / 100, c)) { settled.append(s) }
        }
        #expect(settled.map(\.line) == ["E2 in tune, A2 in tune, D3 in tune, G3 in tune, B3 in tune, E4 unsteady"])
        #expect(settled.first?.isInTune == false)
        // The same strum with E4 steady is in tune.
        var steady = StrumSettler(tolerance: Cents(3))
        var verdicts: [Bool] = []
        for j in 1...300 {
            if let s = steady.settle(Self.hop(Double(j) / 100, [0, 1, -1, 0, 2, 1])) { verdicts.append(s.isInTune) }
        }
        #expect(verdicts == [true])
    }

    @Test func onlyAStringOfTheStrumHeardWithinTheWindowIsCalledUnsteady() {
        // B3 wanders from 0.5 s and never settles, holding the line back to the patience's end (2.0 s).
        // E4 flashes, wandering, for `hops` hops ending `before` seconds before that: on 15 (under
        // releaseMinimum, 20: a muted string the analyser read for a moment, no string of the strum) it
        // is not named; on 25 it is named unsteady — unless it was last heard over `window` (0.5 s)
        // before the line: it has stopped, as a string that decayed.
        func said(hops: Int, before: Double = 0) -> [String] {
            Self.lines(to: 2.5, strings: { t in
                var c: [Double?] = Self.cents
                let j = Int((t * 100).rounded()), last = 200 - Int((before * 100).rounded())
                c[5] = j > last - hops && j <= last ? Double(j % 3) * 3 : nil
                c[4] = t < 0.5 ? 0 : Double(j % 3) * 3
                return c
            })
        }
        #expect(said(hops: 15).first?.contains("E4") == false, "\(said(hops: 15))")
        #expect(said(hops: 25).first?.contains("E4 unsteady") == true, "\(said(hops: 25))")
        #expect(said(hops: 25, before: 0.45).first?.contains("E4 unsteady") == true, "\(said(hops: 25, before: 0.45))")
        #expect(said(hops: 25, before: 0.6).first?.contains("E4") == false, "\(said(hops: 25, before: 0.6))")
    }

    @Test func aStringSettlesWithinTwoCentsOfItsMedianAndNotWithinThree() {
        // `spread` (2 ¢) from both sides: E4 reads 2 ¢ sharp ± `wander` ¢ in turn (2 − w, 2, 2 + w, …).
        // At ±1.5 ¢ it settles with the others and the strum is said at once (a spread of 1 ¢ would hold
        // it back); at ±2.5 ¢ it never settles and the line comes the patience later, it unsteady (a
        // spread of 3 ¢ would settle it).
        func said(wander: Double) -> [(time: Double, line: String)] {
            var settler = StrumSettler(tolerance: Cents(3))
            var said: [(time: Double, line: String)] = []
            for j in 1...250 {
                let t = Double(j) / 100
                var c: [Double?] = Self.cents
                c[5] = 2 + Double(j % 3 - 1) * wander
                if let line = settler.process(Self.hop(t, c)) { said.append((t, line)) }
            }
            return said
        }
        let steady = said(wander: 1.5)
        #expect(steady.map(\.line) == [Self.full])
        if let first = steady.first { #expect(first.time < 0.6, "said at \(first.time) s") }
        let wandering = said(wander: 2.5)
        #expect(wandering.map(\.line) == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 in tune, E4 unsteady"])
        if let first = wandering.first { #expect(abs(first.time - (0.5 + StrumSettler.patience)) < 0.05, "\(first.time)") }
    }

    @Test func aStringSlowToSettleIsWaitedForPatience() {
        // B3 is heard from the start but wanders until `steadyFrom`, so it settles half a second later;
        // the others have settled at 0.5 s, so the patience (1.5 s) ends at 2.0 s. `patience` from both
        // sides: settled at 1.9 s, B3 is waited for (one line, with it; a patience of 1.25 s would say
        // two); at 2.1 s, the others are said first, B3 unsteady, and B3 is news when it settles (a
        // patience of 1.75 s would say one).
        func said(steadyFrom: Double) -> [String] {
            Self.lines(to: 2.5, strings: { t in
                var c: [Double?] = Self.cents
                if t < steadyFrom { c[4] = Double(Int((t * 100).rounded()) % 3) * 3 }
                return c
            })
        }
        #expect(said(steadyFrom: 0.9) == [Self.full])
        #expect(said(steadyFrom: 1.4) == [Self.full])
        #expect(said(steadyFrom: 1.6) == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 unsteady, E4 in tune",
                                          Self.full])
    }

    @Test func aStringThatSettledAndWandersWhenTheLineIsSaidIsSaidAtItsSettledValue() {
        // E4 wanders throughout (never settles), so the line waits for the patience, until 2.0 s, and
        // says it unsteady. B3 settled at 0.5 s but from 1.8 to 2.3 s reads 4 ¢ off every other hop
        // (another string's partial pulling it): the line says it at the value it settled at, and its
        // settling again after is no news.
        func said(_ b3: @escaping (Double) -> Double?) -> [String] {
            Self.lines(to: 3.0, strings: { t in
                var c: [Double?] = Self.cents
                c[5] = Double(Int((t * 100).rounded()) % 3) * 3
                if t >= 1.7 && t < 2.3 { c[4] = b3(t) }
                return c
            })
        }
        let wander = { (t: Double) -> Double? in Int((t * 100).rounded()) % 2 == 0 ? 4 : 0 }
        let wandering = said { t in t < 1.8 ? 0 : wander(t) }
        #expect(wandering == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 in tune, E4 unsteady"])
        // Lost from 1.7 to 1.85 s (longer than the 0.1 s gap), then heard wandering: what it settled at
        // before is forgotten, so the line says it unsteady, and its settling afresh is news.
        let lost = said { t in t < 1.85 ? nil : wander(t) }
        #expect(lost == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 unsteady, E4 unsteady",
                         "E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 in tune, E4 unsteady"])
    }

    @Test func aStrumStillRingingWhenTheInputEndsIsSaidThen() {
        var settler = StrumSettler(tolerance: Cents(3))
        // Ends at 1.2 s: the five steady strings settled at 0.5 s, but E4 wanders over 8 ¢ and held the
        // line back (the patience would end at 2.0 s). Said at the end, E4 unsteady (it did not keep
        // within the release's ±3 ¢ either).
        for j in 1...120 {
            var c: [Double?] = Self.cents
            c[5] = Double(j % 3) * 4
            #expect(settler.process(Self.hop(Double(j) / 100, c)) == nil)
        }
        #expect(settler.finish()?.line == "E2 in tune, A2 4 cents flat, D3 in tune, G3 6 cents sharp, B3 in tune, E4 unsteady")
        #expect(settler.finish() == nil)
        // Ends at 0.4 s, before any string held the 0.5 s window: said from what kept still.
        var short = StrumSettler(tolerance: Cents(3))
        for j in 1...40 { _ = short.process(Self.hop(Double(j) / 100, Self.cents)) }
        #expect(short.finish()?.line == Self.full)
        // A strum already said is not said again at the end.
        var said = StrumSettler(tolerance: Cents(3))
        var lines = 0
        for j in 1...120 where said.process(Self.hop(Double(j) / 100, Self.cents)) != nil { lines += 1 }
        #expect(lines == 1)
        #expect(said.finish() == nil)
    }

    @Test func aShortStrumIsSaidWhenItEnds() {
        // Strings that sound 0.4 s — a ukulele's, palm-muted ones — never hold the 0.5 s a strum settles
        // in. Said when the strum ends (0.1 s with nothing heard), from what each string held.
        let short = Self.lines(to: 1.5, strings: { t in t >= 0.1 && t < 0.5 ? Self.cents : Array(repeating: nil, count: 6) })
        #expect(short == [Self.full])
        // A strum already said is not said again when it ends.
        let said = Self.lines(to: 2.5, strings: { t in t < 2.0 ? Self.cents : Array(repeating: nil, count: 6) })
        #expect(said == [Self.full])
    }

    @Test func aShortStrumsReleaseSaysStringsThatDidNotKeepStillUnsteady() {
        // Over 0.1–0.5 s: B3 wanders ±5 ¢ (over the 3 ¢ of releaseSpread): unsteady; E4 is heard on 15
        // hops only (under releaseMinimum, 20): not named; G3 reads 6 ¢ sharp, then from 0.3 s 6 + `drift` ¢.
        func said(drift: Double) -> [String] {
            Self.lines(to: 1.5, strings: { t in
                guard t >= 0.1 && t < 0.5 else { return Array(repeating: nil, count: 6) }
                var c: [Double?] = Self.cents
                c[4] = Int((t * 100).rounded()) % 2 == 0 ? 5 : -5
                c[5] = t < 0.35 ? nil : 2
                if t >= 0.3 { c[3] = 6 + drift }
                return c
            })
        }
        // The halves' medians differ by the drift: 1.5 ¢ keeps G3 (at its median, 7.5 ¢), 2.5 ¢ does not.
        #expect(said(drift: 1.5) == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 8 cents sharp, B3 unsteady"])
        #expect(said(drift: 2.5) == ["E2 in tune, A2 4 cents flat, D3 in tune, G3 unsteady, B3 unsteady"])
        // A strum none of whose strings kept still is not said: there is nothing to tell but that.
        let none = Self.lines(to: 1.5, strings: { t in
            guard t >= 0.1 && t < 0.5 else { return Array(repeating: nil, count: 6) }
            return Array(repeating: Int((t * 100).rounded()) % 2 == 0 ? 5 : -5, count: 6)
        })
        #expect(none.isEmpty, "\(none)")
    }
}
