import TunerBridge

/// A reading measured against one string of a tuning: which string, and how far from it.
public struct TargetReading: Sendable, Equatable {
    /// The target string, 0-based in string order (shown to the player as `stringIndex + 1`).
    public var stringIndex: Int
    /// The target string's note.
    public var note: Note
    /// Cents from the target string's pitch, unclamped: a string tuned a whole tone low reads −200.
    public var rawCents: Cents
    /// True when the string was chosen by the player (keys 1…9), false when picked automatically.
    public var isLocked: Bool
    /// The tolerance the reading was judged with.
    public var tolerance: Cents

    public init(stringIndex: Int, note: Note, rawCents: Cents, isLocked: Bool, tolerance: Cents) {
        self.stringIndex = stringIndex
        self.note = note
        self.rawCents = rawCents
        self.isLocked = isLocked
        self.tolerance = tolerance
    }

    /// Cents from the target clamped to ±50, the needle's range.
    public var cents: Cents { rawCents.clamped(to: Limits.needle) }

    /// True when |rawCents| ≤ tolerance.
    public var isInTune: Bool { rawCents.magnitude <= tolerance }
}

extension Pitch {
    /// The interval from equal-tempered `target` to this pitch (of an equal-tempered reading), unclamped.
    public func cents(from target: Note) -> Cents { TargetSystem.standard.interval(from: target, to: note) + rawCents }
}
