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

    public init(gate: Decibels = Decibels(-60), minimumFrequency: Hertz = Hertz(Limits.frequency.lowerBound),
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

/// The one Swift owner of a C++ engine (`ct_engine_create` … `ct_engine_destroy`).
///
/// Not thread-safe: make it on any thread, then use it from one thread only. `process` calls
/// `onMeasurement` synchronously on the calling thread, once per analysis hop completed in the block
/// (the C++ engine's `onResultReady`, through `ct_result_callback`).
public final class PitchEngine {
    private let handle: OpaquePointer
    private let sink: Unmanaged<Sink>
    public let sampleRate: Double

    /// Hops are `hopSize` samples apart; a result looks back on at most `windowSize` samples.
    public var hopSize: Int { ct_engine_hop_size(handle) }
    public var windowSize: Int { ct_engine_window_size(handle) }

    private final class Sink {
        let onMeasurement: (PitchMeasurement) -> Void
        init(onMeasurement: @escaping (PitchMeasurement) -> Void) { self.onMeasurement = onMeasurement }
    }

    /// Makes the engine (`ct_engine_create`: every buffer and FFT plan is made here, once).
    public init(sampleRate: Double, configuration: TunerConfiguration = TunerConfiguration(),
                onMeasurement: @escaping (PitchMeasurement) -> Void) throws {
        var config = configuration.engineConfig(sampleRate: sampleRate)
        let sink = Unmanaged.passRetained(Sink(onMeasurement: onMeasurement))
        var message = [CChar](repeating: 0, count: 256)
        let made = message.withUnsafeMutableBufferPointer { buffer in
            ct_engine_create(&config, { result, context in
                let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
                sink.onMeasurement(PitchMeasurement(result))
            }, sink.toOpaque(), buffer.baseAddress, buffer.count)
        }
        guard let made else {
            sink.release()
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw EngineError(reason: text)
        }
        self.handle = made
        self.sink = sink
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
                  level: Decibels(r.level_db.isFinite ? r.level_db : -120))
    }
}
