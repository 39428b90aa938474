import TunerBridge

/// An instrument's tuning: the notes its open strings are tuned to, in string order from the
/// lowest-pitched side (the order a player reads them across the neck: "E2 A2 D3 G3 B3 E4").
///
/// Re-entrant tunings keep that order, so it is not always low to high in pitch: ukulele is
/// "G4 C4 E4 A4" and the banjo's short fifth string comes first, "G4 D3 G3 B3 D4".
/// String numbers shown to the player (and the keys 1…9 that lock a string) count in this order
/// from 1; `strings` is indexed from 0.
public struct Tuning: Sendable, Equatable, CustomStringConvertible {
    /// A human name, e.g. "Guitar, drop D", or "Custom" for a note list.
    public var name: String
    /// The preset's short name for `--tuning`, e.g. "drop-d"; nil for a custom tuning.
    public var key: String?
    /// Other short names accepted for the preset.
    public var aliases: [String]
    /// The open strings' notes, in string order.
    public var strings: [Note]
    /// How each string's note is spelled, ASCII ("Eb2", "F#3"): a half-step-down guitar reads
    /// "Eb2 Ab2 …", not "D#2 G#2 …". Same count as `strings`.
    public var labels: [String]

    /// Per-string offsets from the target, in cents (`--offsets`, sweetened tunings); empty: none.
    public var offsets: [Cents] = []
    /// Semitones the strings were raised by a capo (`--capo`); 0 without one.
    public var capo: Int = 0

    /// The offset of string `index` (0 when none was given).
    public func offset(ofString index: Int) -> Cents { offsets.indices.contains(index) ? offsets[index] : Cents(0) }

    /// The tuning with a capo on fret `fret`: every string `fret` semitones higher, labels respelled
    /// (sharps, or `names`).
    public func capo(_ fret: Int, names: NoteNames = .english) -> Tuning {
        guard fret != 0 else { return self }
        var raised = self
        raised.strings = strings.map { Note(midi: $0.midi + fret) }
        raised.labels = raised.strings.map { names.name(of: $0) }
        raised.capo = capo + fret
        return raised
    }

    /// The most strings a tuning may have (a 12-string guitar).
    public static let maximumStrings = 12

    /// A tuning of `strings`; `labels` default to the notes' sharp names.
    public init(name: String, key: String? = nil, aliases: [String] = [], strings: [Note],
                labels: [String]? = nil) {
        self.name = name
        self.key = key
        self.aliases = aliases
        self.strings = strings
        if let labels, labels.count == strings.count {
            self.labels = labels
        } else {
            self.labels = strings.map(\.description)
        }
    }

    /// The target frequency of string `index` (0-based) for reference pitch `a4`.
    public func frequency(ofString index: Int, a4: Hertz = Hertz(440)) -> Hertz {
        strings[index].frequency(a4: a4)
    }

    /// Every string's target frequency for reference pitch `a4`, in string order.
    public func frequencies(a4: Hertz = Hertz(440)) -> [Hertz] {
        strings.map { $0.frequency(a4: a4) }
    }

    /// The strings' spelled notes, e.g. "E2 A2 D3 G3 B3 E4".
    public var description: String { labels.joined(separator: " ") }
}
