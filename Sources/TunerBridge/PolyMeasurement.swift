/// What the polyphonic analyser measured for one string at one hop: physics only (TunerMusic's
/// `StrumJudge` names the string's target, the cents and in tune).
public struct StringMeasurement: Sendable, Equatable {
    /// The string's first-partial frequency; nil when the string is not heard (muted, decayed under the
    /// gate, or only partials another string explains).
    public var frequency: Hertz?
    /// RMS level of the string's own partials (−120 dBFS when not heard).
    public var level: Decibels
    /// The share 0…1 of the energy on the string's series that is its own, not another string's.
    public var clarity: Double

    public init(frequency: Hertz?, level: Decibels, clarity: Double) {
        self.frequency = frequency
        self.level = level
        self.clarity = clarity
    }
}

/// One hop of a strum: every string's measurement, in string order.
public struct PolyMeasurement: Sendable, Equatable {
    /// Seconds of input consumed when the measurement was made.
    public var time: Double
    public var strings: [StringMeasurement]

    public init(time: Double, strings: [StringMeasurement]) {
        self.time = time
        self.strings = strings
    }
}

/// What a session that can switch between single-string and strum analysis (the screen's key p)
/// delivers: one or the other, whichever engine was running for that block.
public enum SessionMeasurement: Sendable, Equatable {
    case single(PitchMeasurement)
    case strum(PolyMeasurement)
}
