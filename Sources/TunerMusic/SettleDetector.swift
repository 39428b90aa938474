import TunerBridge

/// Turns the per-hop readings into settled-note events: it reports a note once, when it has been
/// held steady, the way a run tracker announces a finished split and not the split in progress.
///
/// A note settles at the first reading where
/// - it has been sounding for `window` seconds: readings of the same note (in a tuning, the same
///   target string and the same nearest note, so an octave slip is a different note) since then, with no break of `gap` seconds or more (shorter breaks — a dropped
///   reading, a stray octave — are skipped over);
/// - at least `coverage` of the readings in the last `window` seconds are of that note; and
/// - all of those lie within ±`spread` of their median.
///
/// It then reports nothing more until it is re-armed by a change lasting at least `gap`
/// seconds: the pitch going away, another note or string, or the pitch moving more than
/// `rearmDistance` from the settled value (a peg being turned while the string rings). So a held
/// note gives one event, never one per reading, and each new pluck, note or peg position one more.
///
/// Synchronous and deterministic: feed it readings in order (`SettledNotes` does this for a stream).
public struct SettleDetector: Sendable {
    /// How long a note must be held steady.
    public var window: Double
    /// How far from the window's median each reading of the note may be.
    public var spread: Cents
    /// The share of the window's readings that must be of the note.
    public var coverage: Double
    /// Breaks shorter than this do not end a note; changes at least this long re-arm.
    public var gap: Double
    /// How far the pitch must move from a settled value to count as a change.
    public var rearmDistance: Cents

    /// What is being held: the note cents are measured from (the target string's in a tuning),
    /// the target string, and the nearest note heard.
    private struct Key: Equatable {
        var note: Note
        var stringIndex: Int?
        var heard: Note
    }

    private struct Sample {
        var time: Double
        var key: Key?
        var cents: Double
        var frequency: Double
    }

    /// Every reading of the last `window` seconds, oldest first.
    private var recent: [Sample] = []
    /// The note being held, since when, and when it was last heard.
    private var held: (key: Key, since: Double, lastHeard: Double)?
    /// Another note heard since `since`, that takes over if the held one does not come back.
    private var contender: (key: Key, since: Double, lastHeard: Double)?
    /// The last event, until re-armed.
    private var lastEvent: (key: Key, cents: Double)?
    /// When the current change away from `lastEvent` began.
    private var changeSince: Double?

    /// The default spread is ±2 ¢: with ±1.5 ¢ a General MIDI steel-string guitar's G3 (FluidR3,
    /// rendered by fluidsynth), whose readings wander ±2 ¢ while it rings, never settled.
    public init(window: Double = 0.5, spread: Cents = Cents(2), coverage: Double = 0.5, gap: Double = 0.1,
                rearmDistance: Cents = Cents(5)) {
        self.window = window
        self.spread = spread
        self.coverage = coverage
        self.gap = gap
        self.rearmDistance = rearmDistance
    }

    /// Takes the next reading (with its target string when a tuning is set) and returns the event
    /// when a note settles at this reading, else nil.
    public mutating func process(_ reading: Reading, target: TargetReading? = nil) -> SettledNote? {
        let time = reading.time
        var sample = Sample(time: time, key: nil, cents: 0, frequency: 0)
        if let pitch = reading.pitch {
            if let target {
                sample.key = Key(note: target.note, stringIndex: target.stringIndex, heard: pitch.note)
                sample.cents = target.rawCents.value
            } else {
                sample.key = Key(note: pitch.note, stringIndex: nil, heard: pitch.note)
                sample.cents = pitch.rawCents.value
            }
            sample.frequency = pitch.frequency.value
        }
        recent.append(sample)
        while let first = recent.first, first.time < time - window - 1e-9 { recent.removeFirst() }

        track(sample)
        rearm(sample)

        guard lastEvent == nil, let held, sample.key == held.key,
              time - held.since >= window - 1e-9 else { return nil }
        let inWindow = recent.filter { $0.time >= time - window - 1e-9 }
        let ofNote = inWindow.filter { $0.key == held.key }
        guard Double(ofNote.count) >= coverage * Double(inWindow.count) else { return nil }
        let median = Self.median(ofNote.map(\.cents))
        guard ofNote.allSatisfy({ abs($0.cents - median) <= spread.value }) else { return nil }
        lastEvent = (held.key, median)
        changeSince = nil
        return SettledNote(time: time, start: ofNote[0].time, note: held.key.note, stringIndex: held.key.stringIndex,
                           frequency: Hertz(Self.median(ofNote.map(\.frequency))), cents: Cents(median),
                           tolerance: reading.tolerance)
    }

    /// Forgets everything, as at the start of a new input.
    public mutating func reset() {
        recent.removeAll(keepingCapacity: true)
        held = nil
        contender = nil
        lastEvent = nil
        changeSince = nil
    }

    /// Follows which note is being held, skipping breaks shorter than `gap`.
    private mutating func track(_ sample: Sample) {
        if let key = sample.key, key == held?.key {
            held?.lastHeard = sample.time
            contender = nil
            return
        }
        if let key = sample.key {
            if contender?.key == key { contender?.lastHeard = sample.time } else { contender = (key, sample.time, sample.time) }
        } else if let other = contender, sample.time - other.lastHeard >= gap - 1e-9 {
            contender = nil  // the other note went away again without taking over
        }
        if let current = held, sample.time - current.lastHeard < gap - 1e-9 { return }
        // The held note is gone: the contender, if it is what sounds now, takes over from its start.
        if let contender, contender.key == sample.key, sample.key != nil {
            held = (contender.key, contender.since, sample.time)
            self.contender = nil
        } else {
            held = nil
        }
    }

    /// Re-arms once a change from the last event (no pitch, other note, moved pitch) has lasted `gap`.
    private mutating func rearm(_ sample: Sample) {
        guard let last = lastEvent else { return }
        let same = sample.key == last.key && abs(sample.cents - last.cents) <= rearmDistance.value
        if same {
            changeSince = nil
            return
        }
        let since = changeSince ?? sample.time
        changeSince = since
        if sample.time - since >= gap - 1e-9 {
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
