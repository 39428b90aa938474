import TunerBridge

/// The musical ranges, beside the engine's in `Limits` (TunerBridge): every clamp, message and help
/// line reads them from here.
extension Limits {
    /// Reference pitch A4, in Hz (`--a4`, the screen's `[ ]` keys).
    public static let a4 = 400.0...480.0
    /// In-tune tolerance, ± cents (`--tolerance`, the screen's `+ -` keys).
    public static let tolerance = 0.1...50.0
    /// Octaves a note may be written in ("C0" … "G9").
    public static let octaves = 0...9
    /// MIDI notes a note may name: C0 (16 Hz) to G9, the top of MIDI — octaves 0 to 9 as written.
    public static let notes = 12...127
    /// The needle's range in cents: readings further off are shown at its ends.
    public static let needle = -50.0...50.0
    /// `NNedo`: equal divisions of the octave a tuner can tell apart and name (5edo … 96edo).
    public static let edo = 5...96
    /// Degrees per period of a Scala scale: one per cent at most (a 2,000-note file is refused).
    public static let scaleDegrees = 1...1200
    /// `--capo`: the frets a capo goes on.
    public static let capo = 0...12
    /// `--offsets`: cents per string, in steps of 0.1 ¢.
    public static let offset = -50.0...50.0
    /// `--transpose`: semitones between written and sounding pitch.
    public static let transposition = -24...24
}
