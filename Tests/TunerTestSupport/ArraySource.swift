import Dispatch
import TunerBridge

/// An in-memory source that hands out `samples` in `chunk`-sized reads, then ends (or fails).
public final class ArraySource: AudioSource {
    public let sampleRate: Double
    public let label = "test signal"
    private let samples: [Float]
    private let chunk: Int
    private var position = 0
    private let failAtEnd: Bool
    private let gate: (position: Int, semaphore: DispatchSemaphore)?
    public struct Vanished: Error {}

    /// With `holdAt`, the source stops after that many samples until `holdAt.semaphore` is signalled.
    public init(_ samples: [Float], sampleRate: Double, chunk: Int = 777, failAtEnd: Bool = false,
         holdAt: (position: Int, semaphore: DispatchSemaphore)? = nil) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.chunk = chunk
        self.failAtEnd = failAtEnd
        self.gate = holdAt
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        var limit = samples.count
        if let gate {
            if position == gate.position { gate.semaphore.wait() }
            if position < gate.position { limit = gate.position }
        }
        let n = min(buffer.count, chunk, limit - position)
        if n == 0, failAtEnd { throw Vanished() }
        for i in 0..<n { buffer[i] = samples[position + i] }
        position += n
        return n
    }
}
