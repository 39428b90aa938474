#if canImport(Glibc)
import Glibc
#endif
import TunerBridge
import TunerMusic

/// The sounds the tuner makes itself: the reference tone (a pitch pipe) and the settle chimes.
/// All are made ahead of playing, with smooth starts and ends so that nothing clicks.
public enum Sounds {
    /// How the reference tone sounds (`--tone-timbre`).
    public enum Timbre: String, Sendable, CaseIterable {
        /// A plain sine.
        case sine
        /// A plucked string: decaying partials, the upper ones slightly sharp (a stiff string).
        case pluck
    }

    /// Peak level of the tone: loud enough to tune by, −10 dBFS of headroom left for the mixer.
    public static let toneLevel = 0.3
    /// Seconds of the raised-cosine fade at both ends of a tone; 20 ms is long enough not to click
    /// (a step at the start of a sine is heard as a click below ~5 ms) and short enough not to blur
    /// the attack.
    public static let toneFade = 0.02
    /// Inharmonicity of the plucked tone: a nylon/steel guitar string's order (B ≈ 1e-5…1e-4);
    /// the first partial stays exactly at the note.
    public static let pluckInharmonicity = 4e-5
    /// Seconds of the plucked tone's rise: a pick's attack is 1–5 ms; the soft end of it, so the
    /// start is a pluck and not a click.
    public static let pluckAttack = 0.005

    /// `seconds` of `frequency` in `timbre` at `rate`.
    public static func tone(_ frequency: Hertz, seconds: Double, timbre: Timbre, rate: Int) -> Sound {
        let count = max(0, Int((seconds * Double(rate)).rounded()))
        var samples: [Float]
        switch timbre {
        case .sine:
            samples = Synth.sine(frequency, seconds: Double(count) / Double(rate), sampleRate: Double(rate),
                                 amplitude: toneLevel, phase: 0)
        case .pluck:
            // Decay of the fundamental to 1/e in about half the tone (at least 0.8 s), so a two-second
            // tone still sounds at its end, where the fade takes it out.
            samples = Synth.Pluck(frequency: frequency, inharmonicity: pluckInharmonicity, partials: 10,
                                  decay: max(0.8, seconds / 2), peak: toneLevel, attack: pluckAttack)
                .render(seconds: Double(count) / Double(rate), sampleRate: Double(rate))
        }
        fade(&samples, in: timbre == .sine ? toneFade : pluckAttack, out: toneFade, rate: rate)
        return Sound(samples: samples, rate: rate)
    }

    /// Peak level of a chime: quiet, a cue beside the music, not over it (−26 dBFS).
    public static let chimeLevel = 0.05

    /// The cue for a note that settled: in tune, two short bright ticks; out of tune, one low dull
    /// knock. Both are made of inharmonic partials (ratios 1 : 2.76 : 5.40, a struck bar's) that die
    /// within 60 ms: a cue with no pitch a tuner — or a player — would take for a note.
    public static func chime(inTune: Bool, rate: Int) -> Sound {
        let r = Double(rate)
        let base = inTune ? 2400.0 : 700.0
        let ticks: [Double] = inTune ? [0, 0.09] : [0]
        let decay = inTune ? 0.012 : 0.02
        let length = Int(((ticks.last ?? 0) + 0.08) * r)
        var out = [Double](repeating: 0, count: length)
        for start in ticks {
            let first = Int(start * r)
            for (ratio, gain) in [(1.0, 1.0), (2.76, 0.5), (5.40, 0.25)] where base * ratio < 0.45 * r {
                let w = 2 * Double.pi * base * ratio / r
                for i in first..<length {
                    let t = Double(i - first) / r
                    out[i] += gain * exp(-t / decay) * sin(w * Double(i - first))
                }
            }
        }
        let peak = out.reduce(0) { max($0, abs($1)) }
        var samples = out.map { Float($0 / max(peak, 1e-9) * chimeLevel) }
        fade(&samples, in: 0.001, out: 0.001, rate: rate)
        return Sound(samples: samples, rate: rate)
    }

    /// Raised-cosine fades over the first `in` and the last `out` seconds of `samples`.
    static func fade(_ samples: inout [Float], in fadeIn: Double, out fadeOut: Double, rate: Int) {
        func gain(_ i: Int, _ n: Int) -> Float { Float(0.5 - 0.5 * cos(Double.pi * Double(i) / Double(n))) }
        let first = min(samples.count / 2, Int(fadeIn * Double(rate)))
        for i in 0..<first { samples[i] *= gain(i, first) }
        let last = min(samples.count / 2, Int(fadeOut * Double(rate)))
        for i in 0..<last { samples[samples.count - 1 - i] *= gain(i, last) }
    }
}
