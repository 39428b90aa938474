import TunerBridge

/// One result of the pitch engine, as the rest of the program sees it.
public struct Reading: Sendable, Equatable {
    /// Seconds of input consumed when the reading was made (the end of the newest audio it used).
    public var time: Double
    /// The pitch, or nil when the gate is closed or the input has no clear pitch.
    public var pitch: Pitch?
    /// RMS input level of the analysis window.
    public var level: Decibels
    /// How periodic the input is, 0…1.
    public var confidence: Double
    /// The in-tune tolerance this reading was judged with.
    public var tolerance: Cents
    /// True when a new note starts at this reading: the engine heard an attack (`PitchMeasurement.onset`).
    public var onset: Bool

    public init(time: Double, pitch: Pitch?, level: Decibels, confidence: Double, tolerance: Cents,
                onset: Bool = false) {
        self.time = time
        self.pitch = pitch
        self.level = level
        self.confidence = confidence
        self.tolerance = tolerance
        self.onset = onset
    }

    /// True when there is a pitch and it is within the tolerance of its note (|cents| ≤ tolerance).
    public var isInTune: Bool {
        guard let pitch else { return false }
        return pitch.cents.magnitude <= tolerance
    }
}

/// A detected pitch: its frequency, the nearest note and the distance to it.
public struct Pitch: Sendable, Equatable {
    /// The fundamental frequency, unrounded.
    public var frequency: Hertz
    /// The nearest equal-tempered note.
    public var note: Note
    /// Cents from `note`, clamped to ±50 (the display range).
    public var cents: Cents
    /// Cents from `note` as the engine computed them, unclamped.
    public var rawCents: Cents

    public init(frequency: Hertz, note: Note, rawCents: Cents) {
        self.frequency = frequency
        self.note = note
        self.rawCents = rawCents
        self.cents = rawCents.clamped(to: Limits.needle)
    }
}
