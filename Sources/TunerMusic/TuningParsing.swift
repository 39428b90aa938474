import TunerBridge

/// Why a `--tuning` argument was rejected, as data; the CLI words it (TunerCLI's `UsageMessages`).
public enum TuningError: Error, Equatable {
    /// Nothing but spaces or commas.
    case empty
    /// A word in a note list that is not a note (e.g. "H9" in "E2 H9 D3").
    case unknownNote(String)
    /// A single word that is neither a preset name nor a note (e.g. "drop-q").
    case unknownName(String)
    /// More strings than `Tuning.maximumStrings`.
    case tooManyStrings(Int)
    /// A word that is a note, but outside `Limits.notes` (e.g. "G#9", "Cb0"): the word and the note.
    case outOfRange(String, Note)
}

extension Tuning {
    /// The tuning `text` names: a preset's short name or alias (case, spaces, "-" and "_" ignored,
    /// so "Drop D", "drop_d" and "dropd" all mean "drop-d"), or else a custom list of notes,
    /// one per string in string order, separated by spaces or commas ("D2 A2 D3 G3 B3 E4",
    /// "Eb2 Ab2 Db3 Gb3 Bb3 Eb4", "E♭2 …").
    public static func resolve(_ text: String, names: NoteNames = .english) throws(TuningError) -> Tuning {
        if let preset = named(text) { return preset }
        let words = noteWords(text)
        if words.count == 1, names.parse(words[0]) == nil, !words[0].contains(where: \.isNumber) {
            throw .unknownName(words[0])
        }
        return try Tuning(notes: text, names: names)
    }

    /// A custom tuning from a note list ("D2 A2 D3 G3 B3 E4"; sharps # ♯ and flats b ♭ both).
    public init(notes text: String, names: NoteNames = .english) throws(TuningError) {
        let words = Tuning.noteWords(text)
        if words.isEmpty { throw .empty }
        if words.count > Tuning.maximumStrings { throw .tooManyStrings(words.count) }
        var notes: [Note] = []
        var labels: [String] = []
        for word in words {
            guard let note = names.parse(word) else { throw .unknownNote(word) }
            guard Limits.notes.contains(note.midi) else { throw .outOfRange(word, note) }
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
