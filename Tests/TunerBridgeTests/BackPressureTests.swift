import Foundation
import Synchronization
import Testing
import TunerTestSupport
@testable import TunerBridge

/// Memory between the analysis thread and a slow consumer is bounded by design (issue 18): a file is
/// read only as fast as its measurements are consumed, and nothing is dropped; a live source never
/// waits, keeps at most `queueCapacity` for an every-reading consumer and counts what it drops.
@Suite struct BackPressureTests {
    /// Zeros without end (or up to `frames`), counting what was read; never blocks, like `--device null`.
    final class CountingSource: AudioSource, @unchecked Sendable {
        let sampleRate = 8000.0
        let label = "counting"
        let limit: Int
        let read = Atomic<Int>(0)
        init(frames: Int = .max) { limit = frames }
        func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
            let done = read.load(ordering: .relaxed)
            let n = min(buffer.count, limit - done)
            for i in 0..<n { buffer[i] = 0 }
            read.store(done + n, ordering: .relaxed)
            return n
        }
    }

    /// How far ahead of the consumer the analysis may read: the ring, one block being handed over, and
    /// the block being analysed, in frames (80 per hop at 8 kHz).
    static func aheadLimit(consumed: Int, blockSize: Int) -> Int {
        (consumed + TunerSession.queueCapacity) * 80 + 2 * blockSize + 4096
    }

    /// Waits until `value` has not changed for a few checks (the producer is parked), or `bound` is passed.
    static func settled(_ value: () -> Int, bound: Int) async throws -> Int {
        var last = -1, steady = 0
        while steady < 5 {
            let now = value()
            if now > bound { return now }
            steady = now == last ? steady + 1 : 0
            last = now
            try await Task.sleep(for: .milliseconds(20))
        }
        return last
    }

    @Test func aFileWaitsForItsConsumerAndNothingIsDropped() async throws {
        let frames = 8000 * 600  // ten minutes: 60 000 measurements, far more than the ring
        let source = CountingSource(frames: frames)
        let blockSize = 1 << 14
        let session = try TunerSession(source: source, delivery: .everyReading, blockSize: blockSize)
        var iterator = session.measurements.makeAsyncIterator()
        var consumed = 0
        var times: [Double] = []
        for _ in 0..<3 {  // consume a little, then let the analysis run as far ahead as it may
            for _ in 0..<500 {
                guard let m = await iterator.next() else { break }
                consumed += 1
                times.append(m.time)
            }
            let bound = Self.aheadLimit(consumed: consumed, blockSize: blockSize)
            let read = try await Self.settled({ source.read.load(ordering: .relaxed) }, bound: bound)
            #expect(read <= bound, "read \(read) frames with \(consumed) measurements consumed (bound \(bound))")
        }
        while let m = await iterator.next() {
            consumed += 1
            if times.count < 2000 { times.append(m.time) }
        }
        #expect(consumed == frames / 80, "every measurement arrives: none dropped")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(session.dropped == 0)
    }

    @Test func stopWakesAnAnalysisWaitingForItsConsumer() async throws {
        let source = CountingSource()
        let session = try TunerSession(source: source, delivery: .everyReading)
        var iterator = session.measurements.makeAsyncIterator()
        _ = await iterator.next()
        _ = try await Self.settled({ source.read.load(ordering: .relaxed) }, bound: .max)
        session.stop()
        var rest = 0
        while await iterator.next() != nil { rest += 1 }
        #expect(rest <= TunerSession.queueCapacity, "the stream ends after at most the ring's contents")
    }

    @Test func aLiveSourceNeverWaitsKeepsABoundedQueueAndCountsWhatItDrops() async throws {
        let source = CountingSource()
        let session = try TunerSession(source: source, delivery: .everyReadingDroppingWhenBehind)
        // The consumer takes nothing until the analysis has outrun the queue.
        while session.dropped == 0 { try await Task.sleep(for: .milliseconds(10)) }
        session.stop()
        var queued = 0
        for await _ in session.measurements { queued += 1 }
        let produced = source.read.load(ordering: .relaxed) / 80
        // The queue, plus the measurements of the block in progress when `stop` came (yielded while we drain).
        #expect(queued <= TunerSession.queueCapacity + 1024 / 80 + 1, "at most the queue's capacity waited")
        #expect(session.dropped >= produced - queued - 1024 / 80 - 1, "what was not delivered was counted")
        #expect(session.dropped > 0)
    }
}
