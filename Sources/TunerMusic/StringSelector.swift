import TunerBridge

/// Picks the string of a tuning that a reading is measured against.
///
/// Automatic choice: the string nearest in cents to the pitch, with hysteresis so that a slide or a
/// wobble between two strings does not make the target flip back and forth. Once a string is the
/// target, another takes over only when it has been the nearest for `confirmAfter` seconds of
/// reading time and is nearer by `switchMargin` (100 ¢ by default: 50 ¢ past the midpoint between
/// the two), or when it has been the nearest for `switchAfter` seconds (so a string tuned far off
/// still gets picked when it is played). A single stray reading (an octave slip) never switches.
/// Readings without a pitch keep the current target and break a challenger's run.
///
/// The player can lock a string (keys 1…9), then every reading is measured against it, however
/// far away; key 0 returns to automatic choice.
public struct StringSelector: Sendable {
    public let tuning: Tuning
    /// The targets the strings' notes are measured in (their temperament).
    public let system: TargetSystem
    /// How much nearer another string must be to take over at once.
    public var switchMargin: Cents
    /// How long another string must stay the nearest to take over without the margin.
    public var switchAfter: Double
    /// How long another string must stay the nearest to take over with the margin.
    public var confirmAfter: Double

    /// The current target string (0-based), or nil before the first pitch.
    public private(set) var current: Int?
    /// The string locked by the player, or nil in automatic mode.
    public private(set) var locked: Int?
    /// The string that has been nearest since `challengerSince` (reading time), when not `current`.
    private var challenger: Int?
    private var challengerSince: Double = 0

    public init(tuning: Tuning, system: TargetSystem = .standard, switchMargin: Cents = Cents(100),
                switchAfter: Double = 0.25, confirmAfter: Double = 0.02) {
        self.tuning = tuning
        self.system = system
        self.switchMargin = switchMargin
        self.switchAfter = switchAfter
        self.confirmAfter = confirmAfter
    }

    /// Locks string `index` (0-based), or returns to automatic choice with nil. An index outside
    /// the tuning is ignored and returns false.
    @discardableResult
    public mutating func lock(_ index: Int?) -> Bool {
        guard let index else {
            locked = nil
            return true
        }
        guard tuning.strings.indices.contains(index) else { return false }
        locked = index
        current = index
        challenger = nil
        return true
    }

    /// Applies a digit key: 1…9 lock that string (1 = first in string order), 0 goes back to
    /// automatic. Returns false for a digit with no string (e.g. 7 on a 6-string tuning).
    @discardableResult
    public mutating func press(digit: Int) -> Bool {
        digit == 0 ? lock(nil) : lock(digit - 1)
    }

    /// The reading measured against the target string, or nil when the reading has no pitch.
    public mutating func select(_ reading: Reading) -> TargetReading? {
        guard let pitch = reading.pitch, !tuning.strings.isEmpty else {
            challenger = nil
            return nil
        }
        let index = locked ?? choose(pitch, at: reading.time)
        let note = tuning.strings[index]
        return TargetReading(stringIndex: index, note: note, rawCents: cents(of: pitch, fromString: index),
                             isLocked: locked != nil, tolerance: reading.tolerance)
    }

    /// The interval from string `index`'s target (its note in the temperament, plus its offset) to
    /// `pitch`, unclamped.
    public func cents(of pitch: Pitch, fromString index: Int) -> Cents {
        system.interval(from: tuning.strings[index], to: pitch.note) + pitch.rawCents - tuning.offset(ofString: index)
    }

    private mutating func choose(_ pitch: Pitch, at time: Double) -> Int {
        let distances = tuning.strings.indices.map { cents(of: pitch, fromString: $0).magnitude }
        var nearest = 0
        for i in distances.indices where distances[i] < distances[nearest] { nearest = i }
        guard let current else {
            self.current = nearest
            return nearest
        }
        if nearest == current || distances[nearest] == distances[current] {
            challenger = nil
            return current
        }
        if challenger != nearest {
            challenger = nearest
            challengerSince = time
        }
        let held = time - challengerSince
        if (held >= confirmAfter - 1e-9 && distances[current] - distances[nearest] >= switchMargin)
            || held >= switchAfter - 1e-9 {
            self.current = nearest
            challenger = nil
        }
        return self.current ?? nearest
    }
}
