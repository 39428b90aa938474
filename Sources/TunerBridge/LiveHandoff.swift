import Synchronization

/// How a live source's measurements cross from the analysis thread to the stream's consumer without a
/// lock: the producer side is wait-free (a bounded number of atomic operations per block, no lock, no
/// allocation, no system call), so a slow or descheduled consumer can never hold up the capture.
///
/// Three block buffers, each made once with room for `capacity` measurements, rotate between three
/// owners (a triple buffer): the analysis thread fills its spare (`back`) and swaps it in as the
/// `middle` marked unread; the consumer, once it has taken every measurement of its `front`, swaps
/// an unread `middle` out. An atomic exchange passes each buffer on, so at any moment one thread owns it.
///
/// A consumer that falls behind never sees a queue that grows: when `middle` is still unread at the
/// next block, the analysis thread takes it back and adds the new block after its measurements, the
/// oldest dropping out (and counted in `dropped`) beyond `capacity` — with capacity 1 (the screen) the
/// consumer sees only the newest measurement; with `AnalysisSession.queueCapacity` every reading waits
/// until the consumer has fallen that far behind, as a ring of that size did. At most `capacity`
/// measurements wait besides the block the consumer is reading; order is kept, nothing comes twice.
///
/// The consumer (`next`, behind an `AsyncStream(unfolding:)`) never blocks a thread: when nothing is
/// there it parks one continuation and marks itself parked; the next `put`, `finish` or `stop` takes
/// the mark and resumes it — one wake per block, the stream's own cost. Stopped while a `put` is under
/// way, it yields until that `put` is over, so that a block the producer took back to add to is not
/// taken for the end (what was handed over is delivered or counted as dropped, also at a stop).
/// The file delivery, which must wait for its consumer, is `WaitingHandoff` (a different type because
/// waiting needs a condition variable, which the live path must not touch).
final class LiveHandoff<Measurement: Sendable>: MeasurementHandoff, @unchecked Sendable {
    /// The middle slot's word: which buffer (`indexMask`), and whether it holds measurements the
    /// consumer has not taken (`unread`; only the producer sets it, only the consumer clears it).
    private static var indexMask: Int { 3 }
    private static var unread: Int { 4 }

    /// A block buffer: one thread owns each at a time.
    private typealias Block = MeasurementRing<Measurement>

    private let blocks: [Block]
    private let middle = Atomic<Int>(1)
    /// The producer's spare buffer (touched by the analysis thread only).
    private var back = 2
    /// The buffer the consumer takes from (touched by the consumer only).
    private var front = 0

    private let parked = Atomic<Bool>(false)
    /// Written by the consumer before it sets `parked`; read by the one thread that clears it.
    private var continuation: UnsafeContinuation<Void, Never>?
    private let finished = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    /// True while the producer is inside `put`: a block it took back to add to is then out of `middle`,
    /// so a consumer told to stop must not take the empty middle for the end until the block is back.
    private let producing = Atomic<Bool>(false)
    private let droppedCount = Atomic<Int>(0)
    private let wakeCount = Atomic<Int>(0)

    init(capacity: Int) {
        blocks = (0..<3).map { _ in Block(capacity: max(1, capacity)) }
    }

    var capacity: Int { blocks[0].capacity }

    /// Measurements dropped to make room: what a slow consumer never saw.
    var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Times a parked consumer was woken (for tests: at most once per `put`, `finish` or `stop`).
    var wakes: Int { wakeCount.load(ordering: .relaxed) }

    /// True while the consumer is parked, waiting for a `put`, `finish` or `stop` (for tests).
    var consumerParked: Bool { parked.load(ordering: .sequentiallyConsistent) }

    /// Consumer side: true when `next` returns a measurement without waiting.
    var hasReady: Bool {
        blocks[front].count > 0 || middle.load(ordering: .acquiring) & Self.unread != 0
    }

