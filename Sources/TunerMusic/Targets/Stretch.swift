#if canImport(Glibc)
import Glibc
#endif

/// `--stretch`: how far each twelve-tone target lies from its place in the temperament, in cents,
/// the way a piano is tuned with octaves wider than 2:1 (a "stretch" or "Railsback" curve; Railsback
/// 1938 measured it on pianos tuned by ear). `TargetSystem` adds it to every target, so the screen,
/// text, JSON Lines, `--announce`, `--expect` and `--tone` all follow it.
public enum Stretch: String, Sendable, CaseIterable {
    /// No stretch: the temperament's own targets.
    case none
    /// A piano's stretch curve from the inharmonicity of its strings (`PianoStretch`).
    case piano

    /// Cents this stretch adds to the target of MIDI note `midi` (0 at A4 = MIDI 69).
    public func cents(atMIDI midi: Int) -> Double {
        switch self {
        case .none: return 0
        case .piano: return PianoStretch.cents(atMIDI: midi)
        }
    }
}

/// The piano's stretch curve, worked out from a model of its strings' inharmonicity, the way an aural
/// tuner makes it: octaves tuned beatless between partials that are themselves sharp.
///
/// 1. **Inharmonicity per note.** A stiff string's partial n lies at n·f1·sqrt((1 + B·n²)/(1 + B))
///    (H. Fletcher, JASA 36(1), 1964; Fletcher & Rossing, *The Physics of Musical Instruments*, 2nd
///    ed. 1998, ch. 12).
///    B per MIDI note m is modelled as the sum of a bass and a treble exponential, the form Rigaud,
///    David & Daudet fit to measured pianos (JASA 133(5), 2013):
///        B(m) = 5·10⁻⁴ · 2^(−(m − 21)/6) + 1·10⁻⁴ · 2^((m − 48)/7.9)
///    The parameters are ours, set from published magnitudes: B ≈ 3·10⁻⁴ … 10⁻³ on a piano's lowest
///    strings (A0: 5.1·10⁻⁴), a minimum near 10⁻⁴ in the low tenor (A2: 1.1·10⁻⁴), and 7.5·10⁻⁴
///    measured at A4 on a Steinway B (daffy.uah.edu/piano, "Inharmonicity"; the model gives 6.3·10⁻⁴),
///    rising toward 10⁻² at the top.
/// 2. **Octaves.** Each octave between two As is tuned beatless between partial 2p of the lower A and
///    partial p of the upper one, so it is wider than 1200 ¢ by
///        w = 1200·log2(2p·s(2p, B_low)) − 1200·log2(p·s(p, B_high)) − 1200,  s(n, B) = sqrt((1 + B·n²)/(1 + B))
///    with p = 1 (2:1 octaves: the lower note's 2nd partial on the upper fundamental) from A3 up, p = 2
///    (4:2) for A1–A2 and A2–A3, p = 3 (6:3) for A0–A1: tuners listen to higher partials in the bass,
///    where the fundamentals are weak.
/// 3. **Notes.** A4 stays at 0 ¢ (it keeps `--a4`); each A above or below is its neighbour's offset plus
///    or minus that octave's w; the notes between two As are spaced evenly in cents.
///
/// Resulting offsets (¢): A0 −17.3, A1 −3.1, A2 −1.4, A3 −0.6, C4 −0.4, A4 0, A5 +1.6, A6 +6.3,
/// A7 +19.6, C8 +28.9: the shape of Railsback's averaged curve (reproduced in Fletcher & Rossing, ch. 12),
/// within ±1 ¢ over the middle three octaves and reaching about 30 ¢ at the keyboard's ends; tuners'
/// own C8 figures run higher (+35 ¢ on a Steinway B, +44 ¢ on a D: PTG list, CAUT, February 2007).
public enum PianoStretch {
    /// The model's inharmonicity coefficient B of MIDI note `midi` (item 1 above).
    public static func inharmonicity(atMIDI midi: Double) -> Double {
        5e-4 * exp2(-(midi - 21) / 6) + 1e-4 * exp2((midi - 48) / 7.9)
    }

    /// The partial p of the upper note the octave from the A at `lowerA` is matched on (item 2).
    static func partialOrder(lowerA: Int) -> Double {
        lowerA >= 57 ? 1 : (lowerA >= 33 ? 2 : 3)
    }

    /// How much wider than 1200 ¢ the octave from the A at `lowerA` to the A above it is tuned (item 2).
    public static func octaveWidening(lowerA: Int) -> Double {
        let p = partialOrder(lowerA: lowerA)
        func partial(_ n: Double, _ B: Double) -> Double { 1200 * log2(n * ((1 + B * n * n) / (1 + B)).squareRoot()) }
        return partial(2 * p, inharmonicity(atMIDI: Double(lowerA)))
            - partial(p, inharmonicity(atMIDI: Double(lowerA + 12))) - 1200
    }

    /// The offset of every A from A0 to A8 (MIDI 21, 33, … 117), A4 = MIDI 69 at 0 ¢: worked out once.
    static let offsetsOfAs: [Int: Double] = {
        var offsets = [69: 0.0]
        for a in stride(from: 81, through: 117, by: 12) { offsets[a] = offsets[a - 12]! + octaveWidening(lowerA: a - 12) }
        for a in stride(from: 57, through: 21, by: -12) { offsets[a] = offsets[a + 12]! - octaveWidening(lowerA: a) }
        return offsets
    }()

    /// The offset of MIDI note `midi` as shown in help and listings: "−17.3", "+28.9" (tenths of a cent).
    public static func label(atMIDI midi: Int) -> String {
        let tenths = (cents(atMIDI: midi) * 10).rounded() / 10
        return (tenths < 0 ? "−" : "+") + String(abs(tenths))
    }

    /// The keyboard: A0 (MIDI 21) … C8 (MIDI 108). Notes beyond it keep the offset of its end.
    public static let keys = 21...108

    /// Cents above its equal-tempered place of MIDI note `midi`: between two As, evenly spaced.
    public static func cents(atMIDI note: Int) -> Double {
        let midi = min(max(note, keys.lowerBound), keys.upperBound)
        let lowerA = 9 + 12 * Int((Double(midi - 9) / 12).rounded(.down))
        guard let low = offsetsOfAs[lowerA], let high = offsetsOfAs[lowerA + 12] else { return 0 }
        return low + (high - low) * Double(midi - lowerA) / 12
    }
}
