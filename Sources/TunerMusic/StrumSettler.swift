import Foundation
import TunerBridge

/// `--poly --announce`: one line per strum, once every string heard has settled —
/// "E2 in tune, A2 4 cents flat, D3 in tune, G3 1 cent sharp, B3 in tune, E4 in tune".
///
/// A string has settled when it has been heard without a break for `window` seconds and all its
/// readings of that window lie within ±`spread` of their median (the values of `SettleDetector`'s
/// defaults, so a strum settles as a single note does).
///
/// After a line the same strum says something again only when it has news: a string settles that the
/// line did not have, or a settled string has moved more than `rearmDistance` from the line's value (a
/// peg turned while the strings ring). A string that stops being heard — it decayed under the gate, or
/// the analyser lost it for a while among the others' partials — is no news, and nor is its return at
/// the value it had. A new strum starts afresh, its first settled state announced whatever it holds:
/// one after `gap` seconds with no string heard, or one struck over the ringing strings, which raises
/// the strings' summed level `strumRise` over its median of the `riseWindow` before. A string heard
/// but never settling (flickering among the others' partials) holds the line back for `patience` at
/// most; the line then says the settled strings, a string still heard that had settled earlier in the
/// strum at the value it settled at, and the other strings of the strum heard within the last `window`
/// as "unsteady" ("E4 unsteady"). A strum that ends before its strings have settled is said when it
/// ends — its strings die, or the input does (`finish`) — from the strings that kept still while they
/// sounded, naming the strum's other strings "unsteady". So a listener is told of each string of the
/// strum the tuner heard but could not read steadily, to tune it alone, and a strum with an unsteady
/// string is not in tune (`Settled.isInTune`: the chime knocks).
///
/// A string of the strum is one heard on `releaseMinimum` hops of it at least: a muted string the
/// analyser flashes for a few hops is not named at all. Not tuned: on the 50 FluidR3 strums of
/// `Benchmarks/strums_fresh.py` (neither part of `strums.py`), strings named right, wrong, unsteady and
/// never named went 133 / 26 / 0 / 21 → 133 / 26 / 4 / 17 of 180 (±30 ¢) and 98 / 4 / 0 / 18 → 98 / 4 / 3 /
/// 15 of 120 (near in tune); MuseScore's 10, 38 / 7 / 0 / 15 → 38 / 7 / 12 / 3 of 60; every strum said
/// as often as before. The strings never named are lost among the others' partials for over `window`
/// when the line is said. Also tried: a string heard within `window` but not now holding the line back
/// as a heard one does: never named 21 → 1, but strings named right 133 → 118 (the line then waits for
/// the patience, and the low strings, gliding, are unsteady by then).
public struct StrumSettler: Sendable {
    /// How far the strings' summed level must rise over its median of the `riseWindow` before for the
    /// hop to start a new strum: 3 dB. Measured on the strums of `Benchmarks/strums.py` (tuning part,
    /// 70 single strums: synthetic at 40 and 20 dB SNR, muted, FluidR3): the summed level of a ringing
    /// strum rises at most 1.0 dB over that median after 0.6 s, while single strings' own levels jump by
    /// up to 17 dB as partials move between them (so no string's level alone can tell a new strum). A
    /// second strum as strong as the first raises the sum by 3.8 dB over strings decayed by 1.5 dB
    /// (0.5 s of a guitar's low strings), by 4.8 dB over strings decayed by 3 dB.
    public static let strumRise = Decibels(3)
    /// The span of summed levels a new strum's rise is measured against: 0.2 s.
    public static let riseWindow = 0.2
    /// How long a string heard but not settled may hold back the line once the others have settled:
    /// 1.5 s. Guards against a strum never being said because one string flickers in and out among the
    /// others' partials (shorter), and against a first line said without a string that is only slow to
    /// settle, then a second line with it (longer). Measured on the 50 FluidR3 strums of
    /// `Benchmarks/strums_fresh.py` (fresh draws, in neither part of `strums.py`; with `lastSettled`),
    /// strums said more than once: 8 at 1 s, 3 at 1.25 s, 1 at 1.5 s (a string first heard after the
    /// line); at 1.75 and 2 s still 1, and 6 never said before their 2.5 s input ended (before `finish`),
    /// so a longer patience cannot be told from 1.5 s on these strums. The other-tunings draws, 9 at 1 s
    /// and 6 at 1.5 s of 210. On `strums.py`'s tuning part, FluidR3 strums said more than once 30 → 0 %
    /// and near in tune 20 → 10 % (1 s without `lastSettled` → 1.5 s with it); the synthetic sets unchanged.
    public static let patience = 1.5
    /// A strum that ends unsaid — its strings died before they held `window` (a ukulele's or a palm-
    /// muted strum, or strings that ring under a second) — is said when it ends, from each string heard
    /// on at least this many hops (0.2 s) …
    public static let releaseMinimum = 20
    /// … whose readings kept within ±3 ¢ of their median (90 % of them: the settle's ±2 ¢ for all,
    /// loosened for a short string's few readings) …
    public static let releaseSpread = Cents(3)
    /// … and whose halves' medians differ by 2 ¢ at most (a string still sinking from its attack is
    /// left out). Not tuned: checked on synthetic strums whose partials decay 6, 10 and 15× faster than
    /// `Benchmarks/strums.py`'s (tuning seeds 0–19, 40 dB), never said before: now each said once, 103,
    /// 95 and 70 of their 120 strings, each within 1 ¢ of its truth (the line's whole cents).
    public static let releaseDrift = Cents(2)
    /// The readings of a string kept for that: the newest 4 s of hops at 10 ms.
    public static let releaseCapacity = 400
    public var window: Double
    public var spread: Cents
    public var rearmDistance: Cents
    /// Breaks in a string's readings shorter than this do not end it; as long with no string heard at
    /// all, the strum has ended.
    public var gap: Double
    /// A string is in tune when its settled median is within this many cents of its target.
    public var tolerance: Cents

