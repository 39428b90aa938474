import Foundation

/// How measurements cross from the analysis thread to the stream's consumer: the analysis thread
/// `put`s each block's measurements at once and wakes a parked consumer at most once per block (not
/// once per measurement: through PulseAudio an `AsyncStream` continuation's `yield` per reading cost a
/// futex wake and a task enqueue each, 9 % of the live process's samples in `perf`); the consumer
/// takes them one by one with `next` (behind an `AsyncStream(unfolding:)`, so consumers still use
/// `for await`) and never blocks a thread. Memory is fixed when the handoff is made. Two policies, two
/// types, because they need different machinery:
/// - `WaitingHandoff` (a file): when full, the analysis thread waits for the consumer on a condition
///   variable — the file is not real-time, so waiting is the point: nothing is dropped;
/// - `LiveHandoff` (a live source, which must never wait: a sound card overruns): no lock at all, the
///   newest measurements replace the oldest unread ones, which are counted in `dropped`.
protocol MeasurementHandoff<Measurement>: AnyObject, Sendable {
    associatedtype Measurement: Sendable
    /// Hands over a block's measurements in order; false once the session was stopped.
    func put(_ measurements: [Measurement]) -> Bool
    /// No more measurements: the consumer gets those waiting, then nil.
    func finish()
    /// The consumer has gone or the session was stopped: a waiting producer goes on, `put` refuses,
    /// the stream ends (what is already waiting can still be taken).
    func stop()
    /// The next measurement in order, or nil at the end (one consumer).
    func next() async -> Measurement?
    /// Consumer side: a measurement is there now, so `next` returns without waiting (a consumer that
    /// batches, one `write` for a block's lines, flushes once this turns false).
    var hasReady: Bool { get }
    /// Measurements dropped to make room (`LiveHandoff` only).
    var dropped: Int { get }
}

/// The file delivery: a fixed ring of `capacity` measurements behind a condition variable. When the
/// ring is full the analysis thread waits until the consumer has taken one, so the memory in flight is
/// `capacity` measurements however slow the consumer (a pipe into a reader that takes one line a
/// millisecond, a full disk) and nothing is lost. The producer never allocates: the ring is made once.
final class WaitingHandoff<Measurement: Sendable>: MeasurementHandoff, @unchecked Sendable {
    private let condition = NSCondition()
    private let ring: MeasurementRing<Measurement>
    private var finished = false
    private var stopped = false
    /// Times a parked consumer was woken (for tests: at most once per `put`, `finish` or `stop`).
    private(set) var wakes = 0
    /// The consumer, parked while the ring is empty.
    private var waiting: UnsafeContinuation<Measurement?, Never>?

    init(capacity: Int) {
        ring = MeasurementRing(capacity: capacity)
    }

    var capacity: Int { ring.capacity }

    var hasReady: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ring.count > 0
    }

    /// Nothing is ever dropped: the producer waits instead.
    var dropped: Int { 0 }

    /// Hands over `measurements` in order, waiting while the ring is full, then wakes the consumer if
    /// it is parked. Returns false when the session was stopped (the rest are then dropped: nobody
    /// wants them).
    func put(_ measurements: [Measurement]) -> Bool {
        condition.lock()
        for measurement in measurements {
            if ring.isFull {
                // A parked consumer is only possible with an empty ring, but the ring may have filled
                // within this block: wake it before waiting for it.
                resumeWaitingLocked()
                while ring.isFull && !stopped { condition.wait() }
            }
            if stopped { break }
            ring.append(measurement)
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
        if ring.count > 0 || finished { wakes += 1 }
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
        guard let measurement = ring.popOldest() else { return nil }
        condition.signal()
        return measurement
    }
}
