/// Turns the per-hop readings into settled-note events: it reports a note once, when it has been
/// held steady, the way a run tracker announces a finished split and not the split in progress.
///
/// A note settles at the first reading where the readings of the last `window` seconds all have a
/// pitch, all are measured from the same note (the same target string in a tuning), and all lie
/// within ±`spread` of their median. It then reports nothing more until it is re-armed: by the
/// pitch going away, by another note or string, or by the pitch moving more than `rearmDistance`
/// from the settled value (a peg being turned while the string rings) — any of these lasting at
/// least `rearmAfter` seconds, so that a single dropped or stray reading does not repeat a note.
///
/// Synchronous and deterministic: feed it readings in order (`SettledNotes` does this for a stream).
public struct SettleDetector: Sendable {
    /// How long a note must be held steady.
    public var window: Double
    /// How far from the window's median each reading may be.
    public var spread: Cents
    /// How far the pitch must move from a settled value to count as a change.
    public var rearmDistance: Cents
    /// How long a change (no pitch, other note, moved pitch) must last to re-arm.
    public var rearmAfter: Double

    private struct Sample {
        var time: Double
        var cents: Double
        var frequency: Double
    }

    /// The identity of what is being held: the target string in a tuning, else the nearest note.
    private struct Key: Equatable {
        var note: Note
        var stringIndex: Int?
    }

    /// Readings of the current unbroken stretch of one key, trimmed to the last `window` seconds.
    private var run: [Sample] = []
    private var runKey: Key?
    private var runStart: Double = 0
    /// The last event, while not re-armed.
    private var lastEvent: (key: Key, cents: Double)?
    /// When the current change away from `lastEvent` began.
    private var changeSince: Double?

    public init(window: Double = 0.5, spread: Cents = Cents(1.5), rearmDistance: Cents = Cents(5),
                rearmAfter: Double = 0.1) {
        self.window = window
        self.spread = spread
        self.rearmDistance = rearmDistance
        self.rearmAfter = rearmAfter
    }

    /// Takes the next reading (with its target string when a tuning is set) and returns the event
    /// when a note settles at this reading, else nil.
    public mutating func process(_ reading: Reading, target: TargetReading? = nil) -> SettledNote? {
        guard let pitch = reading.pitch else {
            run.removeAll(keepingCapacity: true)
            runKey = nil
            noteChange(at: reading.time)
            return nil
        }
        let key: Key
        let cents: Double
        if let target {
            key = Key(note: target.note, stringIndex: target.stringIndex)
            cents = target.rawCents.value
        } else {
            key = Key(note: pitch.note, stringIndex: nil)
            cents = pitch.rawCents.value
        }

        if let last = lastEvent {
            if key != last.key || abs(cents - last.cents) > rearmDistance.value {
                noteChange(at: reading.time)
            } else {
                changeSince = nil
            }
        }

        if key != runKey {
            run.removeAll(keepingCapacity: true)
            runKey = key
            runStart = reading.time
        }
        run.append(Sample(time: reading.time, cents: cents, frequency: pitch.frequency.value))
        let oldest = reading.time - window
        while let first = run.first, first.time < oldest - 1e-9 { run.removeFirst() }

        guard lastEvent == nil, reading.time - runStart >= window - 1e-9 else { return nil }
        let median = Self.median(run.map(\.cents))
        guard run.allSatisfy({ abs($0.cents - median) <= spread.value }) else { return nil }
        lastEvent = (key, median)
        changeSince = nil
        return SettledNote(time: reading.time, start: run[0].time, note: key.note, stringIndex: key.stringIndex,
                           frequency: Hertz(Self.median(run.map(\.frequency))), cents: Cents(median),
                           tolerance: reading.tolerance)
    }

    /// Forgets everything, as at the start of a new input.
    public mutating func reset() {
        run.removeAll(keepingCapacity: true)
        runKey = nil
        lastEvent = nil
        changeSince = nil
    }

    /// A reading that differs from the last event: re-arm once the difference has lasted long enough.
    private mutating func noteChange(at time: Double) {
        guard lastEvent != nil else { return }
        let since = changeSince ?? time
        changeSince = since
        if time - since >= rearmAfter - 1e-9 {
            lastEvent = nil
            changeSince = nil
        }
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