    private var recent: [[(time: Double, cents: Double)]] = []
    private var heardSince: [Double?] = []
    private var lastHeard: [Double] = []
    /// Each string's median cents over the last `window` while it has settled now (nil: not settled),
    /// for the screen's checklist.
    public private(set) var settled: [Double?] = []
    /// What this strum has announced: each string's last announced median cents (nil: never
    /// announced); nil before the strum's first line.
    private var announced: [Double?]?
    /// Since when no string has been heard.
    private var quietSince: Double?
    /// Since when some strings have settled while others heard have not.
    private var partialSince: Double?
    /// Each string's median when it last settled in this strum while heard since (nil: not since it
    /// was last lost): what a line said after `patience` says of a string heard but wandering now —
    /// another string's partial pulling it for a few hops, as the analyser's readings of FluidR3 strums
    /// do a second after the strum.
    private var lastSettled: [Double?] = []
    /// Each string's readings in this strum (at most `releaseCapacity`, the newest), and its name.
    private var sounded: [[(time: Double, cents: Double)]] = []
    private var labels: [String] = []
    /// Whether this strum has had a line.
    private var saidThisStrum = false
    /// The strings' summed level (dBFS) at each recent hop, over `riseWindow`.
    private var sums: [(time: Double, db: Double)] = []

    public init(tolerance: Cents, window: Double = 0.5, spread: Cents = Cents(2), rearmDistance: Cents = Cents(5),
                gap: Double = 0.1) {
        self.tolerance = tolerance
        self.gap = gap
        self.window = window
        self.spread = spread
        self.rearmDistance = rearmDistance
    }

    /// A strum that has just settled: its line, and whether every string heard is in tune (what
    /// `--chime` sounds: the in-tune chime, else the out-of-tune one).
    public struct Settled: Sendable, Equatable {
        public var line: String
        /// Every heard string's settled median is within `tolerance` of its target (none is unsteady).
        public var isInTune: Bool
    }

    /// The part of a line naming a string of the strum that did not settle: "E4 unsteady".
    public static func unsteadyPart(_ name: String) -> String { "\(name) unsteady" }

