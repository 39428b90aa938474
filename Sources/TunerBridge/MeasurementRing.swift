/// A ring of at most `capacity` measurements, its storage made once: the one buffer both handoffs keep
/// their measurements in (`WaitingHandoff` under its lock, `LiveHandoff`'s three block buffers each
/// owned by one thread at a time). Not thread-safe by itself.
final class MeasurementRing<Measurement> {
    private let storage: UnsafeMutablePointer<Measurement>
    let capacity: Int
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        removeAll()
        storage.deallocate()
    }

    var isFull: Bool { count == capacity }

    /// Adds `measurement` as the newest; when full, the oldest goes to make room and true is returned.
    @discardableResult
    func append(_ measurement: Measurement) -> Bool {
        var droppedOne = false
        if isFull {
            (storage + head).deinitialize(count: 1)
            head = (head + 1) % capacity
            count -= 1
            droppedOne = true
        }
        (storage + (head + count) % capacity).initialize(to: measurement)
        count += 1
        return droppedOne
    }

    /// Takes the oldest measurement out, or nil when empty.
    func popOldest() -> Measurement? {
        guard count > 0 else { return nil }
        let measurement = (storage + head).move()
        head = (head + 1) % capacity
        count -= 1
        return measurement
    }

    func removeAll() {
        while count > 0 { _ = popOldest() }
        head = 0
    }
}
