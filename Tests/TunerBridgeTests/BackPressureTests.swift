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
        let sampleRate: Double
        let label = "counting"
        let limit: Int
        let read = Atomic<Int>(0)
        init(frames: Int = .max, sampleRate: Double = 8000) {
            limit = frames
            self.sampleRate = sampleRate
        }
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

    // MARK: The strum engine goes through the same delivery (the session is one generic type)

    /// Standard guitar tuning's targets, for `PolySession`.
    static let guitar = [82.41, 110.0, 146.83, 196.0, 246.94, 329.63].map { Hertz($0) }

    @Test func aStrumFileWaitsForItsConsumerAndNothingIsDropped() async throws {
        let rate = 48_000.0, frames = 48_000 * 30, blockSize = 1 << 14
        // What the strum engine makes of these frames, fed directly: every one must come through.
        var direct = 0
        let engine = try PolyEngine(sampleRate: rate, targets: Self.guitar) { _ in direct += 1 }
        let zeros = [Float](repeating: 0, count: blockSize)
        var fed = 0
        while fed < frames {
            let n = min(blockSize, frames - fed)
            zeros.withUnsafeBufferPointer { engine.process(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            fed += n
        }
        let hop = engine.hopSize
        #expect(direct > PolySession.queueCapacity, "more readings than the ring holds: \(direct)")

        let source = CountingSource(frames: frames, sampleRate: rate)
        let session = try PolySession(source: source, targets: Self.guitar, delivery: .everyReading,
                                      blockSize: blockSize)
        var iterator = session.measurements.makeAsyncIterator()
        var consumed = 0
        for _ in 0..<100 { if await iterator.next() != nil { consumed += 1 } }
        let bound = (consumed + PolySession.queueCapacity) * hop + 2 * blockSize + 4 * hop
        let read = try await Self.settled({ source.read.load(ordering: .relaxed) }, bound: bound)
        #expect(read <= bound, "read \(read) frames with \(consumed) strum readings consumed (bound \(bound))")
        #expect(read < frames, "the analysis waits for the consumer, it has not read the whole file")
        while await iterator.next() != nil { consumed += 1 }
        #expect(consumed == direct, "every strum reading arrives: none dropped")
        #expect(session.dropped == 0)
    }

    @Test func aLiveStrumSourceKeepsABoundedQueueAndCountsWhatItDrops() async throws {
        let hop = try PolyEngine(sampleRate: 48_000, targets: Self.guitar) { _ in }.hopSize
        let source = CountingSource(sampleRate: 48_000)
        let session = try PolySession(source: source, targets: Self.guitar,
                                      delivery: .everyReadingDroppingWhenBehind)
        while session.dropped == 0 { try await Task.sleep(for: .milliseconds(10)) }
        session.stop()
        var queued = 0
        for await _ in session.measurements { queued += 1 }
        // The queue, plus the readings of the block in progress when `stop` came.
        #expect(queued <= PolySession.queueCapacity + 1024 / hop + 1, "at most the queue's capacity waited")
        #expect(session.dropped > 0)
    }
}
