import Synchronization

/// The screen's one event queue, bounded by design whatever the loop does: between the threads that
/// post events (the session's forwarder, the dispatch sources for keys, resizes and signals, the sound
/// thread) and the one `ScreenLoop` that takes them with `for await` over `stream`.
///
/// - Readings (`.measurement`, `.strum`) are newest-only: at most one waits. A reading posted while
///   another still waits replaces it (the superseded one is dropped and counted): the screen only ever
///   draws the newest, so a stalled loop never piles readings up.
/// - Every other event (keys waiting, resizes, signals, a sound's end, the readings' end) is kept, in
///   order, up to `capacity` waiting. They are human-paced or one-off, so the cap is only reached if the
///   loop has stopped taking events altogether; beyond it the newest is dropped and counted.
///
/// Order is kept across kinds: the waiting reading keeps the place of the first reading posted since
/// the loop last took one, so `.readingsEnded` still comes after the last reading.
public final class ScreenEventQueue: Sendable {
    /// Non-reading events that may wait: 256. Keys arrive as one `.input` per readiness (the stdin
    /// source stays suspended until the loop has read them), resizes and signals at human pace, so
    /// even a loop stalled for minutes holds a handful; 256 is far above that and costs a few KB.
    public static let capacity = 256

    private enum Slot: Sendable {
        /// The place of the waiting reading (kept in `State.reading`).
        case reading
        case event(ScreenEvent)
    }

    private struct State: ~Copyable {
        var slots: [Slot] = []
        var reading: ScreenEvent?
        var kept = 0
        var finished = false
        var droppedReadings = 0
        var droppedEvents = 0
        /// The loop, parked while nothing waits.
        var waiting: CheckedContinuation<ScreenEvent?, Never>?
    }

    private let state = Mutex(State())

    public init() {
        state.withLock { $0.slots.reserveCapacity(Self.capacity + 1) }
    }

    /// The events in order, for the loop's `for await`; ends after `finish` once the waiting ones are
    /// taken, or when the iterating task is cancelled.
    public var stream: AsyncStream<ScreenEvent> {
        AsyncStream(unfolding: { await self.next() }, onCancel: { self.finish() })
    }

    /// Puts `event` in the queue (readings newest-only, others kept up to `capacity`). Ignored once finished.
    public func post(_ event: ScreenEvent) {
        let consumer: CheckedContinuation<ScreenEvent?, Never>? = state.withLock { s in
            if s.finished { return nil }
            if let loop = s.waiting {
                s.waiting = nil
                return loop
            }
            switch event {
            case .measurement, .strum:
                if s.reading != nil { s.droppedReadings += 1 } else { s.slots.append(.reading) }
                s.reading = event
            default:
                if s.kept >= Self.capacity { s.droppedEvents += 1; return nil }
                s.slots.append(.event(event))
                s.kept += 1
            }
            return nil
        }
        consumer?.resume(returning: event)
    }

    /// No more events: the loop gets those waiting, then the stream ends.
    public func finish() {
        let consumer = state.withLock { s -> CheckedContinuation<ScreenEvent?, Never>? in
            s.finished = true
            let loop = s.waiting
            s.waiting = nil
            return loop
        }
        consumer?.resume(returning: nil)
    }

    /// The next event in order, or nil once finished and empty.
    public func next() async -> ScreenEvent? {
        await withCheckedContinuation { loop in
            let ready: ScreenEvent?? = state.withLock { s in
                if let event = Self.pop(&s) { return .some(event) }
                if s.finished { return .some(nil) }
                s.waiting = loop
                return nil
            }
            if let ready { loop.resume(returning: ready) }
        }
    }

    /// Events waiting now (readings count once at most): what the bound limits.
    public var waitingCount: Int { state.withLock { $0.slots.count } }
    /// Readings superseded before the loop took them.
    public var droppedReadings: Int { state.withLock { $0.droppedReadings } }
    /// Non-reading events dropped because `capacity` were waiting.
    public var droppedEvents: Int { state.withLock { $0.droppedEvents } }

    private static func pop(_ s: inout State) -> ScreenEvent? {
        guard !s.slots.isEmpty else { return nil }
        switch s.slots.removeFirst() {
        case .reading:
            defer { s.reading = nil }
            return s.reading
        case .event(let event):
            s.kept -= 1
            return event
        }
    }
}
