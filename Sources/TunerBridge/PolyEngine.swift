import CTuner

/// The one Swift owner of a C++ polyphonic analyser (`ct_poly_create` … `ct_poly_destroy`): every
/// string of a tuning read at once, each near its own target.
///
/// Not thread-safe: make it on any thread, then use it from one thread only. `process` calls
/// `onMeasurement` synchronously on the calling thread, once per analysis hop completed in the block.
public final class PolyEngine {
    private let handle: OpaquePointer
    private let sink: Unmanaged<MeasurementSink<PolyMeasurement>>
    public let sampleRate: Double

    /// Hops are `hopSize` samples apart.
    public var hopSize: Int { ct_poly_hop_size(handle) }

    /// Makes the analyser for strings tuned to `targets` (string order; every buffer and FFT plan is
    /// made here, once). Throws `EngineError` with the analyser's reason when it refuses them.
    public init(sampleRate: Double, targets: [Hertz], configuration: TunerConfiguration = TunerConfiguration(),
                onMeasurement: @escaping (PolyMeasurement) -> Void) throws {
        var config = configuration.engineConfig(sampleRate: sampleRate)
        let frequencies = targets.map(\.value)
        (handle, sink) = try MeasurementSink.make(onMeasurement) { context, error, capacity in
            frequencies.withUnsafeBufferPointer { targets in
                ct_poly_create(&config, targets.baseAddress, targets.count, { result, context in
                    guard let result else { return }
                    Unmanaged<MeasurementSink<PolyMeasurement>>.fromOpaque(context!).takeUnretainedValue()
                        .deliver(PolyMeasurement(result.pointee))
                }, context, error, capacity)
            }
        }
        self.sampleRate = sampleRate
    }

    deinit {
        ct_poly_destroy(handle)
        sink.release()
    }

    /// Feeds mono samples (`ct_poly_process`); measurements arrive through `onMeasurement` before it returns.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, samples.count > 0 else { return }
        ct_poly_process(handle, base, samples.count)
    }
}

extension PolyMeasurement {
    /// Maps an analyser result (at most `CT_POLY_MAX_STRINGS` strings, as ctuner.h promises): a string's frequency only when it was heard and is a positive finite
    /// number; a non-finite level reads as −120 dBFS, a non-finite clarity as 0.
    init(_ r: ct_poly_result) {
        var strings = PolyStrings()  // inline: no heap allocation per hop
        for i in 0..<min(r.count, PolyStrings.capacity) {
            let s = r.strings[i]
            let heard = s.heard != 0 && s.frequency.isFinite && s.frequency > 0
            strings.append(StringMeasurement(frequency: heard ? Hertz(s.frequency) : nil,
                                             level: Decibels(s.level_db.isFinite ? s.level_db : -120),
                                             clarity: s.clarity.isFinite ? s.clarity : 0))
        }
        self.init(time: r.time, strings: strings)
    }
}
