import TunerBridge

/// The built-in tunings for `--tuning NAME` and `--list-tunings`.
///
/// Short names are lower case with hyphens (instrument first where the bare name would be
/// ambiguous: "bass5", "baritone-ukulele"); aliases cover common spellings. Notes are in string
/// order (see `Tuning`), spelled as players write them.
extension Tuning {
    public static let presets: [Tuning] = [
        preset("guitar", "Guitar, standard", "E2 A2 D3 G3 B3 E4",
               aliases: ["standard", "guitar-standard", "e-standard", "guitar6"]),
        preset("half-step-down", "Guitar, half-step down (Eb standard)", "Eb2 Ab2 Db3 Gb3 Bb3 Eb4",
               aliases: ["half-step", "eb-standard", "e-flat"]),
        preset("drop-d", "Guitar, drop D", "D2 A2 D3 G3 B3 E4"),
        preset("drop-c", "Guitar, drop C", "C2 G2 C3 F3 A3 D4"),
        preset("dadgad", "Guitar, DADGAD", "D2 A2 D3 G3 A3 D4"),
        preset("open-g", "Guitar, open G", "D2 G2 D3 G3 B3 D4"),
        preset("open-d", "Guitar, open D", "D2 A2 D3 F#3 A3 D4"),
        preset("open-e", "Guitar, open E", "E2 B2 E3 G#3 B3 E4"),
        preset("guitar7", "7-string guitar, standard", "B1 E2 A2 D3 G3 B3 E4",
               aliases: ["7-string", "seven-string"]),
        preset("bass", "Bass, 4 strings", "E1 A1 D2 G2", aliases: ["bass4"]),
        preset("bass5", "Bass, 5 strings (low B)", "B0 E1 A1 D2 G2"),
        preset("bass6", "Bass, 6 strings", "B0 E1 A1 D2 G2 C3"),
        preset("ukulele", "Ukulele, GCEA (re-entrant high G)", "G4 C4 E4 A4", aliases: ["uke", "soprano-ukulele"]),
        preset("baritone-ukulele", "Baritone ukulele, DGBE", "D3 G3 B3 E4", aliases: ["baritone-uke", "bari-uke"]),
        preset("violin", "Violin", "G3 D4 A4 E5", aliases: ["fiddle"]),
        preset("viola", "Viola", "C3 G3 D4 A4"),
        preset("cello", "Cello", "C2 G2 D3 A3", aliases: ["violoncello"]),
        preset("mandolin", "Mandolin (one note per course)", "G3 D4 A4 E5"),
        preset("banjo", "Banjo, open G (short 5th string first)", "G4 D3 G3 B3 D4",
               aliases: ["banjo-open-g", "banjo5"]),
    ]

    /// The text of `--list-tunings`: one preset a line (name, notes, description), then how to
    /// give a custom tuning.
    public static var listing: String {
        let nameWidth = presets.map { ($0.key ?? "").count }.max() ?? 0
        let notesWidth = presets.map { $0.description.count }.max() ?? 0
        var lines = ["Tunings (--tuning NAME), strings in order from the lowest-pitched side:"]
        for preset in presets {
            let key = preset.key ?? ""
            var line = "  " + key.padding(nameWidth) + "  " + preset.description.padding(notesWidth)
                + "  " + preset.name
            if !preset.aliases.isEmpty { line += " (also: " + preset.aliases.joined(separator: ", ") + ")" }
            lines.append(line)
        }
        lines.append("Custom: --tuning \"D2 A2 D3 G3 B3 E4\" — one note per string (at most "
                     + "\(maximumStrings)), sharps # or ♯, flats b or ♭.")
        lines.append("Target frequencies follow --a4 (default 440 Hz). Without --tuning: chromatic, nearest note.")
        lines.append("")
        lines.append("Temperaments (--temperament NAME, on --root, default C):")
        let width = Temperament.builtIns.map(\.name.count).max() ?? 0
        for t in Temperament.builtIns {
            let cents = t.degrees.map { String(($0 * 10).rounded() / 10) }.joined(separator: " ")
            lines.append("  " + t.name.padding(width) + "  " + cents)
        }
        lines.append("  NNedo: N equal divisions of the octave, \(Limits.edo.lowerBound)…\(Limits.edo.upperBound) "
                     + "(e.g. 19edo, 24edo, 31edo); FILE.scl: a Scala scale (with --kbm FILE.kbm).")
        lines.append("Transposing instruments (--transpose KEY): "
                     + Transposition.keys.map { "\($0.name) (\($0.semitones))" }.joined(separator: ", ")
                     + ", or a signed number of semitones.")
        lines.append("Note names (--names): " + NoteNames.allCases.map { "\($0.rawValue) (" + $0.pitchClasses.joined(separator: " ") + ")" }
                        .joined(separator: "; ") + ".")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A preset from a table row; the table is checked by the tests, so a typo fails them.
    private static func preset(_ key: String, _ name: String, _ notes: String, aliases: [String] = []) -> Tuning {
        let words = noteWords(notes)
        let parsed = words.compactMap { Note(parsing: $0) }
        precondition(parsed.count == words.count, "preset \(key) has a note that does not parse: \(notes)")
        return Tuning(name: name, key: key, aliases: aliases, strings: parsed, labels: words)
    }
}

extension String {
    /// The string padded with spaces to `width` characters (unchanged when longer).
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
