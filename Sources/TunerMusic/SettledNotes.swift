import Synchronization
import TunerBridge

/// The second stream: one `SettledNote` each time a note settles, derived from a stream of
/// measurements (e.g. `TunerSession.measurements`). Iterate it with `for await`.
///
/// A task of its own consumes `measurements` and runs a `ReadingPipeline` on each; when `perHop` is not
/// nil, every step (reading + target string) is also forwarded in order through `steps`, so a
/// display and the events can share one session. With `perHop` nil, `steps` finishes at once and
/// holds nothing. Both streams finish when the measurements end or `cancel()` is called.
/// `lock(string:)` (keys 1…9, 0) reaches the task through an atomic. The task holds what it needs,
/// so `events` may outlive this object (`for await e in SettledNotes(readings: …)` works).
public final class SettledNotes: AsyncSequence, Sendable {
    public typealias Element = SettledNote

    /// The settled-note events.
    public let events: AsyncStream<SettledNote>
    /// Every reading with its target string, when asked for with `perHop`.
    public let steps: AsyncStream<TuningTracker.Step>

    /// How the per-hop steps are buffered: every one (files, JSON Lines) or the newest (live).
    public enum PerHop: Sendable {
        case everyReading
        case newestOnly
    }

    private let control: Control
    private let task: Task<Void, Never>

    private final class Control: Sendable {
        /// Requested string lock: -1 nothing requested, 0 automatic, n ≥ 1 lock string n.
        let request = Atomic<Int>(-1)
        /// True while the input is to be ignored (the tuner is speaking, `--speak`).
        let ignoring = Atomic<Bool>(false)
    }

    /// `lockedString` locks a string (1-based) from the first reading; 0 is automatic choice.
    /// `ignoreTail` is how long (reading time) input stays ignored after `setIgnoringInput(false)`,
    /// for the echo of the speech still in the engine's window.
    public init(measurements: AsyncStream<PitchMeasurement>, settings: ReadingPipeline.Settings = .init(),
                system: TargetSystem = .standard, tuning: Tuning? = nil,
                detector: SettleDetector = SettleDetector(), perHop: PerHop? = nil, lockedString: Int = 0,
                ignoreTail: Double = InputMute.defaultTail) {
        let (events, eventSink) = AsyncStream<SettledNote>.makeStream(bufferingPolicy: .unbounded)
        let (steps, stepSink) = AsyncStream<TuningTracker.Step>.makeStream(
            bufferingPolicy: perHop == .newestOnly ? .bufferingNewest(1) : .unbounded)
        let control = Control()
        self.events = events
        self.steps = steps
        self.control = control
        if perHop == nil { stepSink.finish() }
        self.task = Task {
            var pipeline = ReadingPipeline(settings: settings, system: system, tuning: tuning, detector: detector)
            pipeline.tracker.press(digit: lockedString)
            var mute = InputMute(tail: ignoreTail)
            for await measurement in measurements {
                let digit = control.request.exchange(-1, ordering: .relaxed)
                if digit >= 0 { pipeline.tracker.press(digit: digit) }
                mute.isOn = control.ignoring.load(ordering: .relaxed)
                let step = pipeline.process(measurement, ignored: mute.ignores(at: measurement.time))
                if perHop != nil { stepSink.yield(step) }
                if let settled = step.settled { eventSink.yield(settled) }
            }
            eventSink.finish()
            stepSink.finish()
        }
    }

    /// Locks string `number` (1-based, as keys 1…9) for the readings that follow, or returns to
    /// automatic choice with 0.
    public func lock(string number: Int) {
        guard number >= 0 else { return }
        control.request.store(number, ordering: .relaxed)
    }

    /// While on, readings count as having no pitch (no needle, no events) and their onset starts no
    /// note, so a string still ringing after the tuner spoke is not announced again: the
    /// tuner does not tune its own voice while it speaks. Input stays ignored for `ignoreTail`
    /// seconds of reading time after it is turned off.
    public func setIgnoringInput(_ on: Bool) {
        control.ignoring.store(on, ordering: .relaxed)
    }

    /// Stops consuming the readings; both streams finish.
    public func cancel() { task.cancel() }

    public func makeAsyncIterator() -> AsyncStream<SettledNote>.Iterator { events.makeAsyncIterator() }
}
