import TunerBridge
#if canImport(Glibc)
import Glibc
#endif

/// A scale as a table of intervals: the cents of each degree above the root within one period (degree
/// 0 is the root, 0 ¢), and the period (1200 ¢, an octave, for every built-in). Twelve degrees make a
/// temperament of the twelve notes; other counts (19edo, a Scala file) make scales of their own.
///
/// The built-ins are the temperaments tuners are asked for, built from their fifths (or ratios) so
/// that each value is exact; `TemperamentTests` checks every one against published cents.
public struct Temperament: Sendable, Equatable {
    /// The name shown in the status line and accepted by `--temperament` ("meantone", "19edo", a file).
    public var name: String
    /// Cents above the root of each degree, degree 0 first (0 ¢), ascending, all below `period`.
    public let degrees: [Double]
    /// The interval at which the scale repeats, in cents.
    public let period: Double
    /// True for twelve-tone equal temperament, the default: every degree exactly 100·d cents. Worked out
    /// once here, so that asking it per reading costs nothing.
    public let isEqual12: Bool

    public init(name: String, degrees: [Double], period: Double = 1200) {
        self.name = name
        self.degrees = degrees
        self.period = period
        self.isEqual12 = degrees.count == 12 && period == 1200
            && degrees.enumerated().allSatisfy { $0.element == Double($0.offset) * 100 }
    }

    /// Degrees per period.
    public var count: Int { degrees.count }

    /// Cents above the root of degree `j` counted from the root (any integer: −1 is the degree below it).
    public func position(_ j: Int) -> Double {
        let n = count
        let period = Int((Double(j) / Double(n)).rounded(.down))
        return Double(period) * self.period + degrees[j - period * n]
    }

    // MARK: Built-ins

    /// `equal`: twelve-tone equal temperament.
    public static let equal = edo(12, name: "equal")

    /// `NNedo`: N equal divisions of the octave.
    public static func edo(_ n: Int, name: String? = nil) -> Temperament {
        Temperament(name: name ?? "\(n)edo", degrees: (0..<n).map { Double($0) * 1200 / Double(n) })
    }

    /// A twelve-note temperament from a chain of fifths: the notes from `lowest` fifths below the root
    /// to 11 − `lowest` above it, each fifth `fifth` cents wide (reduced into the octave).
    static func chain(_ name: String, fifth: Double, lowest: Int = 3) -> Temperament {
        var degrees = [Double](repeating: 0, count: 12)
        for k in -lowest...(11 - lowest) {
            let semitone = ((7 * k) % 12 + 12) % 12
            let cents = Double(k) * fifth
            degrees[semitone] = cents - 1200 * (cents / 1200).rounded(.down)
        }
        return Temperament(name: name, degrees: degrees)
    }

    /// A twelve-note temperament from the widths of the twelve fifths of the circle C–G–D–A–E–B–F#–
    /// C#–G#–D#–A#–F–C, given as how much each is narrower than pure (in fractions of a comma).
    static func circle(_ name: String, narrowedBy fractions: [Double], comma: Double) -> Temperament {
        let pure = 1200 * log2(1.5)
        var degrees = [Double](repeating: 0, count: 12)
        var cents = 0.0
        for (k, fraction) in fractions.enumerated().dropLast() {
            cents += pure - fraction * comma
            cents -= 1200 * (cents / 1200).rounded(.down)
            degrees[(7 * (k + 1)) % 12] = cents
        }
        return Temperament(name: name, degrees: degrees)
    }

    /// A twelve-note scale of just ratios.
    static func ratios(_ name: String, _ ratios: [(Double, Double)]) -> Temperament {
        Temperament(name: name, degrees: ratios.map { 1200 * log2($0.0 / $0.1) })
    }

    /// The Pythagorean comma (531441/524288) and the syntonic comma (81/80), in cents.
    static let pythagoreanComma = 1200 * log2(531441.0 / 524288)
    static let syntonicComma = 1200 * log2(81.0 / 80)

    /// Every built-in, in the order `--list-tunings` shows them.
    public static let builtIns: [Temperament] = [
        equal,
        chain("pythagorean", fifth: 1200 * log2(1.5)),
        chain("meantone", fifth: 1200 * log2(1.5) - syntonicComma / 4),
        chain("sixth-comma-meantone", fifth: 1200 * log2(1.5) - syntonicComma / 6),
        // Werckmeister III: C–G, G–D, D–A and B–F# narrowed by 1/4 Pythagorean comma, the rest pure.
        circle("werckmeister3", narrowedBy: [0.25, 0.25, 0.25, 0, 0, 0.25, 0, 0, 0, 0, 0, 0], comma: pythagoreanComma),
        // Kirnberger III: C–G–D–A–E narrowed by 1/4 syntonic comma, F#–C# by a schisma, the rest pure.
        kirnberger3,
        // Vallotti: F–C–G–D–A–E–B narrowed by 1/6 Pythagorean comma, the rest pure.
        circle("vallotti", narrowedBy: [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1].map { $0 / 6 }, comma: pythagoreanComma),
        // Young (1799, his second): C–G–D–A–E–B–F# narrowed by 1/6 Pythagorean comma, the rest pure.
        circle("young", narrowedBy: [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0].map { $0 / 6 }, comma: pythagoreanComma),
        ratios("just", [(1, 1), (16, 15), (9, 8), (6, 5), (5, 4), (4, 3), (45, 32), (3, 2), (8, 5), (5, 3), (9, 5), (15, 8)]),
    ]

    /// Kirnberger III from its pure intervals: E is a pure major third (5/4) above C, the fifths C–G–D–A–E
    /// share the syntonic comma, G#, C#, F# and B come by pure fifths/thirds as Kirnberger gave them.
    static let kirnberger3: Temperament = {
        let pure = 1200 * log2(1.5)
        let third = 1200 * log2(1.25)
        let tempered = (4 * pure - 2400 - third) / 4  // how much each of the four fifths is narrowed
        func reduce(_ c: Double) -> Double { c - 1200 * (c / 1200).rounded(.down) }
        var d = [Double](repeating: 0, count: 12)
        d[7] = pure - tempered              // G
        d[2] = reduce(2 * d[7])             // D
        d[9] = reduce(d[2] + d[7])          // A
        d[4] = third                        // E
        d[11] = reduce(d[4] + pure)         // B
        d[6] = reduce(d[11] + pure)         // F#  (B–F# pure)
        d[5] = reduce(-pure)                // F   (F–C pure)
        d[10] = reduce(d[5] - pure)         // Bb
        d[3] = reduce(d[10] - pure)         // Eb
        d[8] = reduce(d[3] - pure)          // Ab
        d[1] = reduce(d[8] - pure)          // Db  (Db–Ab pure); F#–Db takes the schisma
        return Temperament(name: "kirnberger3", degrees: d)
    }()

    /// The built-in `name` ("meantone", "Meantone", "19edo"); nil when there is none.
    public static func named(_ name: String) -> Temperament? {
        let wanted = name.lowercased()
        if let found = builtIns.first(where: { $0.name == wanted }) { return found }
        if wanted.hasSuffix("edo"), let n = Int(wanted.dropLast(3)), Limits.edo.contains(n) { return edo(n) }
        return nil
    }
}
