import Synchronization
import Testing
@testable import TunerBridge

/// The ring between the analysis thread and the stream (`MeasurementHandoff`), tested directly.
@Suite struct MeasurementHandoffTests {
    /// A block's measurements wake a parked consumer once, not once per measurement (through
    /// PulseAudio each wake was a task enqueue and a futex wake on the analysis thread).
    @Test func aParkedConsumerIsWokenOncePerBlock() async throws {
        let handoff = MeasurementHandoff<Int>(capacity: 1024, whenFull: .dropOldest)
        let taken = Atomic<Int>(0)
        let consumer = Task {
            var got: [Int] = []
            while let value = await handoff.next() {
                got.append(value)
                taken.store(got.count, ordering: .relaxed)
            }
            return got
        }
        let blocks = 20, perBlock = 8
        for block in 0..<blocks {
            // Wait until the consumer has taken everything and parked again (readiness, not a fixed time).
            while taken.load(ordering: .relaxed) < block * perBlock { await Task.yield() }
            try await Task.sleep(for: .milliseconds(2))
            #expect(handoff.put((0..<perBlock).map { block * perBlock + $0 }))
        }
        while taken.load(ordering: .relaxed) < blocks * perBlock { await Task.yield() }
        handoff.finish()
        let got = await consumer.value
        #expect(got == Array(0..<blocks * perBlock), "every measurement, in order")
        #expect(handoff.wakes <= blocks + 1, "one wake per block (and one for the end), not one per measurement")
    }

    /// A live ring never waits: when full, the oldest go and are counted; the consumer gets the newest in order.
    @Test func aFullLiveRingDropsTheOldestAndCountsThem() async {
        let handoff = MeasurementHandoff<Int>(capacity: 4, whenFull: .dropOldest)
        #expect(handoff.put(Array(0..<10)))
        handoff.finish()
        var got: [Int] = []
        while let value = await handoff.next() { got.append(value) }
        #expect(got == [6, 7, 8, 9])
        #expect(handoff.dropped == 6)
    }

    /// Capacity 1 (the screen): only the newest of a block waits.
    @Test func aRingOfOneKeepsOnlyTheNewest() async {
        let handoff = MeasurementHandoff<Int>(capacity: 1, whenFull: .dropOldest)
        #expect(handoff.put([1, 2, 3]))
        #expect(await handoff.next() == 3)
        handoff.stop()
        #expect(await handoff.next() == nil)
    }
}
