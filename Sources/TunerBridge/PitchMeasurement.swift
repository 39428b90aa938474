/// What the engine measured at one analysis hop: physics only. Notes, cents, A4 and the tolerance are
/// the music domain's (TunerMusic's `ReadingPipeline` turns a measurement into a `Reading`).
public struct PitchMeasurement: Sendable, Equatable {
    /// Seconds of input consumed when the measurement was made (the end of the newest audio it used).
    public var time: Double
    /// The fundamental frequency, unrounded; nil when the gate is closed or the input has no clear pitch.
    public var frequency: Hertz?
    /// How periodic the input is, 0…1 (the engine's `confidence`).
    public var clarity: Double
    /// RMS input level of the analysis window (−120 dBFS for digital silence).
    public var level: Decibels
    /// True when the engine heard an attack in this hop (a pluck — also a re-pluck of the same string
    /// at the same level —, a re-attack, a new bow stroke): the start of a new note. The engine's
    /// `onset`; the settle logic (TunerMusic's `SettleDetector`) starts a note at it.
    public var onset: Bool

    public init(time: Double, frequency: Hertz?, clarity: Double, level: Decibels, onset: Bool = false) {
        self.time = time
        self.frequency = frequency
        self.clarity = clarity
        self.level = level
        self.onset = onset
    }
}
