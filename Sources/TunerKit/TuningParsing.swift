/// Why a `--tuning` argument was rejected; each message says how to fix the input.
public enum TuningError: Error, Equatable, CustomStringConvertible {
    /// Nothing but spaces or commas.
    case empty
    /// A word in a note list that is not a note (e.g. "H9" in "E2 H9 D3").
    case unknownNote(String)
    /// A single word that is neither a preset name nor a note (e.g. "drop-q").
    case unknownName(String)
    /// More strings than `Tuning.maximumStrings`.
    case tooManyStrings(Int)
    /// A note outside `Tuning.playable` (e.g. "G#9", "Cb0"): the word and the sentence saying why.
    case outOfRange(String, reason: String)

    public var description: String {
        let example = "e.g. --tuning \"D2 A2 D3 G3 B3 E4\""
        switch self {
        case .empty:
            return "the tuning is empty: give a preset name (see --list-tunings) or the strings' notes, "
                + "lowest string first, \(example)"
        case .unknownNote(let word):
            return "\"\(word)\" is not a note: write a letter A to G, an optional sharp (# or ♯) "
                + "or flat (b or ♭), and an octave from 0 to 9, \(example)"
        case .unknownName(let word):
            return "unknown tuning \"\(word)\": use a preset name (see --list-tunings) or a list of notes, "
                + example
        case .outOfRange(_, let reason):
            return "\(reason), \(example)"
        case .tooManyStrings(let count):
            return "\(count) strings is too many: a tuning has at most \(Tuning.maximumStrings) strings; "
                + "list one note per string, \(example)"
        }
    }
}

extension Tuning {
    /// The tuning `text` names: a preset's short name or alias (case, spaces, "-" and "_" ignored,
    /// so "Drop D", "drop_d" and "dropd" all mean "drop-d"), or else a custom list of notes,
    /// one per string in string order, separated by spaces or commas ("D2 A2 D3 G3 B3 E4",
    /// "Eb2 Ab2 Db3 Gb3 Bb3 Eb4", "E♭2 …").
    public static func resolve(_ text: String) throws(TuningError) -> Tuning {
        if let preset = named(text) { return preset }
        let words = noteWords(text)
        if words.count == 1, Note(parsing: words[0]) == nil, !words[0].contains(where: \.isNumber) {
            throw .unknownName(words[0])
        }
        return try Tuning(notes: text)
    }

    /// A custom tuning from a note list ("D2 A2 D3 G3 B3 E4"; sharps # ♯ and flats b ♭ both).
    public init(notes text: String) throws(TuningError) {
        let words = Tuning.noteWords(text)
        if words.isEmpty { throw .empty }
        if words.count > Tuning.maximumStrings { throw .tooManyStrings(words.count) }
        var notes: [Note] = []
        var labels: [String] = []
        for word in words {
            guard let note = Note(parsing: word) else { throw .unknownNote(word) }
            if let reason = Tuning.rangeProblem(note, spelled: word) { throw .outOfRange(word, reason: reason) }
            notes.append(note)
            labels.append(Tuning.spelling(of: word))
        }
        self.init(name: "Custom", strings: notes, labels: labels)
    }

    /// The preset called `name` (its key or an alias), or nil.
    public static func named(_ name: String) -> Tuning? {
        let wanted = comparable(name)
        guard !wanted.isEmpty else { return nil }
        return presets.first { preset in
            ([preset.key ?? ""] + preset.aliases).contains { comparable($0) == wanted }
        }
    }

    /// MIDI notes a string may be tuned to: C0 (16 Hz) to G9 (MIDI 127, the top of the MIDI range),
    /// so octave 9 stops at G9: G#9…B9 parse as notes but are out of range.
    static let playable = 12...127

    /// Why a note that parsed lies outside `playable`, in words naming the range; nil when inside.
    public static func rangeProblem(_ note: Note, spelled word: String) -> String? {
        let lowest = Note(midi: playable.lowerBound), highest = Note(midi: playable.upperBound)
        if note.midi > playable.upperBound {
            return "\"\(word)\" is above \(highest), the highest note: use a note from \(lowest) to \(highest)"
        }
        if note.midi < playable.lowerBound {
            return "\"\(word)\" is below \(lowest), the lowest note: use a note from \(lowest) to \(highest)"
        }
        return nil
    }

    /// Words of a note list: split at whitespace and commas.
    static func noteWords(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
    }

    /// A name reduced for comparison: lower case, without spaces, "-" and "_".
    static func comparable(_ name: String) -> String {
        String(name.lowercased().filter { !($0.isWhitespace || $0 == "-" || $0 == "_") })
    }

    /// A parsed note word in the ASCII spelling used in labels: "e♭2" → "Eb2", "f♯3" → "F#3".
    static func spelling(of word: String) -> String {
        var out = ""
        for (i, c) in word.enumerated() {
            if i == 0 { out += c.uppercased() }
            else if c == "♯" { out += "#" }
            else if c == "♭" { out += "b" }
            else { out.append(c) }
        }
        return out
    }
}
