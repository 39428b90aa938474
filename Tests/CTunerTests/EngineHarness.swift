import Foundation
import CTuner
import TunerAudio
import TunerBridge
import TunerMusic

/// Runs samples through a C engine (`ct_engine_create` … `ct_engine_destroy`) and keeps every result.
final class EngineHarness {
    private final class Collector { var results: [ct_result] = [] }

    static func analyse(_ samples: [Float], sampleRate: Double, block: Int = 512,
                        configure: (inout ct_config) -> Void = { _ in }) -> [ct_result] {
        var config = ct_config()
        ct_config_default(&config, sampleRate)
        configure(&config)
        let collector = Collector()
        let engine = ct_engine_create(&config, { result, context in
            Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue().results.append(result)
        }, Unmanaged.passUnretained(collector).toOpaque(), nil, 0)
        precondition(engine != nil, "engine could not be made")
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let n = min(block, buffer.count - start)
                ct_engine_process(engine, buffer.baseAddress! + start, n)
                start += n
            }
        }
        ct_engine_destroy(engine)
        return collector.results
    }

    /// The same samples through the bridge (`TunerBridge.PitchEngine`) and named by the music domain
    /// (`TunerMusic.ReadingPipeline`) against `a4`: the C engine knows no reference pitch.
    static func readings(_ samples: [Float], sampleRate: Double, a4: Double = 440) throws -> [Reading] {
        final class Box { var measurements: [PitchMeasurement] = [] }
        let box = Box()
        let engine = try PitchEngine(sampleRate: sampleRate) { box.measurements.append($0) }
        samples.withUnsafeBufferPointer { engine.process($0) }
        let pipeline = ReadingPipeline(settings: ReadingPipeline.Settings(a4: Hertz(a4)))
        return box.measurements.map { pipeline.reading(from: $0) }
    }
}

/// A tone made of the given partials, each a·e^(−t/τ)·sin(2πft + φ), for tests that need partials
/// no plucked-string model gives (off the series, fading at their own rates).
func tone(of partials: [(frequency: Double, amplitude: Double, decay: Double, phase: Double)],
          seconds: Double, sampleRate: Double) -> [Double] {
    (0..<Int(seconds * sampleRate)).map { i in
        let t = Double(i) / sampleRate
        return partials.reduce(0.0) { $0 + $1.amplitude * exp(-t / $1.decay) * sin(2 * .pi * $1.frequency * t + $1.phase) }
    }
}

/// Median of `values` (NaN when empty).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

extension Array where Element == ct_result {
    /// Results whose time lies in `range` (seconds).
    func during(_ range: ClosedRange<Double>) -> [ct_result] { filter { range.contains($0.time) } }

    /// Errors in cents of the pitched results against `truth`.
    func centsErrors(against truth: Double) -> [Double] {
        filter { $0.has_pitch != 0 }.map { 1200 * log2($0.frequency / truth) }
    }

    /// The nearest equal-tempered notes (A4 = 440 Hz) of the pitched results, e.g. "A#4".
    var noteNames: Set<String> { Set(filter { $0.has_pitch != 0 }.map(\.noteName)) }
}

extension ct_result {
    /// The nearest equal-tempered note of `frequency` against A4 = 440 Hz, e.g. "A#4".
    var noteName: String { Note(midi: Int((69 + 12 * log2(frequency / 440)).rounded())).description }
}
