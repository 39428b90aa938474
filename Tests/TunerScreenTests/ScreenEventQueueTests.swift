import Testing
import TunerBridge
@testable import TunerScreen

/// The screen's event queue stays bounded when the loop stalls: readings newest-only, every key,
/// resize and the readings' end kept in order.
@Suite struct ScreenEventQueueTests {
    private func reading(_ i: Int) -> ScreenEvent {
        .measurement(PitchMeasurement(time: Double(i), frequency: Hertz(440), clarity: 1, level: Decibels(-20)))
    }

    private func drain(_ queue: ScreenEventQueue) async -> [ScreenEvent] {
        queue.finish()
        var taken: [ScreenEvent] = []
        for await event in queue.stream { taken.append(event) }
        return taken
    }

    @Test func aFloodOfReadingsKeepsTheNewestAndEveryKey() async {
        let queue = ScreenEventQueue()
        let readings = 10_000
        var keys = 0
        var resizes = 0
        for i in 0..<readings {
            queue.post(reading(i))
            if i % 250 == 0 { queue.post(.input); keys += 1 }
            if i % 1000 == 500 { queue.post(.resize); resizes += 1 }
        }
        queue.post(.readingsEnded(failure: nil))
        // Bounded: one reading waits, plus the rare events.
        #expect(queue.waitingCount == 1 + keys + resizes + 1, "\(queue.waitingCount) events waiting")
        #expect(queue.droppedReadings == readings - 1)
        let taken = await drain(queue)
        let times = taken.compactMap { event -> Double? in
            if case .measurement(let m) = event { return m.time } else { return nil }
        }
        #expect(times == [Double(readings - 1)], "only the newest reading is delivered")
        #expect(taken.filter { if case .input = $0 { true } else { false } }.count == keys, "every key survives")
        #expect(taken.filter { if case .resize = $0 { true } else { false } }.count == resizes)
        if case .readingsEnded = taken.last {} else { Issue.record("the readings' end comes last: \(String(describing: taken.last))") }
    }

    @Test func otherEventsAreKeptUpToTheCapacity() async {
        let queue = ScreenEventQueue()
        let capacity = ScreenEventQueue.capacity
        for _ in 0..<(capacity - 1) { queue.post(.resize) }
        #expect(queue.droppedEvents == 0, "below the cap nothing is dropped")
        for _ in 0..<101 { queue.post(.resize) }
        #expect(queue.waitingCount == capacity)
        #expect(queue.droppedEvents == 100)
        #expect(await drain(queue).count == capacity)
    }

    @Test func aReadingTakenIsNotDroppedByTheNext() async {
        let queue = ScreenEventQueue()
        var iterator = queue.stream.makeAsyncIterator()
        queue.post(reading(1))
        let first = await iterator.next()
        queue.post(reading(2))
        let second = await iterator.next()
        guard case .measurement(let a) = first, case .measurement(let b) = second else {
            Issue.record("\(String(describing: first)), \(String(describing: second))")
            return
        }
        #expect([a.time, b.time] == [1, 2])
        #expect(queue.droppedReadings == 0)
    }
}
