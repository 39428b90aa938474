import CTuner

/// Settings of the pitch engine: what it searches and how often it reports.
public struct TunerConfiguration: Sendable, Equatable {
    /// Windows quieter than this give no pitch.
    public var gate: Decibels
    /// The lowest and highest fundamentals searched.
    public var minimumFrequency: Hertz
    public var maximumFrequency: Hertz
    /// Time between measurements.
    public var hopSeconds: Double

    /// The engine's own default gate (`ct_config_default`), so the level is written once, in C++.
    public static let defaultGate: Decibels = {
        var config = ct_config()
        ct_config_default(&config, 48000)
        return Decibels(config.gate_db)
    }()

    public init(gate: Decibels = TunerConfiguration.defaultGate, minimumFrequency: Hertz = Hertz(Limits.frequency.lowerBound),
                maximumFrequency: Hertz = Hertz(Limits.frequency.upperBound), hopSeconds: Double = 0.01) {
        self.gate = gate
        self.minimumFrequency = minimumFrequency
        self.maximumFrequency = maximumFrequency
        self.hopSeconds = hopSeconds
    }
}

extension TunerConfiguration {
    /// The C engines' configuration (`ct_config`) for these settings at `sampleRate`: the one mapping,
    /// for `PitchEngine` and `PolyEngine`.
    func engineConfig(sampleRate: Double) -> ct_config {
        var config = ct_config()
        ct_config_default(&config, sampleRate)
        config.gate_db = gate.value
        config.min_frequency = minimumFrequency.value
        config.max_frequency = maximumFrequency.value
        config.hop_seconds = hopSeconds
        return config
    }
}

/// The engine refused its configuration (`ct_engine_create` returned NULL); `reason` is its words.
public struct EngineError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Where a C engine's callback delivers: the Swift closure behind the callback's context pointer.
final class MeasurementSink<Measurement> {
    let deliver: (Measurement) -> Void
    init(_ deliver: @escaping (Measurement) -> Void) { self.deliver = deliver }

    /// Makes a C engine with `create` (given the sink's context pointer and an error buffer) and returns
    /// it with the retained sink; throws `EngineError` with the engine's words when it returns NULL.
    static func make(_ deliver: @escaping (Measurement) -> Void,
                     _ create: (UnsafeMutableRawPointer, UnsafeMutablePointer<CChar>?, Int) -> OpaquePointer?)
        throws -> (OpaquePointer, Unmanaged<MeasurementSink>) {
        let sink = Unmanaged.passRetained(MeasurementSink(deliver))
        var message = [CChar](repeating: 0, count: 256)
        let made = message.withUnsafeMutableBufferPointer { create(sink.toOpaque(), $0.baseAddress, $0.count) }
        guard let made else {
            sink.release()
            throw EngineError(reason: message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return (made, sink)
    }
}

/// The one Swift owner of a C++ engine (`ct_engine_create` … `ct_engine_destroy`).
///
/// Not thread-safe: make it on any thread, then use it from one thread only. `process` calls
/// `onMeasurement` synchronously on the calling thread, once per analysis hop completed in the block
/// (the C++ engine's `onResultReady`, through `ct_result_callback`).
public final class PitchEngine {
    private let handle: OpaquePointer
    private let sink: Unmanaged<MeasurementSink<PitchMeasurement>>
    public let sampleRate: Double

    /// Hops are `hopSize` samples apart; a result looks back on at most `windowSize` samples.
    public var hopSize: Int { ct_engine_hop_size(handle) }
    public var windowSize: Int { ct_engine_window_size(handle) }

    /// Makes the engine (`ct_engine_create`: every buffer and FFT plan is made here, once).
    public init(sampleRate: Double, configuration: TunerConfiguration = TunerConfiguration(),
                onMeasurement: @escaping (PitchMeasurement) -> Void) throws {
        var config = configuration.engineConfig(sampleRate: sampleRate)
        (handle, sink) = try MeasurementSink.make(onMeasurement) { context, error, capacity in
            ct_engine_create(&config, { result, context in
                Unmanaged<MeasurementSink<PitchMeasurement>>.fromOpaque(context!).takeUnretainedValue()
                    .deliver(PitchMeasurement(result))
            }, context, error, capacity)
        }
        self.sampleRate = sampleRate
    }

    deinit {
        ct_engine_destroy(handle)
        sink.release()
    }

    /// Feeds mono samples (`ct_engine_process`); measurements arrive through `onMeasurement` before it returns.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, samples.count > 0 else { return }
        ct_engine_process(handle, base, samples.count)
    }
}

extension PitchMeasurement {
    /// Maps an engine result: a frequency only when the engine found one and it is a positive finite
    /// number; a non-finite level reads as the −120 dBFS floor, a non-finite clarity as 0.
    init(_ r: ct_result) {
        let frequency: Hertz? = r.has_pitch != 0 && r.frequency.isFinite && r.frequency > 0 ? Hertz(r.frequency) : nil
        self.init(time: r.time, frequency: frequency, clarity: r.confidence.isFinite ? r.confidence : 0,
                  level: Decibels(r.level_db.isFinite ? r.level_db : -120), onset: r.onset != 0)
    }
}
