import Foundation
import CTuner
import Testing
import TunerAudio
import TunerBridge
import TunerMusic

/// The strings a tuner must read, each detuned by an odd, known amount.
struct TestString: CustomTestStringConvertible, Sendable {
    let name: String
    let note: String
    let detune: Double  // cents
    var testDescription: String { "\(name) \(note) \(detune > 0 ? "+" : "")\(detune) ¢" }
    var truth: Double { Note(parsing: note)!.frequency().shifted(by: Cents(detune)).value }

    static let all: [TestString] = [
        TestString(name: "low_E", note: "E2", detune: 13.7),
        TestString(name: "A", note: "A2", detune: -7.3),
        TestString(name: "D", note: "D3", detune: 21.9),
        TestString(name: "G", note: "G3", detune: -33.1),
        TestString(name: "B", note: "B3", detune: 4.3),
        TestString(name: "high_E", note: "E4", detune: -17.9),
        TestString(name: "bass_E", note: "E1", detune: 9.1),
        TestString(name: "bass_low_B", note: "B0", detune: -11.7),
    ]
}

@Suite struct AccuracyTests {
    static let rates: [Double] = [44100, 48000]
    /// The steady part: after the attack has left the longest window, before the end.
    static let steady: ClosedRange<Double> = 0.7...1.9

    @Test(arguments: TestString.all, rates)
    func sineWithinATenthOfACent(string: TestString, rate: Double) {
        let signal = Synth.sine(Hertz(string.truth), seconds: 2, sampleRate: rate, amplitude: 0.3)
        let results = EngineHarness.analyse(signal, sampleRate: rate).during(Self.steady)
        let errors = results.centsErrors(against: string.truth)
        #expect(errors.count == results.count, "every steady reading has a pitch")
        #expect(results.noteNames == [string.note])
        #expect(abs(median(errors)) <= 0.1, "median error \(median(errors)) ¢")
    }

    @Test(arguments: TestString.all, rates)
    func pluckWithinATenthOfACent(string: TestString, rate: Double) {
        let pluck = Synth.Pluck(frequency: Hertz(string.truth), inharmonicity: 8e-5, partials: 14, decay: 1.2)
        let results = EngineHarness.analyse(pluck.render(seconds: 2, sampleRate: rate), sampleRate: rate)
            .during(Self.steady)
        let errors = results.centsErrors(against: string.truth)
        #expect(errors.count == results.count, "every steady reading has a pitch")
        #expect(results.noteNames == [string.note])
        #expect(abs(median(errors)) <= 0.1, "median error \(median(errors)) ¢")
    }

    @Test(arguments: TestString.all, rates)
    func pluckAt20dBSNRWithinHalfACent(string: TestString, rate: Double) {
        let pluck = Synth.Pluck(frequency: Hertz(string.truth), inharmonicity: 8e-5, partials: 14, decay: 1.2)
        let clean = pluck.render(seconds: 2, sampleRate: rate)
        // Noise 20 dB below the pluck's level over the steady part.
        let measure = Int(Self.steady.lowerBound * rate)..<Int(Self.steady.upperBound * rate)
        let noisy = Synth.addNoise(to: clean, snr: 20, seed: 11, measure: measure)
        let results = EngineHarness.analyse(noisy, sampleRate: rate).during(Self.steady)
        let errors = results.centsErrors(against: string.truth)
        #expect(results.noteNames == [string.note])
        #expect(Double(errors.count) >= 0.95 * Double(results.count), "pitched \(errors.count)/\(results.count)")
        #expect(abs(median(errors)) <= 0.5, "median error \(median(errors)) ¢")
    }

    /// A sine in white noise is measured by maximum likelihood over the 2L samples a held note uses,
    /// so its error is near the Cramér–Rao bound for those samples (Blackman–Harris frames alone:
    /// about 1.7×, Hann frames about 1.45×). Pooled over the six guitar strings at 20 dB SNR, readings
    /// whose whole window lies inside the tone, each normalised by its string's bound.
    @Test func sineInNoiseNearTheCramerRaoBound() {
        let rate = 48000.0
        var config = ct_config()
        ct_config_default(&config, rate)
        var sumOfSquares = 0.0, count = 0
        for (i, string) in TestString.all.prefix(6).enumerated() {
            let f = string.truth
            let clean = Synth.sine(Hertz(f), seconds: 4, sampleRate: rate, amplitude: 0.3)
            let noisy = Synth.addNoise(to: clean, snr: 20, seed: UInt64(31 + i))
            let sigma2 = zip(noisy, clean).reduce(0.0) { $0 + pow(Double($1.0 - $1.1), 2) } / Double(clean.count)
            let L = min(max((6 * rate / f).rounded(.up), (0.032 * rate).rounded(.up)),
                        (6 * rate / config.min_frequency).rounded(.up))
            let N = 2 * L
            let snr = 0.3 * 0.3 / 2 / sigma2
            let bound = rate / (2 * Double.pi) * (12 / (snr * N * (N * N - 1))).squareRoot()
            for r in EngineHarness.analyse(noisy, sampleRate: rate).during((N / rate + 0.05)...3.95)
            where r.has_pitch != 0 {
                sumOfSquares += pow((r.frequency - f) / bound, 2)
                count += 1
            }
        }
        let ratio = (sumOfSquares / Double(count)).squareRoot()
        #expect(count > 2000, "pitched readings: \(count)")
        #expect(ratio <= 1.2, "RMS error / CRLB = \(ratio)")
    }

