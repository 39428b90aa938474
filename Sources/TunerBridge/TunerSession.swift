import Foundation
import Synchronization

/// Runs an `AudioSource` through a `PitchEngine` on a thread of its own and delivers the measurements
/// as an `AsyncStream`, the only way they cross threads.
///
/// Threads: the session's analysis thread reads the source, calls `PitchEngine.process`, and hands the
/// measurements of each block to the stream once the block is done (together, so that a consumer
/// waiting for them is woken once per block rather than once per hop).
///
/// Memory is bounded by design, whatever the consumer does (`Delivery`): a file waits for its consumer
/// (`MeasurementHandoff`, at most `queueCapacity` measurements in flight, nothing dropped); a live
/// source never waits — the screen keeps only the newest, and every-reading output keeps at most
/// `queueCapacity`, dropping the oldest and counting them (`dropped`). Consumers iterate
/// `measurements` with `for await` on any task. Nothing musical travels to the analysis thread: A4 and
/// the tolerance belong to the consumer's `ReadingPipeline` (TunerMusic); only `stop` goes this way.
public final class TunerSession: Sendable {
    /// How measurements are buffered between the analysis thread and the consumer.
    public enum Delivery: Sendable {
        /// Every measurement, in order; the analysis waits for the consumer when `queueCapacity` are
        /// waiting (back-pressure: a file is read only as fast as it is consumed, nothing is dropped).
        case everyReading
        /// Only the newest measurement is kept: a live display never lags behind the string.
        case newestOnly
        /// Every measurement, in order, for a live source that cannot wait (a sound card overruns): at
        /// most `queueCapacity` wait for the consumer; beyond that the oldest are dropped and counted.
        case everyReadingDroppingWhenBehind
    }

    /// Measurements that may wait between the analysis thread and a slow consumer: 1024, about 10 s of
    /// readings at 100 a second, about 40 KB. Enough to ride out a consumer's pause (a terminal scrolling,
    /// a pipe's reader busy for a moment) without dropping live readings; small enough that memory does
    /// not depend on the consumer (issue 18: an unbounded buffer reached 1.14 GB behind a slow reader).
    public static let queueCapacity = 1024

    public let measurements: AsyncStream<PitchMeasurement>
    /// Sample rate and description of the source, for status lines.
    public let sampleRate: Double
    public let sourceLabel: String

    private let control: Control

    private final class Control: Sendable {
        let stopRequested = Atomic<Bool>(false)
        let dropped = Atomic<Int>(0)
        let outcome = Mutex<(any Error)?>(nil)
        /// The file case's ring (`.everyReading`); nil otherwise.
        let handoff: MeasurementHandoff?
        init(handoff: MeasurementHandoff?) { self.handoff = handoff }
    }

    /// Hands `source` to a new analysis thread and starts it. Throws when the engine cannot be made
    /// for the source's sample rate.
    public init(source: sending any AudioSource, configuration: TunerConfiguration = TunerConfiguration(),
                delivery: Delivery = .everyReading, blockSize: Int = 1024) throws {
        let control = Control(handoff: delivery == .everyReading ? MeasurementHandoff(capacity: Self.queueCapacity) : nil)
        let pending = Pending()
        let engine = try PitchEngine(sampleRate: source.sampleRate, configuration: configuration) { measurement in
            pending.measurements.append(measurement)
        }
        pending.measurements.reserveCapacity(max(1, blockSize) / max(1, engine.hopSize) + 2)  // a block's
        self.sampleRate = source.sampleRate
        self.sourceLabel = source.label
        self.control = control

        let work = Handover(source: source, engine: engine, blockSize: max(1, blockSize), pending: pending)
        let body: @Sendable () -> Void
        switch delivery {
        case .everyReading:
            let handoff = control.handoff!
            self.measurements = AsyncStream(unfolding: { await handoff.next() }, onCancel: {
                control.stopRequested.store(true, ordering: .relaxed)
                handoff.stop()
            })
            body = {
                work.run(control: control) { block in
                    if !handoff.put(block) { control.stopRequested.store(true, ordering: .relaxed) }
                }
                handoff.finish()
            }
        case .newestOnly, .everyReadingDroppingWhenBehind:
            let (stream, continuation) = AsyncStream<PitchMeasurement>.makeStream(
                bufferingPolicy: .bufferingNewest(delivery == .newestOnly ? 1 : Self.queueCapacity))
            continuation.onTermination = { _ in control.stopRequested.store(true, ordering: .relaxed) }
            self.measurements = stream
            let counting = delivery == .everyReadingDroppingWhenBehind
            body = {
                work.run(control: control) { block in
                    for measurement in block {
                        if case .dropped = continuation.yield(measurement), counting {
                            control.dropped.add(1, ordering: .relaxed)
                        }
                    }
                }
                continuation.finish()
            }
        }
        let thread = Thread {
            // Named from inside: on Linux a name set before `start()` never reached the kernel, and the
            // thread kept its creator's ("com.apple.root.default-qos"), so `top -H`, `perf` and
            // /proc/<pid>/task/*/comm could not tell it from Swift's own worker threads.
            Thread.current.name = "tuner-analysis"
            body()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Asks the analysis thread to stop after its current block (waking it if it waits for the
    /// consumer); the stream then finishes.
    public func stop() {
        control.stopRequested.store(true, ordering: .relaxed)
        control.handoff?.stop()
    }

    /// Measurements dropped because the consumer fell `queueCapacity` behind a live source
    /// (`.everyReadingDroppingWhenBehind` only; 0 otherwise).
    public var dropped: Int { control.dropped.load(ordering: .relaxed) }

    /// Why the input ended early (e.g. a device error), once the stream has finished; nil at a normal end.
    public var failure: (any Error)? { control.outcome.withLock { $0 } }

    /// The measurements of the block being processed, filled by the engine's callback.
    private final class Pending: @unchecked Sendable {
        var measurements: [PitchMeasurement] = []
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

        func run(control: Control, deliver: ([PitchMeasurement]) -> Void) {
            guard let engine else { return }
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockSize)
            defer { buffer.deallocate() }
            do {
                while !control.stopRequested.load(ordering: .relaxed) {
                    let count = try source.read(into: buffer)
                    if count <= 0 { break }
                    engine.process(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    if !pending.measurements.isEmpty { deliver(pending.measurements) }
                    pending.measurements.removeAll(keepingCapacity: true)
                }
            } catch {
                control.outcome.withLock { $0 = error }
            }
            self.engine = nil  // ct_engine_destroy on this thread, before the stream finishes
        }
    }
}
