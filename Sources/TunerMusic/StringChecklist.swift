/// What is left to tune: each string's last settled reading, and a ✓ for the strings that
/// settled within tolerance.
public struct StringChecklist: Sendable, Equatable {
    public let tuning: Tuning
    /// The last settled note of each string, in string order (nil: not played yet).
    public private(set) var last: [SettledNote?]

    public init(tuning: Tuning) {
        self.tuning = tuning
        self.last = Array(repeating: nil, count: tuning.strings.count)
    }

    /// Records a settled note against its target string; notes without a string in this tuning
    /// (chromatic mode) are ignored and return false.
    @discardableResult
    public mutating func record(_ note: SettledNote) -> Bool {
        guard let index = note.stringIndex, last.indices.contains(index) else { return false }
        last[index] = note
        return true
    }

    /// True when string `index` last settled within tolerance.
    public func isDone(_ index: Int) -> Bool {
        guard last.indices.contains(index), let note = last[index] else { return false }
        return note.isInTune
    }

    /// How many strings are done.
    public var doneCount: Int { last.indices.filter(isDone).count }

    /// True when every string is done.
    public var isComplete: Bool { !last.isEmpty && doneCount == last.count }

    /// Forgets every string (e.g. on a key press to start over).
    public mutating func reset() {
        last = Array(repeating: nil, count: tuning.strings.count)
    }

    /// A one-line summary, e.g. "E2 ✓  A2 -4  D3 ·  G3 ·  B3 ·  E4 ·": ✓ done, signed whole cents
    /// when it settled out of tolerance, · not played yet.
    public var summary: String {
        last.indices.map { i in
            let label = tuning.labels[i]
            guard let note = last[i] else { return "\(label) ·" }
            if note.isInTune { return "\(label) ✓" }
            let cents = Int(note.cents.value.rounded())
            return "\(label) \(cents > 0 ? "+" : "")\(cents)"
        }.joined(separator: "  ")
    }
}
