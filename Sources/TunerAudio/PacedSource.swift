import TunerBridge
#if canImport(Glibc)
import Glibc
#endif

/// Waits so that samples come out no faster than they would from a microphone: after `frames` have been
/// delivered in total, `wait` returns no earlier than `frames / sampleRate` seconds after the first call
/// (`clock_nanosleep` on `CLOCK_MONOTONIC`, absolute deadline, so delays do not add up).
/// Used on the analysis thread only; it allocates nothing.
public struct RealTimeClock {
    public let sampleRate: Double
    private var start = timespec()
    private var started = false
    private var delivered = 0

    public init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Counts `frames` more as delivered and sleeps until the wall clock reaches their end.
    public mutating func wait(afterDelivering frames: Int) {
        if !started {
            clock_gettime(CLOCK_MONOTONIC, &start)
            started = true
        }
        delivered += frames
        let offset = Double(delivered) / sampleRate
        let whole = Int(offset)
        var deadline = timespec(tv_sec: start.tv_sec + whole,
                                tv_nsec: start.tv_nsec + Int((offset - Double(whole)) * 1e9))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }
}

/// Plays another source at real-time pace in blocks of `blockFrames` (10 ms by default), so a file shown
/// on the screen moves like a string being played. Owns `inner`; like it, used by one thread only.
public final class PacedSource: AudioSource {
    private let inner: any AudioSource
    private let blockFrames: Int
    private var clock: RealTimeClock

    public init(_ inner: any AudioSource, blockFrames: Int? = nil) {
        self.inner = inner
        self.blockFrames = max(1, blockFrames ?? Int(inner.sampleRate / 100))
        clock = RealTimeClock(sampleRate: inner.sampleRate)
    }

    public var sampleRate: Double { inner.sampleRate }
    public var label: String { inner.label }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let limited = UnsafeMutableBufferPointer(rebasing: buffer[0..<min(buffer.count, blockFrames)])
        let n = try inner.read(into: limited)
        if n > 0 { clock.wait(afterDelivering: n) }
        return n
    }
}
