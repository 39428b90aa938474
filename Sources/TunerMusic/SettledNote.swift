import TunerBridge

/// A note that was held steady: one completed event per settled note, not one per reading.
public struct SettledNote: Sendable, Equatable {
    /// Reading time (seconds of input) when the note had been steady for the settle window.
    public var time: Double
    /// Reading time of the first reading of the steady window.
    public var start: Double
    /// The note the cents are measured from: the target string's note in a tuning, else the
    /// nearest note.
    public var note: Note
    /// The target string (0-based), or nil without a tuning.
    public var stringIndex: Int?
    /// Median frequency over the steady window.
    public var frequency: Hertz
    /// Median cents from `note` over the steady window, unclamped.
    public var cents: Cents
    /// The tolerance the readings were judged with.
    public var tolerance: Cents

    public init(time: Double, start: Double, note: Note, stringIndex: Int?, frequency: Hertz, cents: Cents,
                tolerance: Cents) {
        self.time = time
        self.start = start
        self.note = note
        self.stringIndex = stringIndex
        self.frequency = frequency
        self.cents = cents
        self.tolerance = tolerance
    }

    /// True when |cents| ≤ tolerance.
    public var isInTune: Bool { cents.magnitude <= tolerance }
}