    /// Starts a new strum — forgetting what was announced, every string settling afresh — after `gap`
    /// with no string heard, or when the strings' summed level rises `strumRise` over its recent median.
    /// A strum that ended unsaid is judged on its release: its line then.
    private mutating func noteStrumStart(_ strum: StrumReading) -> Settled? {
        let energy = strum.strings.reduce(0.0) { sum, string in
            sum + (string.map { pow(10, $0.level.value / 10) } ?? 0)
        }
        guard energy > 0 else {
            if quietSince == nil { quietSince = strum.time }
            sums.removeAll(keepingCapacity: true)
            guard strum.time - quietSince! >= gap else { return nil }
            announced = nil
            let release = saidThisStrum ? nil : releaseLine()
            forgetStrum()
            return release
        }
        quietSince = nil
        let db = 10 * log10(energy)
        sums.removeAll { $0.time < strum.time - Self.riseWindow }
        if sums.count >= 5 {
            if db >= Self.median(sums.map(\.db)) + Self.strumRise.value {
                announced = nil
                forgetStrum()
                for index in recent.indices {
                    recent[index].removeAll(keepingCapacity: true)
                    heardSince[index] = nil
                    settled[index] = nil
                }
                sums.removeAll(keepingCapacity: true)
            }
        }
        sums.append((strum.time, db))
        return nil
    }

    private mutating func forgetStrum() {
        for index in sounded.indices { sounded[index].removeAll(keepingCapacity: true) }
        for index in lastSettled.indices { lastSettled[index] = nil }
        saidThisStrum = false
    }

    /// The line of a strum that ended before every string heard had settled — a short strum, strings
    /// that die within a second, an input that ends: each string settled at its median, each other
    /// string heard on `releaseMinimum` hops or more whose readings kept still (`keptStill`) at that
    /// median, and the rest of those "unsteady"; nil when no string settled or kept still.
    private func releaseLine() -> Settled? {
        var parts: [String] = []
        var said = false
        var inTune = true
        for (index, readings) in sounded.enumerated() {
            let median: Double
            if let steady = settled[index] {
                median = steady
            } else {
                guard readings.count >= Self.releaseMinimum else { continue }
                guard let still = keptStill(index) else {
                    parts.append(Self.unsteadyPart(labels[index]))
                    inTune = false
                    continue
                }
                median = still
            }
            parts.append(part(labels[index], median))
            said = true
            inTune = inTune && abs(median) <= tolerance.value
        }
        return said ? Settled(line: parts.joined(separator: ", "), isInTune: inTune) : nil
    }

    /// The median of string `index`'s readings in this strum when they kept still — `releaseMinimum` of
    /// them at least, 90 % within ±`releaseSpread` of their median, the halves' medians within
    /// `releaseDrift` of each other — else nil.
    private func keptStill(_ index: Int) -> Double? {
        let values = sounded[index].map(\.cents)
        guard values.count >= Self.releaseMinimum else { return nil }
        let median = Self.median(values)
        let near = values.filter { abs($0 - median) <= Self.releaseSpread.value }.count
        let half = values.count / 2
        guard Double(near) >= 0.9 * Double(values.count),
              abs(Self.median(values[..<half]) - Self.median(values[half...])) <= Self.releaseDrift.value else { return nil }
        return median
    }

    /// The middle value of `values` (the upper one of an even count), as every median here.
    private static func median(_ values: some Collection<Double>) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// One string's part of a line: "E2 in tune", "A2 4 cents flat".
    private func part(_ name: String, _ median: Double) -> String {
        Announcement.text(name: name, cents: Cents(median), inTune: abs(median) <= tolerance.value)
            .replacingOccurrences(of: ", ", with: " ")
    }

    /// The input has ended (a file, or standard input): a strum not said yet is said as when its strings
    /// die — from its settled strings and those that kept still (`releaseLine`) — so a recording that
    /// stops while its strings ring, before they settled or while one held the line back, is not left
    /// unsaid. Nil when the strum was said, or no string kept still.
    public mutating func finish() -> Settled? {
        guard !saidThisStrum else { return nil }
        saidThisStrum = true
        return releaseLine()
    }

