import Foundation
import Synchronization

/// A session that reads single-string measurements (`PitchEngine`).
public typealias TunerSession = AnalysisSession<PitchMeasurement>
/// A session that reads every string of a strum at once (`PolyEngine`, `--poly`).
public typealias PolySession = AnalysisSession<PolyMeasurement>
/// A session that runs either engine, switched by an `EngineSwitch` (the screen with a tuning).
public typealias SwitchableSession = AnalysisSession<SessionMeasurement>

/// Which engine a `SwitchableSession` runs: set from any thread, read by the analysis thread once per
/// block (the only thing besides `stop` that travels to it; it is not musical: A4 and the tolerance
/// stay with the consumer).
public final class EngineSwitch: Sendable {
    private let strums: Atomic<Bool>
    public init(strums: Bool) { self.strums = Atomic(strums) }
    /// True: every string at once (`PolyEngine`); false: one note (`PitchEngine`).
    public var readsStrums: Bool {
        get { strums.load(ordering: .relaxed) }
        set { strums.store(newValue, ordering: .relaxed) }
    }
}

/// Runs an `AudioSource` through an engine (`PitchEngine`, or `PolyEngine` for strums) on a thread of
/// its own and delivers the measurements as an `AsyncStream`, the only way they cross threads.
///
/// Threads: the session's analysis thread reads the source, calls `PitchEngine.process`, and yields
/// the measurements of each block into the stream once the block is done (together, so that a consumer
/// waiting for them is woken once per block rather than once per hop). Consumers iterate
/// `measurements` with `for await` on any task. Nothing musical travels to the analysis thread: A4 and
/// the tolerance belong to the consumer's `ReadingPipeline` (TunerMusic); only `stop` goes this way.
public final class AnalysisSession<Measurement: Sendable>: Sendable {
    /// How measurements are buffered between the analysis thread and the consumer.
    public enum Delivery: Sendable {
        /// Every measurement, in order (file analysis, JSON Lines).
        case everyReading
        /// Only the newest measurement is kept: a live display never lags behind the string.
        case newestOnly
    }

    public let measurements: AsyncStream<Measurement>
    /// Sample rate and description of the source, for status lines.
    public let sampleRate: Double
    public let sourceLabel: String

    private let control: Control

    private final class Control: Sendable {
        let stopRequested = Atomic<Bool>(false)
        let outcome = Mutex<(any Error)?>(nil)
    }

    /// An engine as the analysis thread drives it: feeds samples; measurements go to the sink given
    /// when it was made.
    typealias Process = (UnsafeBufferPointer<Float>) -> Void

