import TunerBridge

/// The plain line said or printed for a settled note (`--announce`, `--speak`):
/// "E2, 4 cents flat", "A2 in tune", "D3, 12 cents sharp", "G3, 1 cent sharp".
///
/// Nothing but words and numbers, for screen readers and braille displays. Cents are rounded to
/// whole cents; under half a cent out of tolerance they keep one decimal ("0.4 cents sharp").
public enum Announcement {
    /// The line for `settled`; with a tuning, the string's note is named as the tuning spells it
    /// ("Eb2" in a half-step-down tuning).
    public static func text(for settled: SettledNote, tuning: Tuning? = nil, system: TargetSystem = .standard) -> String {
        var name = system.name(of: settled.note)
        if let tuning, let index = settled.stringIndex, tuning.labels.indices.contains(index) {
            name = tuning.labels[index]
        }
        return text(name: name, cents: settled.cents, inTune: settled.isInTune)
    }

    /// The line for note `name`, `cents` from it.
    public static func text(name: String, cents: Cents, inTune: Bool) -> String {
        if inTune { return "\(name) in tune" }
        let size = cents.value.magnitude
        let whole = size.rounded()
        let amount: String
        if whole >= 1 {
            amount = whole == 1 ? "1 cent" : "\(Int(whole)) cents"
        } else {
            let tenths = (size * 10).rounded() / 10
            amount = "\(tenths) cents"
        }
        return "\(name), \(amount) \(cents.value < 0 ? "flat" : "sharp")"
    }

    /// The line as a speech synthesiser should say it: "#" read as "sharp", a flat "b" as "flat"
    /// ("D sharp 3, 4 cents flat", "E flat 2 in tune").
    public static func spoken(for settled: SettledNote, tuning: Tuning? = nil, system: TargetSystem = .standard) -> String {
        spoken(line: text(for: settled, tuning: tuning, system: system))
    }

    /// A line as a speech synthesiser should say it, each of its comma-separated parts that starts with a
    /// note name read so: a strum's line (`--poly`) "Eb2 in tune, G#3 4 cents flat, B3 unsteady" is
    /// said "E flat 2 in tune, G sharp 3 4 cents flat, B3 unsteady"; a note's "D#3, 4 cents flat" is
    /// said "D sharp 3, 4 cents flat".
    public static func spoken(line: String) -> String {
        line.components(separatedBy: ", ").map(spokenName).joined(separator: ", ")
    }

    /// `part` with the note name it starts with spoken ("Eb2 in tune" → "E flat 2 in tune").
    private static func spokenName(_ part: String) -> String {
        // The name is a letter (or a solfège syllable: "Sol#3"), an optional accidental, the octave.
        let syllable = part.prefix { $0.isLetter && !($0 == "b" && part.first.map { "ABCDEFGH".contains($0) } == true) }
        guard !syllable.isEmpty else { return part }
        var rest = part.dropFirst(syllable.count)
        var accidental = ""
        if rest.first == "#" { accidental = " sharp"; rest = rest.dropFirst() }
        else if rest.first == "b" { accidental = " flat"; rest = rest.dropFirst() }
        guard !accidental.isEmpty, rest.first?.isNumber == true else { return part }
        return "\(syllable)\(accidental) \(rest)"
    }
}