    /// A sine that starts after silence is measured without the silence and the attack: the
    /// maximum-likelihood window begins at the onset, so a bass's low B reads true within 0.15 s of
    /// its onset, long before its full 0.39 s window has filled (with the silence inside the window
    /// the error was up to 1.7 ¢, and with Hann frames 0.7 ¢, at 0.3 s).
    @Test(arguments: [TestString.all[7], TestString.all[6], TestString.all[0]])
    func sineAfterSilenceTrueFromItsOnset(string: TestString) {
        let rate = 48000.0
        let silence = [Float](repeating: 0, count: Int(0.25 * rate))
        var tone = Synth.sine(Hertz(string.truth), seconds: 1.5, sampleRate: rate, amplitude: 0.3)
        let ramp = Int(0.002 * rate)  // a 2 ms fade-in
        for i in 0..<ramp { tone[i] *= Float(i) / Float(ramp) }
        let results = EngineHarness.analyse(silence + tone, sampleRate: rate).during(0.40...1.7)
        let errors = results.centsErrors(against: string.truth)
        #expect(errors.count == results.count, "every reading from 0.15 s after the onset has a pitch")
        let worst = errors.map(abs).max() ?? .nan
        #expect(worst <= 0.02, "largest error \(worst) ¢")
    }

    /// In noise as strong as the tone (0 dB SNR) a low sine's period can come out 50 cents off, and
    /// its phase advance 3 % off, while its magnitude peak is still the tone. That peak is measured
    /// as a lone sinusoid; the period alone is not reported. (When the first partial had to be within
    /// 3 % by its phase advance alone, 3 hops of a D1 sine in the benchmark's corpus read 61–70 ¢
    /// sharp: the period's own frequency.)
    @Test(arguments: [30.87, 36.71, 41.2, 55.0])
    func aLowSineInNoiseAsStrongAsItselfIsNeverReadAQuarterToneOff(frequency: Double) {
        let rate = 44100.0
        for seed in UInt64(1)...4 {
            let tone = Synth.sine(Hertz(frequency), seconds: 2, sampleRate: rate, amplitude: 0.3)
            let noisy = Synth.addNoise(to: tone, snr: 0, seed: seed)
            let results = EngineHarness.analyse(noisy, sampleRate: rate).during(0.4...2.0)
            let worst = results.centsErrors(against: frequency).map(abs).max() ?? 0
            #expect(worst < 50, "seed \(seed): largest error \(worst) ¢ in \(results.centsErrors(against: frequency).count) readings")
        }
    }

    /// A fundamental off the series of its upper partials is still one of the partials the reading is
    /// fitted to. Modelled on FluidR3's overdriven A2: the fundamental 30 ¢ flat of the 3rd–5th
    /// partials, the 2nd 12 ¢ flat, partials 16–21 20–35 ¢ sharp. Those pull the period 25 ¢
    /// sharp, so the fundamental is more than 3 % from where the period puts it, and a search that
    /// took partials in order passed it over (the readings were 0.2–0.6 ¢ off the fit of all of
    /// them). The reading must be the engine's stated fit — f_k = k·f1·sqrt((1 + B·k²)/(1 + B)),
    /// weights k²·|X_k|² — of all eleven partials, computed here from the tone's own partials.
    @Test(arguments: ["E2", "A2", "D3"])
    func aFundamentalOffTheSeriesOfItsUpperPartialsIsStillFitted(note: String) {
        let f = Note(parsing: note)!.frequency().value
        let rate = 44100.0
        // (partial number, cents from k·f, level in dB); all decay together, so their weights hold.
        var partials: [(k: Double, cents: Double, db: Double)] = [(1, -30, -5), (2, -12, -8), (3, 0, 0), (4, 0, -1), (5, 2, -6)]
        for (k, cents) in zip(16...21, [20.0, 24, 28, 30, 32, 35]) { partials.append((Double(k), cents, -10)) }
        let frequencies = partials.map { $0.k * f * pow(2, $0.cents / 1200) }
        let amplitudes = partials.map { pow(10, $0.db / 20) }
        let raw = tone(of: partials.indices.map { (frequencies[$0], amplitudes[$0], 2, 0.7 * partials[$0].k) },
                       seconds: 1.5, sampleRate: rate)
        let peak = raw.map(abs).max()!
        let samples = raw.map { Float(0.3 * $0 / peak) }

        // The weighted least-squares fit of y_k = f_k / k = a + b·(k² − 1), B = 2b/a (in 0…2e-3),
        // then f1 for that B with the exact model.
        let weights = zip(partials, amplitudes).map { $0.k * $0.k * $1 * $1 }
        let xs = partials.map { $0.k * $0.k - 1 }, ys = zip(frequencies, partials).map { $0 / $1.k }
        func sum(_ term: (Int) -> Double) -> Double { partials.indices.reduce(0) { $0 + term($1) } }
        let sw = sum { weights[$0] }, sx = sum { weights[$0] * xs[$0] }, sy = sum { weights[$0] * ys[$0] }
        let sxx = sum { weights[$0] * xs[$0] * xs[$0] }, sxy = sum { weights[$0] * xs[$0] * ys[$0] }
        let det = sw * sxx - sx * sx
        let a = (sxx * sy - sx * sxy) / det, b = (sw * sxy - sx * sy) / det
        let B = max(0, min(2e-3, 2 * b / a))
        let g = partials.map { sqrt((1 + B * $0.k * $0.k) / (1 + B)) }
        let expected = sum { weights[$0] * ys[$0] * g[$0] } / sum { weights[$0] * g[$0] * g[$0] }

        let results = EngineHarness.analyse(samples, sampleRate: rate).during(0.4...1.45)
        #expect(results.count > 100 && results.allSatisfy { $0.has_pitch != 0 })
        let worst = results.centsErrors(against: expected).map(abs).max() ?? .infinity
        #expect(worst < 0.1, "largest distance from the fit of all partials: \(worst) ¢")
    }
}