    /// Hands over a block's `measurements` in order and wakes the consumer if it is parked; never
    /// waits. Returns false once the session was stopped (nothing more is handed over).
    func put(_ measurements: [Measurement]) -> Bool {
        producing.store(true, ordering: .sequentiallyConsistent)
        defer { producing.store(false, ordering: .sequentiallyConsistent) }
        // (After `producing`: a consumer that saw the put not yet begun saw `stopped` set before it.)
        if stopped.load(ordering: .sequentiallyConsistent) { return false }
        let seen = middle.load(ordering: .acquiring)
        if seen & Self.unread != 0 {
            // The consumer has not taken the last block: take it back (unless it just did) and add to it.
            let (reclaimed, _) = middle.compareExchange(expected: seen, desired: back,
                                                        ordering: .acquiringAndReleasing)
            if reclaimed {
                fill(blocks[seen & Self.indexMask], with: measurements)
                // `back` sat in the middle marked read, so the consumer cannot have taken it.
                back = middle.exchange((seen & Self.indexMask) | Self.unread,
                                       ordering: .sequentiallyConsistent) & Self.indexMask
                wake()
                return true
            }
        }
        // `middle` is read (only this thread marks it unread): fill the spare and swap it in.
        blocks[back].removeAll()
        fill(blocks[back], with: measurements)
        back = middle.exchange(back | Self.unread, ordering: .sequentiallyConsistent) & Self.indexMask
        wake()
        return true
    }

    private func fill(_ block: Block, with measurements: [Measurement]) {
        var droppedHere = 0
        // By index over the array's buffer: unspecialised (a debug build), iterating the generic array
        // looked up its Sequence witness table per block, an allocation each time.
        measurements.withUnsafeBufferPointer { added in
            for index in 0..<added.count where block.append(added[index]) { droppedHere += 1 }
        }
        if droppedHere > 0 { droppedCount.add(droppedHere, ordering: .relaxed) }
    }

    /// No more measurements: the consumer gets those waiting, then nil.
    func finish() {
        finished.store(true, ordering: .sequentiallyConsistent)
        wake()
    }

    /// The consumer has gone or the session was stopped: `put` refuses from now on and the stream
    /// ends (what is already waiting can still be taken).
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        finish()
    }

    /// Resumes the consumer if it is parked (the one caller that clears `parked` owns the continuation).
    private func wake() {
        guard parked.load(ordering: .sequentiallyConsistent),
              parked.exchange(false, ordering: .sequentiallyConsistent),
              let consumer = continuation else { return }
        wakeCount.add(1, ordering: .relaxed)
        consumer.resume()
    }

    /// The next measurement in order, or nil at the end. One consumer at a time.
    func next() async -> Measurement? {
        while true {
            if let measurement = blocks[front].popOldest() { return measurement }
            if takeMiddle() { continue }
            if finished.load(ordering: .sequentiallyConsistent) {
                // Stopped from this side while the producer may be in a `put`, perhaps holding a block
                // it took back. Whether it is, read first: a `put` begun after this read sees `stopped`
                // (set before `finished`) and hands nothing over, so when none was under way the middle
                // looked at next holds everything there will be.
                let putUnderWay = producing.load(ordering: .sequentiallyConsistent)
                // A last block may have come just before the end was marked.
                if takeMiddle() { continue }
                if putUnderWay {  // wait the few instructions until it has handed its block over again
                    await Task.yield()
                    continue
                }
                return nil
            }
            await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
                continuation = consumer
                parked.store(true, ordering: .sequentiallyConsistent)
                // A `put` or `finish` between the checks above and the mark saw nobody parked: look again.
                if middle.load(ordering: .sequentiallyConsistent) & Self.unread != 0
                    || finished.load(ordering: .sequentiallyConsistent) {
                    if parked.exchange(false, ordering: .sequentiallyConsistent) { consumer.resume() }
                    // Otherwise a waker cleared the mark first and resumes the consumer itself.
                }
            }
        }
    }

    /// Swaps an unread middle buffer out for the consumer's emptied `front`; false when none is unread.
    private func takeMiddle() -> Bool {
        var seen = middle.load(ordering: .acquiring)
        while seen & Self.unread != 0 {
            let (taken, now) = middle.compareExchange(expected: seen, desired: front,
                                                      ordering: .acquiringAndReleasing)
            if taken {
                front = seen & Self.indexMask
                return true
            }
            seen = now  // the producer took it back and handed it over again, with more in it
        }
        return false
    }
}
