import Foundation
import Synchronization

/// Runs an `AudioSource` through a `PitchEngine` on a thread of its own and delivers the readings as
/// an `AsyncStream`, the only way readings cross threads.
///
/// Threads: the session's analysis thread reads the source, calls `PitchEngine.process`, and yields
/// the readings of each block into the stream once the block is done (together, so that a consumer
/// waiting for them is woken once per block rather than once per reading). Consumers iterate `readings` with
/// `for await` on any task. Settings changed with `setTolerance`/`setReference` travel the other way
/// as atomics, picked up by the analysis thread before its next block.
public final class TunerSession: Sendable {
    /// How readings are buffered between the analysis thread and the consumer.
    public enum Delivery: Sendable {
        /// Every reading, in order (file analysis, JSON Lines).
        case everyReading
        /// Only the newest reading is kept: a live display never lags behind the string.
        case newestOnly
    }

    public let readings: AsyncStream<Reading>
    /// Sample rate and description of the source, for status lines.
    public let sampleRate: Double
    public let sourceLabel: String

    private let control: Control

    private final class Control: Sendable {
        let stopRequested = Atomic<Bool>(false)
        let toleranceBits: Atomic<UInt64>
        let a4Bits: Atomic<UInt64>
        let outcome = Mutex<(any Error)?>(nil)
        init(configuration: TunerConfiguration) {
            toleranceBits = Atomic(configuration.tolerance.value.bitPattern)
            a4Bits = Atomic(configuration.a4.value.bitPattern)
        }
    }

    /// Hands `source` to a new analysis thread and starts it. Throws when the engine cannot be made
    /// for the source's sample rate.
    public init(source: sending any AudioSource, configuration: TunerConfiguration = TunerConfiguration(),
                delivery: Delivery = .everyReading, blockSize: Int = 1024) throws {
        let control = Control(configuration: configuration)
        let (stream, continuation) = AsyncStream<Reading>.makeStream(
            bufferingPolicy: delivery == .newestOnly ? .bufferingNewest(1) : .unbounded)
        let pending = Pending()
        let engine = try PitchEngine(sampleRate: source.sampleRate, configuration: configuration) { reading in
            pending.readings.append(reading)
        }
        pending.readings.reserveCapacity(max(1, blockSize) / max(1, engine.hopSize) + 2)  // a block's readings
        self.readings = stream
        self.sampleRate = source.sampleRate
        self.sourceLabel = source.label
        self.control = control
        continuation.onTermination = { _ in control.stopRequested.store(true, ordering: .relaxed) }

        let work = Handover(source: source, engine: engine, blockSize: max(1, blockSize), pending: pending)
        let thread = Thread {
            // Named from inside: on Linux a name set before `start()` never reached the kernel, and the
            // thread kept its creator's ("com.apple.root.default-qos"), so `top -H`, `perf` and
            // /proc/<pid>/task/*/comm could not tell it from Swift's own worker threads.
            Thread.current.name = "tuner-analysis"
            work.run(control: control) { reading in continuation.yield(reading) }
            continuation.finish()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Asks the analysis thread to stop after its current block; the stream then finishes.
    public func stop() { control.stopRequested.store(true, ordering: .relaxed) }

    /// Judges the readings that follow with this tolerance.
    public func setTolerance(_ tolerance: Cents) {
        control.toleranceBits.store(tolerance.value.bitPattern, ordering: .relaxed)
    }

    /// Uses this reference pitch for the readings that follow.
    public func setReference(_ a4: Hertz) { control.a4Bits.store(a4.value.bitPattern, ordering: .relaxed) }

    /// Why the input ended early (e.g. a device error), once the stream has finished; nil at a normal end.
    public var failure: (any Error)? { control.outcome.withLock { $0 } }

    /// The readings of the block being processed, filled by the engine's callback.
    private final class Pending: @unchecked Sendable {
        var readings: [Reading] = []
    }

    /// The source and engine, owned by the analysis thread alone once it starts.
    private final class Handover: @unchecked Sendable {
        let source: any AudioSource
        var engine: PitchEngine?
        let blockSize: Int
        let pending: Pending
        init(source: any AudioSource, engine: PitchEngine, blockSize: Int, pending: Pending) {
            self.source = source
            self.engine = engine
            self.blockSize = blockSize
            self.pending = pending
        }

        func run(control: Control, deliver: (Reading) -> Void) {
            guard let engine else { return }
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockSize)
            defer { buffer.deallocate() }
            var tolerance = control.toleranceBits.load(ordering: .relaxed)
            var a4 = control.a4Bits.load(ordering: .relaxed)
            do {
                while !control.stopRequested.load(ordering: .relaxed) {
                    let count = try source.read(into: buffer)
                    if count <= 0 { break }
                    // Settings changed while the read blocked apply to the block just read.
                    let t = control.toleranceBits.load(ordering: .relaxed)
                    if t != tolerance { tolerance = t; engine.setTolerance(Cents(Double(bitPattern: t))) }
                    let a = control.a4Bits.load(ordering: .relaxed)
                    if a != a4 { a4 = a; engine.setReference(Hertz(Double(bitPattern: a))) }
                    engine.process(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    for reading in pending.readings { deliver(reading) }
                    pending.readings.removeAll(keepingCapacity: true)
                }
            } catch {
                control.outcome.withLock { $0 = error }
            }
            self.engine = nil  // ct_engine_destroy on this thread, before the stream finishes
        }
    }
}
