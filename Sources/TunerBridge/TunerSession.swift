import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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

/// How measurements are buffered between a session's analysis thread and its consumer; the same for
/// every engine (`AnalysisSession.Delivery`).
public enum SessionDelivery: Sendable {
    /// Every measurement, in order; the analysis waits for the consumer when `queueCapacity` are
    /// waiting (back-pressure: a file is read only as fast as it is consumed, nothing is dropped).
    case everyReading
    /// Only the newest measurement is kept: a live display never lags behind the string.
    case newestOnly
    /// Every measurement, in order, for a live source that cannot wait (a sound card overruns): at
    /// most `queueCapacity` wait for the consumer; beyond that the oldest are dropped and counted.
    case everyReadingDroppingWhenBehind

    /// The delivery an output needs: the screen only the newest; printed output every reading, a file
    /// waiting for its reader, a live source dropping the oldest when its reader falls behind.
    public static func forOutput(screen: Bool, file: Bool) -> SessionDelivery {
        screen ? .newestOnly : file ? .everyReading : .everyReadingDroppingWhenBehind
    }
}

/// Runs an `AudioSource` through an engine (`PitchEngine`, or `PolyEngine` for strums, or either,
/// switched per block) on a thread of its own and delivers the measurements as an `AsyncStream`, the
/// only way they cross threads.
///
/// Threads: the session's analysis thread reads the source, feeds the engine, and hands the
/// measurements of each block to the stream once the block is done, through a `MeasurementHandoff`
/// (together, so that a consumer waiting for them is woken once per block rather than once per hop):
/// a `WaitingHandoff` for a file, a lock-free `LiveHandoff` for a live source.
///
/// Memory is bounded by design, whatever the consumer does and whichever engine runs (`Delivery`): a
/// file waits for its consumer (at most `queueCapacity` measurements in flight, nothing dropped); a
/// live source never waits — the screen keeps only the newest, and every-reading
/// output keeps at most `queueCapacity`, dropping the oldest and counting them (`dropped`). Consumers
/// iterate `measurements` with `for await` on any task. Nothing musical travels to the analysis thread:
/// A4 and the tolerance belong to the consumer's `ReadingPipeline` (TunerMusic); only `stop` (and, for
/// a `SwitchableSession`, its `EngineSwitch`) goes this way.
public final class AnalysisSession<Measurement: Sendable>: Sendable {
    /// How measurements are buffered between the analysis thread and the consumer.
    public typealias Delivery = SessionDelivery

    /// Measurements that may wait between the analysis thread and a slow consumer: 1024, about 10 s of
    /// readings at 100 a second, about 40 KB of single-string readings. Enough to ride out a consumer's
    /// pause (a terminal scrolling, a pipe's reader busy for a moment) without dropping live readings;
    /// small enough that memory does not depend on the consumer (issue 18: an unbounded buffer reached
    /// 1.14 GB behind a slow reader). A live source's `LiveHandoff` sets aside three buffers of this
    /// many (about 150 KB of single-string readings, 1.2 MB of strum readings, written only as far as
    /// they fill). (Computed: a generic class cannot store a static.)
    public static var queueCapacity: Int { 1024 }

    public let measurements: AsyncStream<Measurement>
    /// Sample rate and description of the source, for status lines.
    public let sampleRate: Double
    public let sourceLabel: String

    private let control: Control

    private final class Control: Sendable {
        let stopRequested = Atomic<Bool>(false)
        let outcome = Mutex<(any Error)?>(nil)
        /// Between the analysis thread and the stream: `WaitingHandoff` for a file, `LiveHandoff` live.
        let handoff: any MeasurementHandoff<Measurement>
        /// Whether `dropped` reports the handoff's drops (`.everyReadingDroppingWhenBehind`).
        let countsDrops: Bool
        init(handoff: any MeasurementHandoff<Measurement>, countsDrops: Bool) {
            self.handoff = handoff
            self.countsDrops = countsDrops
        }

        func stop() {
            stopRequested.store(true, ordering: .relaxed)
            handoff.stop()
        }
    }

    /// Held by the stream's closures only: when the stream and its iterators are gone, nobody reads the
    /// measurements, and the analysis stops.
    private final class StreamOwner: Sendable {
        let control: Control
        init(_ control: Control) { self.control = control }
        func stop() { control.stop() }
        deinit { control.stop() }
    }

