import TunerBridge

/// The one way from what the engine measured to what the musician reads: the nearest note and the
/// cents from it for A4, in tune or not for the tolerance, then — through one `TuningTracker` — the
/// target string (with a tuning), the settled notes, the string checklist and the strobe.
///
/// The screen, the text and JSON Lines printers and `SettledNotes` (announcements, `--expect`) each
/// own one and feed it every measurement in order, on the task that consumes the session. A4 and the
/// tolerance live here, on the consumer's side: changing them (the screen's `[ ]` and `+ -` keys)
/// changes `settings` and applies to the next measurement; nothing travels to the analysis thread.
public struct ReadingPipeline: Sendable {
    /// What the musician can change while tuning.
    public struct Settings: Equatable, Sendable {
        /// Reference pitch: the frequency of A4.
        public var a4: Hertz
        /// A reading is in tune when |cents| ≤ tolerance.
        public var tolerance: Cents
        public init(a4: Hertz = Hertz(440), tolerance: Cents = Cents(3)) {
            self.a4 = a4
            self.tolerance = tolerance
        }
    }

    public var settings: Settings
    /// The table of targets: temperament, root, names, transposition (`.standard` without options).
    public let system: TargetSystem
    /// Target string, settled notes, checklist and strobe.
    public var tracker: TuningTracker

    public init(settings: Settings = Settings(), system: TargetSystem = .standard, tuning: Tuning? = nil,
                detector: SettleDetector = SettleDetector()) {
        self.settings = settings
        self.system = system
        self.tracker = TuningTracker(tuning: tuning, system: system, detector: detector)
    }

    /// The tuning, or nil in chromatic mode.
    public var tuning: Tuning? { tracker.tuning }

    /// The measurement as a musical reading: the nearest target of `system` for A4 and the cents from
    /// it (clamped to the needle and raw), judged with the tolerance. No pitch when the measurement has
    /// none or its nearest note lies outside MIDI 0…127.
    public func reading(from measurement: PitchMeasurement) -> Reading {
        var pitch: Pitch?
        if let frequency = measurement.frequency, frequency.value.isFinite, frequency.value > 0 {
            if let nearest = system.nearest(to: frequency, a4: settings.a4) {
                pitch = Pitch(frequency: frequency, note: nearest.note, rawCents: nearest.cents)
            }
        }
        return Reading(time: measurement.time, pitch: pitch, level: measurement.level,
                       confidence: measurement.clarity, tolerance: settings.tolerance, onset: measurement.onset)
    }

    /// Takes the next measurement. With `ignored` (the tuner is speaking) it counts as having no pitch.
    public mutating func process(_ measurement: PitchMeasurement, ignored: Bool = false) -> TuningTracker.Step {
        tracker.process(reading(from: measurement), ignored: ignored)
    }
}
