import Foundation
import TunerAudio
import TunerBridge
@testable import TunerMusic

/// Signals and readings for the musician-model tests: real engine readings of synthesised input.
enum MusicianSignals {
    static let rate = 48000.0

    /// Every reading made of `samples` (synchronously, on this thread): the engine's measurements
    /// through a `ReadingPipeline` for `a4` and `tolerance`.
    static func readings(of samples: [Float], sampleRate: Double = rate, a4: Hertz = Hertz(440),
                         tolerance: Cents = Cents(3), gate: Decibels? = nil) throws -> [Reading] {
        final class Collector { var readings: [Reading] = [] }
        let collector = Collector()
        let pipeline = ReadingPipeline(settings: .init(a4: a4, tolerance: tolerance))
        var configuration = TunerConfiguration()
        if let gate { configuration.gate = gate }
        let engine = try PitchEngine(sampleRate: sampleRate, configuration: configuration) {
            collector.readings.append(pipeline.reading(from: $0))
        }
        samples.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let n = min(512, buffer.count - start)
                engine.process(UnsafeBufferPointer(rebasing: buffer[start..<start + n]))
                start += n
            }
        }
        return collector.readings
    }

    /// A plucked string at `frequency` for `seconds`.
    static func pluck(_ frequency: Hertz, seconds: Double) -> [Float] {
        Synth.Pluck(frequency: frequency).render(seconds: seconds, sampleRate: rate)
    }

    /// A steady tone through a pitch path: each segment glides exponentially from `from` to `to`.
    /// One phase accumulator runs through all segments, so there are no clicks; three harmonics
    /// make it string-like.
    static func glide(_ segments: [(from: Hertz, to: Hertz, seconds: Double)], amplitude: Double = 0.4) -> [Float] {
        var out: [Float] = []
        var phase = 0.0
        for segment in segments {
            let n = Int(segment.seconds * rate)
            let ratio = segment.to.value / segment.from.value
            for i in 0..<n {
                let f = segment.from.value * pow(ratio, Double(i) / Double(max(1, n)))
                phase += 2 * Double.pi * f / rate
                if phase > 2 * Double.pi * 1000 { phase -= 2 * Double.pi * 1000 }
                let s = sin(phase) + 0.5 * sin(2 * phase + 0.3) + 0.25 * sin(3 * phase + 0.7)
                out.append(Float(amplitude * s / 1.75))
            }
        }
        return out
    }

    /// A pitch path with vibrato: `center` ± `depth` cents at `rate` Hz, for `seconds`.
    static func vibrato(around center: Hertz, depth: Cents, hertz: Double, seconds: Double) -> [Float] {
        let n = Int(seconds * rate)
        var out: [Float] = []
        out.reserveCapacity(n)
        var phase = 0.0
        for i in 0..<n {
            let t = Double(i) / rate
            let f = center.shifted(by: Cents(depth.value * sin(2 * Double.pi * hertz * t))).value
            phase += 2 * Double.pi * f / rate
            let s = sin(phase) + 0.5 * sin(2 * phase + 0.3) + 0.25 * sin(3 * phase + 0.7)
            out.append(Float(0.4 * s / 1.75))
        }
        return out
    }

    /// A string-like tone whose pitch and partials change over time: `cents(t)` from `frequency`,
    /// and the amplitude of partial k (1-based) at time t from `partial(k, t)` (default: a steady
    /// 1, ½, ¼). One phase accumulator per partial, so pitch changes make no clicks.
    static func shaped(_ frequency: Hertz, seconds: Double, cents: (Double) -> Double = { _ in 0 },
                       partial: (Int, Double) -> Double = { k, _ in [1, 0.5, 0.25][k - 1] },
                       partials: Int = 3, scale: Double = 0.4 / 1.75) -> [Float] {
        let n = Int(seconds * rate)
        var out = [Float](repeating: 0, count: n)
        var phases = [Double](repeating: 0, count: partials)
        for i in 0..<n {
            let t = Double(i) / rate
            let f = frequency.value * exp2(cents(t) / 1200)
            var s = 0.0
            for k in 1...partials {
                phases[k - 1] += 2 * Double.pi * f * Double(k) / rate
                if phases[k - 1] > 2 * Double.pi { phases[k - 1] -= 2 * Double.pi }
                s += partial(k, t) * sin(phases[k - 1] + 0.3 * Double(k))
            }
            out[i] = Float(scale * s)
        }
        return out
    }

    /// A sine at `frequency` whose RMS is `rms` dBFS.
    static func sine(_ frequency: Hertz, seconds: Double, rms: Double) -> [Float] {
        Synth.sine(frequency, seconds: seconds, sampleRate: rate, amplitude: pow(10, rms / 20) * 2.0.squareRoot())
    }

    /// Hand-made readings of `note`: `cents(t)` and `level(t)` (dBFS) every 10 ms for `seconds`
    /// from `start`; a nil cents is a reading without a pitch.
    static func path(_ note: String, seconds: Double, start: Double = 0, cents: (Double) -> Double?,
                     level: (Double) -> Double = { _ in -20 }) -> [Reading] {
        (0..<Int((seconds * 100).rounded())).map { i in
            let t = start + Double(i) * 0.01
            var r = cents(t).map { reading(note, $0, at: t) } ?? silentReading(at: t)
            r.level = Decibels(level(t))
            return r
        }
    }

    static func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * rate)) }

    /// A hand-made reading of `note` `cents` off at `time` (for the unit tests of the pure logic).
    static func reading(_ note: String, _ cents: Double, at time: Double, tolerance: Cents = Cents(3)) -> Reading {
        let n = Note(parsing: note)!
        let pitch = Pitch(frequency: n.frequency().shifted(by: Cents(cents)), note: n, rawCents: Cents(cents))
        return Reading(time: time, pitch: pitch, level: Decibels(-20), confidence: 0.99, tolerance: tolerance)
    }

    /// What the engine would report for `note` `cents` off at `time` (to feed a `ReadingPipeline`).
    static func measurement(_ note: String, _ cents: Double, at time: Double) -> PitchMeasurement {
        PitchMeasurement(time: time, frequency: Note(parsing: note)!.frequency().shifted(by: Cents(cents)),
                         clarity: 0.99, level: Decibels(-20))
    }

    static func silentReading(at time: Double) -> Reading {
        Reading(time: time, pitch: nil, level: Decibels(-90), confidence: 0, tolerance: Cents(3))
    }
}