    /// Takes the next hop; returns the line when the strum has just settled.
    public mutating func process(_ strum: StrumReading) -> String? {
        settle(strum)?.line
    }

    /// Takes the next hop; returns the settled strum (line and in-tune verdict) when it has just settled.
    public mutating func settle(_ strum: StrumReading) -> Settled? {
        if recent.count != strum.strings.count {
            recent = Array(repeating: [], count: strum.strings.count)
            heardSince = Array(repeating: nil, count: strum.strings.count)
            settled = Array(repeating: nil, count: strum.strings.count)
            lastSettled = Array(repeating: nil, count: strum.strings.count)
            lastHeard = Array(repeating: -.infinity, count: strum.strings.count)
            sounded = Array(repeating: [], count: strum.strings.count)
            labels = Array(repeating: "", count: strum.strings.count)
        }
        let release = noteStrumStart(strum)
        var medians: [Double?] = []
        var allSettled = true
        for (index, string) in strum.strings.enumerated() {
            guard let string else {
                // A break shorter than `gap` (a hop or two the analyser missed) keeps a string that had
                // been heard for `window`; a string heard for a moment is gone at once.
                if strum.time - lastHeard[index] < gap, let since = heardSince[index], lastHeard[index] - since >= window,
                   let kept = recent[index].last {
                    medians.append(kept.cents)
                    allSettled = false
                    settled[index] = nil
                    continue
                }
                recent[index].removeAll(keepingCapacity: true)
                heardSince[index] = nil
                lastSettled[index] = nil
                medians.append(nil)
                settled[index] = nil
                continue
            }
            lastHeard[index] = strum.time
            labels[index] = string.label
            if sounded[index].count == Self.releaseCapacity { sounded[index].removeFirst() }
            sounded[index].append((strum.time, string.cents.value))
            if heardSince[index] == nil { heardSince[index] = strum.time }
            recent[index].append((strum.time, string.cents.value))
            recent[index].removeAll { $0.time <= strum.time - window }
            let values = recent[index].map(\.cents)
            let median = Self.median(values)
            medians.append(median)
            let held = strum.time - heardSince[index]! >= window
            let steady = held && !values.contains(where: { abs($0 - median) > spread.value })
            settled[index] = steady ? median : nil
            if steady { lastSettled[index] = median } else { allSettled = false }
        }
        if let release { return release }  // a quiet hop: every string's state above is cleared
        // A string heard but not settled holds the line back — for `patience` once the others have
        // settled; then the line says the settled ones (a string heard that settled earlier at that
        // value), and the late string is news when it settles.
        let ready = medians.indices.filter { settled[$0] != nil }
        guard !ready.isEmpty else {
            partialSince = nil
            return nil
        }
        var unsteady = Set<Int>()
        if !allSettled {
            if partialSince == nil { partialSince = strum.time }
            guard strum.time - partialSince! >= Self.patience else { return nil }
            medians = medians.indices.map { index in
                settled[index] ?? (strum.strings[index] != nil ? lastSettled[index] : nil)
            }
            unsteady = Set(medians.indices.filter { index in
                medians[index] == nil && strum.time - lastHeard[index] <= window
                    && sounded[index].count >= Self.releaseMinimum
            })
        } else {
            partialSince = nil
        }
        if let last = announced {
            let news = zip(last, medians).contains { old, new in
                guard let new else { return false }
                guard let old else { return true }
                return abs(new - old) > rearmDistance.value
            }
            guard news else { return nil }
            announced = zip(last, medians).map { old, new in new ?? old }
        } else {
            announced = medians
        }
        let line = strum.strings.enumerated().compactMap { index, string -> String? in
            if unsteady.contains(index) { return Self.unsteadyPart(labels[index]) }
            guard let string, let median = medians[index] else { return nil }
            return part(string.label, median)
        }.joined(separator: ", ")
        let inTune = unsteady.isEmpty && medians.allSatisfy { median in median.map { abs($0) <= tolerance.value } ?? true }
        saidThisStrum = true
        return Settled(line: line, isInTune: inTune)
    }
}
