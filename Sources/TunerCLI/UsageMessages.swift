import TunerBridge
import TunerMusic

/// The words for what the lower layers report as data: the CLI is the one place that phrases them.
enum UsageMessages {
    /// How to write a note: "a letter A to G, an optional sharp (# or ♯) or flat (b or ♭), and an
    /// octave from 0 to 9".
    static let noteSyntax = "a letter A to G, an optional sharp (# or ♯) or flat (b or ♭), and an octave from "
        + "\(Limits.octaves.lowerBound) to \(Limits.octaves.upperBound)"

    /// A note that parsed but lies outside `Limits.notes`: octave 9 stops at G9 (MIDI 127), so G#9…B9
    /// are refused as out of range rather than as "not a note".
    static func outOfRange(_ word: String, _ note: Note) -> String {
        let lowest = Note(midi: Limits.notes.lowerBound), highest = Note(midi: Limits.notes.upperBound)
        return note.midi > Limits.notes.upperBound
            ? "\"\(word)\" is above \(highest), the highest note: use a note from \(lowest) to \(highest)"
            : "\"\(word)\" is below \(lowest), the lowest note: use a note from \(lowest) to \(highest)"
    }

    /// A broken Scala file: "Error: meantone.scl:7: "3/0" is not a ratio …" (without "Error: ").
    static func message(for error: ScalaError) -> String {
        let place = error.line.map { "\(error.file):\($0)" } ?? error.file
        let what: String
        switch error.kind {
        case .empty:
            what = "the file is empty: a Scala scale is a description line, the number of notes, then one pitch "
                + "per line (see https://www.huygens-fokker.org/scala/scl_format.html)"
        case .badCount(let text):
            what = "\"\(text)\" is not a number of notes: the line after the description gives how many pitches follow"
        case .noPeriod:
            what = "a scale of 0 notes has no period: list at least the period, e.g. 2/1"
        case .tooManyNotes(let count):
            what = "\(count) notes is too many: a scale has at most \(Limits.scaleDegrees.upperBound) notes per period"
        case .wrongCount(let expected, let found):
            what = "the file says \(expected) note\(expected == 1 ? "" : "s") but lists \(found) pitch\(found == 1 ? "" : "es"); "
                + "make the count match the pitch lines"
        case .notAPitch(let text):
            what = "\"\(text)\" is not a pitch: write cents with a '.' (e.g. 386.314) or a ratio (e.g. 5/4 or 2)"
        case .notARatio(let text):
            what = "\"\(text)\" is not a ratio: both numbers must be positive whole numbers, e.g. 5/4"
        case .outsidePeriod(let text):
            what = "\"\(text)\" is not between the root and the period: list pitches above 0 cents and below the "
                + "last line's period"
        case .badMapping(let field, let text):
            what = text.isEmpty ? "the keyboard mapping has no \(field) line"
                : "\"\(text)\" is not a valid \(field) for a keyboard mapping"
        case .firstAboveLast(let first, let last):
            what = "the last note to retune (\(last)) is below the first (\(first)): give first ≤ last, MIDI 0…127"
        case .beyondScale(let degree, let count):
            what = "degree \(degree) is beyond the scale, which has degrees 0…\(count - 1) (the formal octave may "
                + "also be \(count) or 0, the period)"
        case .tooManyEntries(let size):
            what = "more map entries than the map size \(size): raise the size (line 1) or remove entries"
        case .unmappedReference(let note):
            what = "the reference note \(note) is unmapped ('x' or missing from the map): map it to a degree or "
                + "choose a mapped note"
        }
        return "\(place): \(what)"
    }

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
        case .outOfRange(let word, let note):
            return "\(outOfRange(word, note)), \(example)"
        case .tooManyStrings(let count):
            return "\(count) strings is too many: a tuning has at most \(Tuning.maximumStrings) strings; "
                + "list one note per string, \(example)"
        }
    }
}
