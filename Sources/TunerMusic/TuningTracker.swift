import TunerBridge

/// Everything a musician's display keeps across readings, in one synchronous step per reading:
/// the target string (with a tuning), settled-note detection, the string checklist and the strobe.
///
/// It is the last stage of `ReadingPipeline`, which every consumer (screen, text/JSONL, `SettledNotes`)
/// runs once per measurement; nothing else steps it.
public struct TuningTracker: Sendable {
    /// The tuning, or nil for chromatic mode (the nearest note).
    public var tuning: Tuning? { selector?.tuning }
    /// Picks the target string; nil in chromatic mode.
    public private(set) var selector: StringSelector?
    public var detector: SettleDetector
    /// Each string's last settled note; nil in chromatic mode.
    public private(set) var checklist: StringChecklist?
    public var strobe: Strobe

    /// What one reading gave.
    public struct Step: Sendable, Equatable {
        public var reading: Reading
        /// The reading against its target string (nil without a tuning or without a pitch).
        public var target: TargetReading?
        /// The event when a note settled at this reading.
        public var settled: SettledNote?

        public init(reading: Reading, target: TargetReading?, settled: SettledNote?) {
            self.reading = reading
            self.target = target
            self.settled = settled
        }

        /// Cents the display shows, unclamped: from the target string with a tuning, else from
        /// the nearest note; nil without a pitch.
        public var rawCents: Cents? { target?.rawCents ?? reading.pitch?.rawCents }
    }

    public init(tuning: Tuning? = nil, system: TargetSystem = .standard, detector: SettleDetector = SettleDetector(),
                strobe: Strobe = Strobe()) {
        self.selector = tuning.map { StringSelector(tuning: $0, system: system) }
        self.checklist = tuning.map { StringChecklist(tuning: $0) }
        self.detector = detector
        self.strobe = strobe
    }

    /// Takes the next reading. With `ignored` (the tuner is speaking) it counts as a reading
    /// without a pitch.
    public mutating func process(_ reading: Reading, ignored: Bool = false) -> Step {
        var reading = reading
        if ignored { reading.pitch = nil }
        let target = selector?.select(reading)
        let settled = detector.process(reading, target: target, ignored: ignored)
        if let settled { checklist?.record(settled) }
        let cents = target?.rawCents ?? reading.pitch?.rawCents
        strobe.update(cents: cents, at: reading.time)
        return Step(reading: reading, target: target, settled: settled)
    }

    /// Applies a digit key (1…9 lock a string, 0 automatic). False in chromatic mode or for a
    /// digit with no string.
    @discardableResult
    public mutating func press(digit: Int) -> Bool {
        selector?.press(digit: digit) ?? false
    }

    /// Locks string `index` (0-based) or returns to automatic choice with nil.
    @discardableResult
    public mutating func lock(_ index: Int?) -> Bool {
        selector?.lock(index) ?? false
    }
}