    /// Hands `source` to a new analysis thread and starts it, with the engine `makeEngine` makes
    /// (given where to put each measurement; it returns the engine's process step and its hop size).
    /// Throws what `makeEngine` throws.
    init(source: sending any AudioSource, delivery: Delivery, blockSize: Int,
         makeEngine: (_ sampleRate: Double, _ sink: @escaping (Measurement) -> Void) throws -> (Process, Int)) throws {
        let control = Control()
        let (stream, continuation) = AsyncStream<Measurement>.makeStream(
            bufferingPolicy: delivery == .newestOnly ? .bufferingNewest(1) : .unbounded)
        let pending = Pending()
        let (process, hopSize) = try makeEngine(source.sampleRate) { measurement in
            pending.measurements.append(measurement)
        }
        pending.measurements.reserveCapacity(max(1, blockSize) / max(1, hopSize) + 2)  // a block's
        self.measurements = stream
        self.sampleRate = source.sampleRate
        self.sourceLabel = source.label
        self.control = control
        continuation.onTermination = { _ in control.stopRequested.store(true, ordering: .relaxed) }

        let work = Handover(source: source, process: process, blockSize: max(1, blockSize), pending: pending)
        let thread = Thread {
            // Named from inside: on Linux a name set before `start()` never reached the kernel, and the
            // thread kept its creator's ("com.apple.root.default-qos"), so `top -H`, `perf` and
            // /proc/<pid>/task/*/comm could not tell it from Swift's own worker threads.
            Thread.current.name = "tuner-analysis"
            work.run(control: control) { measurement in continuation.yield(measurement) }
            continuation.finish()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Asks the analysis thread to stop after its current block; the stream then finishes.
    public func stop() { control.stopRequested.store(true, ordering: .relaxed) }

    /// Why the input ended early (e.g. a device error), once the stream has finished; nil at a normal end.
    public var failure: (any Error)? { control.outcome.withLock { $0 } }

    /// The measurements of the block being processed, filled by the engine's callback.
    private final class Pending: @unchecked Sendable {
        var measurements: [Measurement] = []
    }

    /// The source and engine, owned by the analysis thread alone once it starts.
    private final class Handover: @unchecked Sendable {
        let source: any AudioSource
        var process: Process?
        let blockSize: Int
        let pending: Pending
        init(source: any AudioSource, process: @escaping Process, blockSize: Int, pending: Pending) {
            self.source = source
            self.process = process
            self.blockSize = blockSize
            self.pending = pending
        }

        func run(control: Control, deliver: (Measurement) -> Void) {
            guard let process else { return }
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockSize)
            defer { buffer.deallocate() }
            do {
                while !control.stopRequested.load(ordering: .relaxed) {
                    let count = try source.read(into: buffer)
                    if count <= 0 { break }
                    process(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    for measurement in pending.measurements { deliver(measurement) }
                    pending.measurements.removeAll(keepingCapacity: true)
                }
            } catch {
                control.outcome.withLock { $0 = error }
            }
            self.process = nil  // the engine is destroyed on this thread, before the stream finishes
        }
    }
}

extension AnalysisSession where Measurement == PitchMeasurement {
    /// Hands `source` to a new analysis thread and starts it. Throws when the engine cannot be made
    /// for the source's sample rate.
    public convenience init(source: sending any AudioSource, configuration: TunerConfiguration = TunerConfiguration(),
                            delivery: Delivery = .everyReading, blockSize: Int = 1024) throws {
        try self.init(source: source, delivery: delivery, blockSize: blockSize) { rate, sink in
            let engine = try PitchEngine(sampleRate: rate, configuration: configuration, onMeasurement: sink)
            return ({ engine.process($0) }, engine.hopSize)
        }
    }
}

extension AnalysisSession where Measurement == PolyMeasurement {
    /// Hands `source` to a new analysis thread reading the strings whose target fundamentals are
    /// `targets` (in string order). Throws when the analyser refuses them or the sample rate.
    public convenience init(source: sending any AudioSource, targets: [Hertz],
                            configuration: TunerConfiguration = TunerConfiguration(),
                            delivery: Delivery = .everyReading, blockSize: Int = 1024) throws {
        try self.init(source: source, delivery: delivery, blockSize: blockSize) { rate, sink in
            let engine = try PolyEngine(sampleRate: rate, targets: targets, configuration: configuration,
                                        onMeasurement: sink)
            return ({ engine.process($0) }, engine.hopSize)
        }
    }
}

extension AnalysisSession where Measurement == SessionMeasurement {
    /// Hands `source` to a new analysis thread with both engines made (every buffer now); each block
    /// goes through the one `engineSwitch` names, so only one costs CPU at a time. Throws when either
    /// engine refuses its configuration.
    public convenience init(source: sending any AudioSource, targets: [Hertz], engineSwitch: EngineSwitch,
                            configuration: TunerConfiguration = TunerConfiguration(),
                            delivery: Delivery = .newestOnly, blockSize: Int = 1024) throws {
        try self.init(source: source, delivery: delivery, blockSize: blockSize) { rate, sink in
            let single = try PitchEngine(sampleRate: rate, configuration: configuration) { sink(.single($0)) }
            let strums = try PolyEngine(sampleRate: rate, targets: targets, configuration: configuration) {
                sink(.strum($0))
            }
            return ({ samples in
                if engineSwitch.readsStrums { strums.process(samples) } else { single.process(samples) }
            }, min(single.hopSize, strums.hopSize))
        }
    }
}
