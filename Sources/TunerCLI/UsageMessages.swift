import TunerBridge
import TunerMusic

/// The words for what the lower layers report as data: the CLI is the one place that phrases them.
enum UsageMessages {
    /// How to write a note: "a letter A to G, an optional sharp (# or ♯) or flat (b or ♭), and an
    /// octave from 0 to 9".
    static let noteSyntax = "a letter A to G, an optional sharp (# or ♯) or flat (b or ♭), and an octave from "
        + "\(Limits.octaves.lowerBound) to \(Limits.octaves.upperBound)"

    /// Why `--tuning` was refused and how to fix it.
    static func message(for error: TuningError) -> String {
        let example = "e.g. --tuning \"D2 A2 D3 G3 B3 E4\""
        switch error {
        case .empty:
            return "the tuning is empty: give a preset name (see --list-tunings) or the strings' notes, "
                + "lowest string first, \(example)"
        case .unknownNote(let word):
            return "\"\(word)\" is not a note: write \(noteSyntax), \(example)"
        case .unknownName(let word):
            return "unknown tuning \"\(word)\": use a preset name (see --list-tunings) or a list of notes, "
                + example
        case .tooManyStrings(let count):
            return "\(count) strings is too many: a tuning has at most \(Tuning.maximumStrings) strings; "
                + "list one note per string, \(example)"
        }
    }
}
