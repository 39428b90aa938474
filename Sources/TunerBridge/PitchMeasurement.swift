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

    public init(time: Double, frequency: Hertz?, clarity: Double, level: Decibels) {
        self.time = time
        self.frequency = frequency
        self.clarity = clarity
        self.level = level
    }
}
