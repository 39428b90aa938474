/// Large letters for the note name, five rows tall, drawn with full blocks: A–G, a sharp sign, the
/// digits and a minus (for octave −1). Every row of a glyph has the same width.
public enum BigGlyphs {
    public static let height = 5

    static let glyphs: [Character: [String]] = [
        "A": [" ███ ", "█   █", "█████", "█   █", "█   █"],
        "B": ["████ ", "█   █", "████ ", "█   █", "████ "],
        "C": [" ████", "█    ", "█    ", "█    ", " ████"],
        "D": ["████ ", "█   █", "█   █", "█   █", "████ "],
        "E": ["█████", "█    ", "████ ", "█    ", "█████"],
        "F": ["█████", "█    ", "████ ", "█    ", "█    "],
        "G": [" ████", "█    ", "█  ██", "█   █", " ████"],
        "♯": [" █ █", "████", " █ █", "████", " █ █"],
        "0": [" ██ ", "█  █", "█  █", "█  █", " ██ "],
        "1": ["  █ ", " ██ ", "  █ ", "  █ ", " ███"],
        "2": ["███ ", "   █", " ██ ", "█   ", "████"],
        "3": ["███ ", "   █", " ██ ", "   █", "███ "],
        "4": ["█  █", "█  █", "████", "   █", "   █"],
        "5": ["████", "█   ", "███ ", "   █", "███ "],
        "6": [" ██ ", "█   ", "███ ", "█  █", " ██ "],
        "7": ["████", "   █", "  █ ", " █  ", " █  "],
        "8": [" ██ ", "█  █", " ██ ", "█  █", " ██ "],
        "9": [" ██ ", "█  █", " ███", "   █", " ██ "],
        "-": ["    ", "    ", "███ ", "    ", "    "],
        "?": ["███ ", "   █", " ██ ", "    ", " █  "],
        // For German (H) and solfège names (DO RE MI FA SOL LA SI), and degrees ("C4+7").
        "H": ["█   █", "█   █", "█████", "█   █", "█   █"],
        "I": ["███", " █ ", " █ ", " █ ", "███"],
        "L": ["█    ", "█    ", "█    ", "█    ", "█████"],
        "M": ["█   █", "██ ██", "█ █ █", "█   █", "█   █"],
        "O": [" ███ ", "█   █", "█   █", "█   █", " ███ "],
        "R": ["████ ", "█   █", "████ ", "█  █ ", "█   █"],
        "S": [" ████", "█    ", " ███ ", "    █", "████ "],
        "+": ["    ", " █  ", "███ ", " █  ", "    "],
    ]

    /// The five rows of `text` (unknown characters as "?"), glyphs one column apart.
    public static func rows(_ text: String) -> [String] {
        let parts = text.map { glyphs[$0] ?? glyphs["?"]! }
        return (0..<height).map { row in parts.map { $0[row] }.joined(separator: " ") }
    }

    /// Columns `rows(text)` takes.
    public static func width(_ text: String) -> Int { rows(text)[0].count }

    /// The note as the big display spells it: "A♯" and the octave with a gap, e.g. "A♯ 2" → rows.
    public static func note(_ name: String, octave: Int) -> [String] {
        let letters = rows(name.replacingOccurrences(of: "#", with: "♯").uppercased())
        let digits = rows(String(octave))
        return zip(letters, digits).map { $0 + "  " + $1 }
    }

    /// A whole written name, "A#2", "Sol4", "H3", or a degree "C4+7": the letters, then the rest with a gap.
    public static func note(_ written: String) -> [String] {
        let letters = written.prefix { !$0.isNumber && $0 != "-" }
        guard let octave = Int(written.dropFirst(letters.count)) else {
            return rows(written.replacingOccurrences(of: "#", with: "♯").uppercased())
        }
        return note(String(letters), octave: octave)
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