    /// An engine as the analysis thread drives it: feeds samples; measurements go to the sink given
    /// when it was made.
    typealias Process = (UnsafeBufferPointer<Float>) -> Void

    /// Hands `source` to a new analysis thread and starts it, with the engine `makeEngine` makes
    /// (given where to put each measurement; it returns the engine's process step and its hop size).
    /// Throws what `makeEngine` throws.
    init(source: sending any AudioSource, delivery: Delivery, blockSize: Int,
         makeEngine: (_ sampleRate: Double, _ sink: @escaping (Measurement) -> Void) throws -> (Process, Int)) throws {
        // A file waits for its consumer; a live source never waits and never takes a lock.
        let handoff: any MeasurementHandoff<Measurement> = switch delivery {
        case .everyReading: WaitingHandoff<Measurement>(capacity: Self.queueCapacity)
        case .newestOnly: LiveHandoff<Measurement>(capacity: 1)
        case .everyReadingDroppingWhenBehind: LiveHandoff<Measurement>(capacity: Self.queueCapacity)
        }
        let control = Control(handoff: handoff, countsDrops: delivery == .everyReadingDroppingWhenBehind)
        let pending = Pending()
        let (process, hopSize) = try makeEngine(source.sampleRate) { measurement in
            pending.measurements.append(measurement)
        }
        pending.measurements.reserveCapacity(max(1, blockSize) / max(1, hopSize) + 2)  // a block's
        self.sampleRate = source.sampleRate
        self.sourceLabel = source.label
        self.control = control

        let work = Handover(source: source, process: process, blockSize: max(1, blockSize), pending: pending)
        // Dropping the stream (and its iterators) stops the analysis, as cancelling the consumer does.
        let owner = StreamOwner(control)
        self.measurements = AsyncStream(unfolding: { await owner.control.handoff.next() }, onCancel: { owner.stop() })
        let body: @Sendable () -> Void = {
            work.run(control: control) { block in
                if !handoff.put(block) { control.stopRequested.store(true, ordering: .relaxed) }
            }
            handoff.finish()
        }
        let thread = Thread {
            // Named from inside, through the kernel's own file for it: on Linux a name set before `start()` never
            // reached the kernel, and `Thread.current.name` did not either in 2 of 6 live runs through
            // PulseAudio (Benchmarks/live.py then found no analysis thread), so the thread kept its creator's
            // ("com.apple.root.default-qos") and `top -H`, `perf` and /proc/<pid>/task/*/comm could
            // not tell it from Swift's own worker threads.
            Self.nameCurrentThread("tuner-analysis")
            body()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Names the calling thread for the kernel (`comm`, at most 15 bytes): written to
    /// /proc/thread-self/comm, which is what `pthread_setname_np` does (Swift's Glibc does not export
    /// it); elsewhere, or if that file cannot be opened, through Foundation.
    private static func nameCurrentThread(_ name: String) {
        #if canImport(Glibc)
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        if fd >= 0 {
            let written = name.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
            if written > 0 { return }
        }
        #endif
        Thread.current.name = name
    }

    /// Asks the analysis thread to stop after its current block (waking it if it waits for the
    /// consumer); the stream then finishes.
    public func stop() {
        control.stop()
    }

    /// Measurements dropped because the consumer fell `queueCapacity` behind a live source
    /// (`.everyReadingDroppingWhenBehind` only; 0 otherwise).
    public var dropped: Int { control.countsDrops ? control.handoff.dropped : 0 }

    /// True when the next measurement is already there (the rest of a block the analysis thread handed
    /// over at once): a consumer writing output can wait for the last of them and write them together.
    public var hasReadyMeasurement: Bool { control.handoff.hasReady }

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

        func run(control: Control, deliver: ([Measurement]) -> Void) {
            guard let process else { return }
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockSize)
            defer { buffer.deallocate() }
            do {
                while !control.stopRequested.load(ordering: .relaxed) {
                    let count = try source.read(into: buffer)
                    if count <= 0 { break }
                    process(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    if !pending.measurements.isEmpty { deliver(pending.measurements) }
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
