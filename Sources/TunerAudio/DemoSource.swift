import TunerBridge
import TunerMusic
#if canImport(Glibc)
import Glibc
#endif

/// The built-in demo: an A2 string plucked every `pluckSeconds`, each pluck closer to pitch — as if
/// someone were turning the peg — from −30 ¢ down to within ±0.5 ¢, then off to +24 ¢ and in again,
/// forever. Shown when there is no capture device, so a newcomer sees the tuner work.
///
/// Synthesised sample by sample (partials with the inharmonicity of a real string, each decaying on
/// its own); paced at real time unless `paced` is false. All state is made in `init`; `read`
/// allocates nothing. Driven by one thread only.
public final class DemoSource: AudioSource {
    /// The string the demo plays.
    public static let note = Note(midi: 45)  // A2
    /// Plucks per round of tuning: the detune shrinks by `settle` each pluck.
    public static let plucksPerRound = 8
    static let settle = 0.4

    public let sampleRate: Double
    public var label: String { "built-in demo (plucked A2), \(Int(sampleRate)) Hz" }
    public let a4: Hertz
    public let pluckSeconds: Double

    private let samplesPerPluck: Int
    private var position = 0  // sample within the current pluck
    private var pluck = -1
    private var clock: RealTimeClock?
    private let paced: Bool
    private let inharmonicity = 5e-5
    // One entry per partial; arrays sized once here and only overwritten afterwards.
    private var step: [Double]
    private var phase: [Double]
    private var amplitude: [Double]
    private var decayPerSample: [Double]
    private let attackSamples: Double

    public init(sampleRate: Double = 48000, a4: Hertz = Hertz(440), pluckSeconds: Double = 2, paced: Bool = true) {
        self.sampleRate = sampleRate
        self.a4 = a4
        self.pluckSeconds = pluckSeconds
        self.paced = paced
        samplesPerPluck = max(1, Int(pluckSeconds * sampleRate))
        attackSamples = 0.004 * sampleRate
        let partials = 8
        step = [Double](repeating: 0, count: partials)
        phase = [Double](repeating: 0, count: partials)
        amplitude = [Double](repeating: 0, count: partials)
        decayPerSample = (0..<partials).map { k in exp(-1 / (1.5 / (1 + 0.3 * Double(k)) * sampleRate)) }
        clock = paced ? RealTimeClock(sampleRate: sampleRate) : nil
    }

    /// How far the `index`-th pluck (0-based) is from A2: −30 ¢, −12 ¢, −4.8 ¢ … then +24 ¢ and in again.
    public static func detune(ofPluck index: Int) -> Cents {
        let round = index / plucksPerRound
        let k = index % plucksPerRound
        let start = round % 2 == 0 ? -30.0 : 24.0
        return Cents(start * pow(settle, Double(k)))
    }

    private func startPluck() {
        pluck += 1
        position = 0
        let f1 = Self.note.frequency(a4: a4).shifted(by: Self.detune(ofPluck: pluck)).value
        let total = (1...step.count).reduce(0.0) { $0 + 1 / Double($1) }
        for i in 0..<step.count {
            let k = Double(i + 1)
            let f = k * f1 * ((1 + inharmonicity * k * k) / (1 + inharmonicity)).squareRoot()
            step[i] = f < 0.45 * sampleRate ? 2 * Double.pi * f / sampleRate : 0
            phase[i] = 0.7 * k
            amplitude[i] = step[i] == 0 ? 0 : 0.6 / (k * total)
        }
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let count = paced ? min(buffer.count, max(1, Int(sampleRate / 100))) : buffer.count
        for n in 0..<count {
            if pluck < 0 || position >= samplesPerPluck { startPluck() }
            let attack = min(1, Double(position) / attackSamples)
            var sum = 0.0
            for i in 0..<step.count {
                sum += amplitude[i] * sin(phase[i])
                phase[i] += step[i]
                if phase[i] > 2 * Double.pi { phase[i] -= 2 * Double.pi }
                amplitude[i] *= decayPerSample[i]
            }
            buffer[n] = Float(sum * attack)
            position += 1
        }
        clock?.wait(afterDelivering: count)
        return count
    }
}
