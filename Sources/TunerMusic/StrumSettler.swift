import Foundation
import TunerBridge

/// `--poly --announce`: one line per strum, once every string heard has settled —
/// "E2 in tune, A2 4 cents flat, D3 in tune, G3 1 cent sharp, B3 in tune, E4 in tune".
///
/// A string has settled when it has been heard without a break for `window` seconds and all its
/// readings of that window lie within ±`spread` of their median (the values of `SettleDetector`'s
/// defaults, so a strum settles as a single note does). After a line, nothing more is said until the
/// strum changes for `gap` seconds or more: a string stops or starts being heard, or a settled
/// string moves more than `rearmDistance` (a peg turned while the strings ring) — then the next settled state is announced.
public struct StrumSettler: Sendable {
    public var window: Double
    public var spread: Cents
    public var rearmDistance: Cents
    /// Breaks in a string's readings shorter than this do not end it.
    public var gap: Double
    /// A string is in tune when its settled median is within this many cents of its target.
    public var tolerance: Cents

    private var recent: [[(time: Double, cents: Double)]] = []
    private var heardSince: [Double?] = []
    private var lastHeard: [Double] = []
    /// Each string's median cents over the last `window` while it has settled now (nil: not settled),
    /// for the screen's checklist.
    public private(set) var settled: [Double?] = []
    /// The announced strum: each string's median cents (nil: not heard), until re-armed.
    private var announced: [Double?]?
    /// When the change away from the announced strum began.
    private var changeSince: Double?

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
        /// Every heard string's settled median is within `tolerance` of its target.
        public var isInTune: Bool
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
            lastHeard = Array(repeating: -.infinity, count: strum.strings.count)
        }
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
                medians.append(nil)
                settled[index] = nil
                continue
            }
            lastHeard[index] = strum.time
            if heardSince[index] == nil { heardSince[index] = strum.time }
            recent[index].append((strum.time, string.cents.value))
            recent[index].removeAll { $0.time <= strum.time - window }
            let values = recent[index].map(\.cents).sorted()
            let median = values[values.count / 2]
            medians.append(median)
            let held = strum.time - heardSince[index]! >= window
            let steady = held && !values.contains(where: { abs($0 - median) > spread.value })
            settled[index] = steady ? median : nil
            if !steady { allSettled = false }
        }
        if let last = announced {
            let changed = zip(last, medians).contains { old, new in
                switch (old, new) {
                case (nil, nil): return false
                case let (a?, b?): return abs(a - b) > rearmDistance.value
                default: return true
                }
            }
            // Re-armed by a change that lasts `gap` (a string heard for a hop or two is not a new strum).
            guard changed else {
                changeSince = nil
                return nil
            }
            if changeSince == nil { changeSince = strum.time }
            guard strum.time - changeSince! >= gap else { return nil }
            announced = nil
            changeSince = nil
        }
        guard allSettled, medians.contains(where: { $0 != nil }) else { return nil }
        announced = medians
        let line = strum.strings.enumerated().compactMap { index, string -> String? in
            guard let string, let median = medians[index] else { return nil }
            let line = Announcement.text(name: string.label, cents: Cents(median),
                                         inTune: abs(median) <= tolerance.value)
            return line.replacingOccurrences(of: ", ", with: " ")
        }.joined(separator: ", ")
        let inTune = medians.allSatisfy { median in median.map { abs($0) <= tolerance.value } ?? true }
        return Settled(line: line, isInTune: inTune)
    }
}
