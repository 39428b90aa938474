#if canImport(Glibc)
import Glibc
#endif
import TunerBridge

/// Deterministic test and demo signals: sines, plucked strings, white noise.
/// The same seed gives the same samples on every machine.
public enum Synth {
    /// A plucked-string model: partials k = 1…count at f_k = k·f1·sqrt((1 + B·k²)/(1 + B)), so the
    /// first partial sits exactly at `frequency` and the upper ones read sharp, as on a real string.
    public struct Pluck: Sendable {
        public var frequency: Hertz
        /// Inharmonicity coefficient B (guitar ≈ 1e-5…1e-4).
        public var inharmonicity: Double = 5e-5
        /// Number of partials (limited to those under 0.45·fs).
        public var partials: Int = 12
        /// Amplitude of the fundamental relative to the sum of partial amplitudes' first term.
        public var peak: Double = 0.5
        /// Seconds for the fundamental to decay by 1/e; upper partials decay faster.
        public var decay: Double = 1.5
        /// Multiplies the fundamental's amplitude (0 = missing fundamental).
        public var fundamentalGain: Double = 1
        /// Multiplies the 2nd partial's amplitude.
        public var secondGain: Double = 1
        /// Seconds of the linear fade-in at the start (a pick's attack is about 1 ms).
        public var attack: Double = 0.004
        public init(frequency: Hertz) { self.frequency = frequency }

        public init(frequency: Hertz, inharmonicity: Double = 5e-5, partials: Int = 12, decay: Double = 1.5,
                    fundamentalGain: Double = 1, secondGain: Double = 1, peak: Double = 0.5, attack: Double = 0.004) {
            self.frequency = frequency
            self.attack = attack
            self.inharmonicity = inharmonicity
            self.partials = partials
            self.decay = decay
            self.fundamentalGain = fundamentalGain
            self.secondGain = secondGain
            self.peak = peak
        }

        /// Frequency of partial k (1-based).
        public func partialFrequency(_ k: Int) -> Double {
            let b = inharmonicity, kk = Double(k)
            return kk * frequency.value * ((1 + b * kk * kk) / (1 + b)).squareRoot()
        }

        /// `seconds` of the pluck at `sampleRate`.
        public func render(seconds: Double, sampleRate: Double) -> [Float] {
            let n = Int(seconds * sampleRate)
            var out = [Double](repeating: 0, count: n)
            let attack = max(1, self.attack * sampleRate)
            for k in 1...max(1, partials) {
                let f = partialFrequency(k)
                if f >= 0.45 * sampleRate { break }
                var a = 1.0 / Double(k)  // a plucked string's spectrum falls with k
                if k == 1 { a *= fundamentalGain }
                if k == 2 { a *= secondGain }
                if a == 0 { continue }
                let tau = decay / (1 + 0.3 * Double(k - 1))
                let phase = 0.7 * Double(k)  // fixed, different per partial
                let w = 2 * Double.pi * f / sampleRate
                for i in 0..<n {
                    let t = Double(i) / sampleRate
                    let env = exp(-t / tau) * min(1, Double(i) / attack)
                    out[i] += a * env * sin(w * Double(i) + phase)
                }
            }
            let maxAbs = out.reduce(0) { max($0, abs($1)) }
            let scale = maxAbs > 0 ? peak / maxAbs : 0
            return out.map { Float($0 * scale) }
        }
    }

    /// A steady sine of `amplitude` at `frequency`.
    public static func sine(_ frequency: Hertz, seconds: Double, sampleRate: Double,
                            amplitude: Double = 0.5, phase: Double = 0.3) -> [Float] {
        let n = Int(seconds * sampleRate)
        let w = 2 * Double.pi * frequency.value / sampleRate
        return (0..<n).map { Float(amplitude * sin(w * Double($0) + phase)) }
    }

    /// A small, fast, seedable generator (SplitMix64), so signals are the same on every run.
    public struct Random: RandomNumberGenerator, Sendable {
        private var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// A standard normal sample (Box–Muller).
        public mutating func gaussian() -> Double {
            let u1 = max(Double.ulpOfOne, Double(next() >> 11) / Double(1 << 53))
            let u2 = Double(next() >> 11) / Double(1 << 53)
            return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        }
    }

    /// Gaussian white noise with RMS `rms`.
    public static func noise(count: Int, rms: Double, seed: UInt64 = 1) -> [Float] {
        var rng = Random(seed: seed)
        return (0..<count).map { _ in Float(rms * rng.gaussian()) }
    }

    /// `signal` plus white noise at `snr` dB relative to the signal's RMS over `measure` (default: all).
    public static func addNoise(to signal: [Float], snr: Double, seed: UInt64 = 7,
                                measure: Range<Int>? = nil) -> [Float] {
        let r = measure ?? 0..<signal.count
        let power = r.isEmpty ? 0 : r.reduce(0.0) { $0 + Double(signal[$1]) * Double(signal[$1]) } / Double(r.count)
        let noiseRMS = (power / pow(10, snr / 10)).squareRoot()
        let n = noise(count: signal.count, rms: noiseRMS, seed: seed)
        return zip(signal, n).map { $0 + $1 }
    }
}
