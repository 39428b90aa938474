import Foundation

/// The file case's way across threads, for either engine's measurements: a fixed ring of measurements between the analysis thread and
/// the stream's consumer, so that a file is read only as fast as its measurements are consumed.
///
/// The analysis thread `put`s each block's measurements and, while the ring is full, waits on a
/// condition variable — the file is not real-time, so waiting is the point: nothing is dropped, and the
/// memory in flight is `capacity` measurements however slow the consumer (a pipe into a reader that
/// takes one line a millisecond, a terminal, a full disk). The consumer side (`next`, behind an
/// `AsyncStream(unfolding:)`, so consumers still use `for await`) never blocks a thread: it takes what
/// is there, or parks one continuation that the next `put` resumes.
final class MeasurementHandoff<Measurement: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ring: [Measurement?]
    private var head = 0
    private var count = 0
    private var finished = false
    private var stopped = false
    /// The consumer, parked while the ring is empty.
    private var waiting: CheckedContinuation<Measurement?, Never>?

    init(capacity: Int) {
        ring = Array(repeating: nil, count: max(1, capacity))
    }

    var capacity: Int { ring.count }

    /// Hands over `measurements` in order, waiting while the ring is full. Returns false when the
    /// session was stopped (the rest are then dropped: nobody wants them).
    func put(_ measurements: some Collection<Measurement>) -> Bool {
        condition.lock()
        for measurement in measurements {
            while count == ring.count && !stopped { condition.wait() }
            if stopped { break }
            if let consumer = waiting {
                waiting = nil
                condition.unlock()
                consumer.resume(returning: measurement)
                condition.lock()
                continue
            }
            ring[(head + count) % ring.count] = measurement
            count += 1
        }
        let open = !stopped
        condition.unlock()
        return open
    }

    /// No more measurements: the consumer gets those in the ring, then nil.
    func finish() {
        condition.lock()
        finished = true
        let consumer = count == 0 ? waiting : nil
        if consumer != nil { waiting = nil }
        condition.unlock()
        consumer?.resume(returning: nil)
    }

    /// The consumer has gone or the session was stopped: wakes a waiting producer, ends the stream.
    func stop() {
        condition.lock()
        stopped = true
        finished = true
        let consumer = waiting
        waiting = nil
        condition.broadcast()
        condition.unlock()
        consumer?.resume(returning: nil)
    }

    /// The next measurement in order, or nil at the end.
    func next() async -> Measurement? {
        if let ready = take() { return ready }
        return await withCheckedContinuation { consumer in
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
