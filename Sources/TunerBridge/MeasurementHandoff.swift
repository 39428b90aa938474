import Foundation
import Synchronization

/// The one way measurements cross from the analysis thread to the stream's consumer, for either
/// engine and every delivery: a fixed ring of measurements, filled a block at a time.
///
/// The analysis thread `put`s each block's measurements at once and wakes a parked consumer at most
/// once per block (not once per measurement: through PulseAudio an `AsyncStream` continuation's
/// `yield` per reading cost a futex wake and a task enqueue each, 9 % of the live process's samples in
/// `perf`). When the ring is full:
/// - `.wait` (a file): the analysis thread waits on a condition variable — the file is not real-time,
///   so waiting is the point: nothing is dropped, and the memory in flight is `capacity` measurements
///   however slow the consumer (a pipe into a reader that takes one line a millisecond, a full disk);
/// - `.dropOldest` (a live source, which must never wait: a sound card overruns): the oldest
///   measurement makes room and is counted in `dropped` (with capacity 1, the consumer sees only the
///   newest).
///
/// The producer never allocates: the ring is made once. The consumer side (`next`, behind an
/// `AsyncStream(unfolding:)`, so consumers still use `for await`) never blocks a thread: it takes what
/// is there, or parks one continuation that the next `put` resumes.
final class MeasurementHandoff<Measurement: Sendable>: @unchecked Sendable {
    /// What `put` does when the ring is full.
    enum WhenFull { case wait, dropOldest }

    private let condition = NSCondition()
    private let whenFull: WhenFull
    private var ring: [Measurement?]
    private var head = 0
    private var count = 0
    private var finished = false
    private var stopped = false
    /// Read by the consumer per reading (a live reader's warning): an atomic, so it never waits on the ring's lock.
    private let droppedCount = Atomic<Int>(0)
    /// Times a parked consumer was woken (for tests: at most once per `put`, `finish` or `stop`).
    private(set) var wakes = 0
    /// The consumer, parked while the ring is empty.
    private var waiting: UnsafeContinuation<Measurement?, Never>?

    init(capacity: Int, whenFull: WhenFull = .wait) {
        ring = Array(repeating: nil, count: max(1, capacity))
        self.whenFull = whenFull
    }

    var capacity: Int { ring.count }

    /// True when a measurement is in the ring now, so `next` returns without waiting: a consumer that
    /// batches (one `write` for a block's lines) flushes once this turns false.
    var hasReady: Bool {
        condition.lock()
        defer { condition.unlock() }
        return count > 0
    }

    /// Measurements dropped to make room (`.dropOldest` only).
    var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Hands over `measurements` in order — waiting while the ring is full (`.wait`) or dropping the
    /// oldest (`.dropOldest`) — then wakes the consumer if it is parked. Returns false when the session
    /// was stopped (the rest are then dropped: nobody wants them).
    func put(_ measurements: some Collection<Measurement>) -> Bool {
        condition.lock()
        for measurement in measurements {
            if count == ring.count {
                switch whenFull {
                case .dropOldest:
                    _ = popLocked()
                    droppedCount.add(1, ordering: .relaxed)
                case .wait:
                    // A parked consumer is only possible with an empty ring, but the ring may have
                    // filled within this block: wake it before waiting for it.
                    resumeWaitingLocked()
                    while count == ring.count && !stopped { condition.wait() }
                }
            }
            if stopped { break }
            ring[(head + count) % ring.count] = measurement
            count += 1
        }
        let open = !stopped
        resumeWaitingLocked()
        condition.unlock()
        return open
    }

    /// No more measurements: the consumer gets those in the ring, then nil.
    func finish() {
        condition.lock()
        finished = true
        resumeWaitingLocked()
        condition.unlock()
    }

    /// The consumer has gone or the session was stopped: wakes a waiting producer, ends the stream
    /// (what is already in the ring can still be taken).
    func stop() {
        condition.lock()
        stopped = true
        finished = true
        condition.broadcast()
        resumeWaitingLocked()
        condition.unlock()
    }

    /// The next measurement in order, or nil at the end.
    func next() async -> Measurement? {
        if let ready = take() { return ready }
        return await withUnsafeContinuation { consumer in
            condition.lock()
            if let measurement = popLocked() {
                condition.unlock()
                consumer.resume(returning: measurement)
            } else if finished {
                condition.unlock()
                consumer.resume(returning: nil)
            } else {
                waiting = consumer
                condition.unlock()
            }
        }
    }

    private func take() -> Measurement? {
        condition.lock()
        defer { condition.unlock() }
        return popLocked()
    }

    /// Gives a parked consumer the oldest measurement, or nil once finished; nothing while the ring is
    /// empty and more may come. Call with the lock held (resuming only enqueues the consumer's task).
    private func resumeWaitingLocked() {
        guard let consumer = waiting else { return }
        if count > 0 || finished { wakes += 1 }
        if let measurement = popLocked() {
            waiting = nil
            consumer.resume(returning: measurement)
        } else if finished {
            waiting = nil
            consumer.resume(returning: nil)
        }
    }

    /// Pops the oldest measurement and lets a waiting producer go on. Call with the lock held.
    private func popLocked() -> Measurement? {
        guard count > 0 else { return nil }
        let measurement = ring[head]
        ring[head] = nil
        head = (head + 1) % ring.count
        count -= 1
        condition.signal()
        return measurement
    }
}
