/// How notes are written: English letters (the default, with sharps: C, C#, D … B), German (B♭ is
/// `B`, B is `H`) or fixed-do solfège (Do Re Mi Fa Sol La Si). Output is ASCII ("#", "b"); parsing
/// accepts the scheme's names and English ones, sharps `#` `♯` and flats `b` `♭`.
public enum NoteNames: String, Sendable, CaseIterable {
    case english, german, solfege

    /// The twelve pitch-class names from C, with sharps.
    public var pitchClasses: [String] {
        switch self {
        case .english: return ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
        case .german: return ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "B", "H"]
        case .solfege: return ["Do", "Do#", "Re", "Re#", "Mi", "Fa", "Fa#", "Sol", "Sol#", "La", "La#", "Si"]
        }
    }

    /// "F#2", "H3", "Sol4".
    public func name(of note: Note) -> String { pitchClasses[note.pitchClass] + String(note.octave) }

    /// Parses a note written in this scheme or in English ("Sol3", "H2", "Bb1", "E♭2"). In German a
    /// `B` is B♭ and `H` is B. Nil when it is not a note.
    public func parse(_ text: String) -> Note? {
        let trimmed = text.trimmingCharacters(in: " \t")
        var bases: [(String, Int)] = [("C", 0), ("D", 2), ("E", 4), ("F", 5), ("G", 7), ("A", 9)]
        switch self {
        case .english: bases.append(("B", 11))
        case .german: bases += [("B", 10), ("H", 11)]
        case .solfege:
            bases.append(("B", 11))
            bases = [("Sol", 7), ("Do", 0), ("Re", 2), ("Mi", 4), ("Fa", 5), ("La", 9), ("Si", 11)] + bases
        }
        for (name, semitone) in bases where trimmed.lowercased().hasPrefix(name.lowercased()) {
            var rest = Substring(trimmed.dropFirst(name.count))
            var value = semitone
            while let c = rest.first, "#♯b♭".contains(c) {
                value += (c == "#" || c == "♯") ? 1 : -1
                rest.removeFirst()
            }
            guard !rest.isEmpty, let octave = Int(rest), (-1...9).contains(octave) else { continue }
            return Note(midi: (octave + 1) * 12 + value)
        }
        return nil
    }
}

extension String {
    func trimmingCharacters(in set: String) -> Substring {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return s
    }
}
