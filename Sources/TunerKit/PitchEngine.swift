import CTuner
import Foundation

/// Settings of the pitch engine and of the readings made from its results.
public struct TunerConfiguration: Sendable, Equatable {
    /// Reference pitch: the frequency of A4.
    public var a4: Hertz
    /// A reading is in tune when |cents| ≤ tolerance.
    public var tolerance: Cents
    /// Windows quieter than this give no pitch.
    public var gate: Decibels
    /// The lowest and highest fundamentals searched.
    public var minimumFrequency: Hertz
    public var maximumFrequency: Hertz
    /// Time between readings.
    public var hopSeconds: Double

    public init(a4: Hertz = Hertz(440), tolerance: Cents = Cents(3), gate: Decibels = Decibels(-60),
                minimumFrequency: Hertz = Hertz(29), maximumFrequency: Hertz = Hertz(4200),
                hopSeconds: Double = 0.01) {
        self.a4 = a4
        self.tolerance = tolerance
        self.gate = gate
        self.minimumFrequency = minimumFrequency
        self.maximumFrequency = maximumFrequency
        self.hopSeconds = hopSeconds
    }
}

public struct EngineError: Error, CustomStringConvertible {
    public var description: String
}

/// The one Swift owner of a C++ engine (`ct_engine_create` … `ct_engine_destroy`).
///
/// Not thread-safe: make it on any thread, then use it from one thread only. `process` calls
/// `onReading` synchronously on the calling thread, once per analysis hop completed in the block
/// (the C++ engine's `onResultReady`, through `ct_result_callback`).
public final class PitchEngine {
    private let handle: OpaquePointer
    private let sink: Unmanaged<Sink>
    public let sampleRate: Double

    /// Hops are `hopSize` samples apart; a result looks back on at most `windowSize` samples.
    public var hopSize: Int { ct_engine_hop_size(handle) }
    public var windowSize: Int { ct_engine_window_size(handle) }

    private final class Sink {
        var a4: Hertz
        var tolerance: Cents
        let onReading: (Reading) -> Void
        init(a4: Hertz, tolerance: Cents, onReading: @escaping (Reading) -> Void) {
            self.a4 = a4
            self.tolerance = tolerance
            self.onReading = onReading
        }
    }

    /// Makes the engine (`ct_engine_create`: every buffer and FFT plan is made here, once).
    public init(sampleRate: Double, configuration: TunerConfiguration = TunerConfiguration(),
                onReading: @escaping (Reading) -> Void) throws {
        var config = ct_config()
        ct_config_default(&config, sampleRate)
        config.gate_db = configuration.gate.value
        config.min_frequency = configuration.minimumFrequency.value
        config.max_frequency = configuration.maximumFrequency.value
        config.hop_seconds = configuration.hopSeconds
        let sink = Unmanaged.passRetained(Sink(a4: configuration.a4, tolerance: configuration.tolerance,
                                                 onReading: onReading))
        var message = [CChar](repeating: 0, count: 256)
        let made = message.withUnsafeMutableBufferPointer { buffer in
            ct_engine_create(&config, { result, context in
                let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
                sink.onReading(Reading(result, a4: sink.a4, tolerance: sink.tolerance))
            }, sink.toOpaque(), buffer.baseAddress, buffer.count)
        }
        guard let made else {
            sink.release()
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw EngineError(description: text)
        }
        self.handle = made
        self.sink = sink
        self.sampleRate = sampleRate
    }

    deinit {
        ct_engine_destroy(handle)
        sink.release()
    }

    /// Feeds mono samples (`ct_engine_process`); readings arrive through `onReading` before it returns.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress, samples.count > 0 else { return }
        ct_engine_process(handle, base, samples.count)
    }

    /// Changes the reference pitch the readings that follow are named with (the engine never sees it).
    public func setReference(_ a4: Hertz) { sink.takeUnretainedValue().a4 = a4 }

    /// Changes the tolerance the readings that follow are judged with.
    public func setTolerance(_ tolerance: Cents) { sink.takeUnretainedValue().tolerance = tolerance }
}

extension Reading {
    /// Maps an engine result, naming its frequency's nearest equal-tempered note against `a4`
    /// (MIDI 69 = A4); cents are clamped to ±50 here, in the one place that talks to the engine.
    init(_ r: ct_result, a4: Hertz, tolerance: Cents) {
        var pitch: Pitch? = nil
        if r.has_pitch != 0, r.frequency.isFinite, r.frequency > 0 {
            let fractional = 69.0 + 12.0 * log2(r.frequency / a4.value)
            let midi = fractional.rounded(.toNearestOrAwayFromZero)
            if midi >= 0, midi <= 127 {
                pitch = Pitch(frequency: Hertz(r.frequency), note: Note(midi: Int(midi)),
                              rawCents: Cents(100.0 * (fractional - midi)))
            }
        }
        self.init(time: r.time, pitch: pitch, level: Decibels(r.level_db.isFinite ? r.level_db : -120),
                  confidence: r.confidence.isFinite ? r.confidence : 0, tolerance: tolerance)
    }
}
