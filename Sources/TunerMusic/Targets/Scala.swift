import TunerBridge
#if canImport(Glibc)
import Glibc
#endif

/// Why a Scala file was refused, as data (the CLI words it): the file, the line (1-based) and what is
/// wrong there.
public struct ScalaError: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// No description line: the file is empty or holds only comments.
        case empty
        /// The line after the description is not a count of notes.
        case badCount(String)
        /// A count of 0: a scale needs at least its period.
        case noPeriod
        /// More notes than `Limits.scaleDegrees` allows.
        case tooManyNotes(Int)
        /// The count says `expected` pitches; the file lists `found`.
        case wrongCount(expected: Int, found: Int)
        /// A pitch that is neither cents (with a '.') nor a ratio.
        case notAPitch(String)
        /// A ratio that is zero, negative or has a zero denominator.
        case notARatio(String)
        /// A pitch at or above the period (the last pitch), or at or below the root.
        case outsidePeriod(String)
        /// A keyboard mapping line that is not the number it must be (the field is named).
        case badMapping(field: String, text: String)
    }
    public var file: String
    /// 1-based line number; nil when the problem is the file as a whole (e.g. empty).
    public var line: Int?
    public var kind: Kind

    public init(file: String, line: Int?, kind: Kind) {
        self.file = file
        self.line = line
        self.kind = kind
    }
}

/// Scala files (https://www.huygens-fokker.org/scala/scl_format.html): a scale (`.scl`) and a keyboard
/// mapping (`.kbm`), read from their text.
public enum Scala {
    /// Reads a `.scl`: `!` lines are comments; the first other line is the description, the next the
    /// number of pitches, then one pitch per line — cents when it contains a '.', else a ratio `n/d` or
    /// an integer `n` (= n/1); anything after the pitch on its line is ignored. The last pitch is the
    /// period; the root (0 ¢) is implied. `name` is what the status line calls it (the file's name).
    public static func scale(text: String, file: String, name: String) throws(ScalaError) -> Temperament {
        let lines = contentLines(text)
        guard lines.contains(where: { !firstWord($0.text).isEmpty }) else {
            throw ScalaError(file: file, line: nil, kind: .empty)
        }
        guard lines.count >= 2 else { throw ScalaError(file: file, line: nil, kind: .wrongCount(expected: 1, found: 0)) }
        let (countLine, countText) = lines[1]
        guard let count = Int(firstWord(countText)), count >= 0 else {
            throw ScalaError(file: file, line: countLine, kind: .badCount(firstWord(countText)))
        }
        if count == 0 { throw ScalaError(file: file, line: countLine, kind: .noPeriod) }
        guard count <= Limits.scaleDegrees.upperBound else {
            throw ScalaError(file: file, line: countLine, kind: .tooManyNotes(count))
        }
        let pitchLines = Array(lines.dropFirst(2))
        guard pitchLines.count == count else {
            throw ScalaError(file: file, line: pitchLines.count > count ? pitchLines[count].number : nil,
                             kind: .wrongCount(expected: count, found: pitchLines.count))
        }
        var cents: [Double] = []
        for (number, text) in pitchLines {
            let word = firstWord(text)
            guard let value = pitch(word) else {
                let isRatio = !word.contains(".") && word.split(separator: "/").count <= 2
                    && word.split(separator: "/").allSatisfy { Int($0) != nil }
                throw ScalaError(file: file, line: number, kind: isRatio && !word.isEmpty ? .notARatio(word) : .notAPitch(word))
            }
            cents.append(value)
        }
        let period = cents.removeLast()
        guard period > 0 else {
            throw ScalaError(file: file, line: pitchLines[count - 1].number,
                             kind: .outsidePeriod(firstWord(pitchLines[count - 1].text)))
        }
        for (i, value) in cents.enumerated() where !(value > 0 && value < period) {
            throw ScalaError(file: file, line: pitchLines[i].number, kind: .outsidePeriod(firstWord(pitchLines[i].text)))
        }
        return Temperament(name: name, degrees: [0] + cents.sorted(), period: period)
    }

    /// What a keyboard mapping (`.kbm`) sets: the MIDI note of the scale's degree 0 (its "middle note"),
    /// and the reference note and its frequency. The mapping itself is taken as linear (key k plays
    /// degree k − middle), which is what the lines after the header of most published `.kbm` files say.
    public struct KeyboardMapping: Equatable, Sendable {
        public var middleNote: Int
        public var referenceNote: Int
        public var referenceFrequency: Hertz
    }

    /// Reads the header of a `.kbm`: map size, first and last note, middle note, reference note,
    /// reference frequency, formal octave degree (`!` lines are comments).
    public static func mapping(text: String, file: String) throws(ScalaError) -> KeyboardMapping {
        let lines = contentLines(text).filter { !firstWord($0.text).isEmpty }
        let fields = ["map size", "first note", "last note", "middle note", "reference note", "reference frequency",
                      "formal octave"]
        guard !lines.isEmpty else { throw ScalaError(file: file, line: nil, kind: .empty) }
        var values: [Double] = []
        for (index, field) in fields.enumerated() {
            guard index < lines.count else {
                throw ScalaError(file: file, line: nil, kind: .badMapping(field: field, text: ""))
            }
            let word = firstWord(lines[index].text)
            let isNote = field.hasSuffix("note")
            guard let value = Double(word), value.isFinite,
                  field == "reference frequency" ? value > 0 : value == value.rounded() && value >= 0,
                  !isNote || (0...127).contains(Int(value)) else {
                throw ScalaError(file: file, line: lines[index].number, kind: .badMapping(field: field, text: word))
            }
            values.append(value)
        }
        return KeyboardMapping(middleNote: Int(values[3]), referenceNote: Int(values[4]),
                               referenceFrequency: Hertz(values[5]))
    }

    /// A pitch word in cents: "386.314" (cents), "5/4" or "2" (ratios); nil when it is neither or the
    /// ratio is not positive.
    static func pitch(_ word: String) -> Double? {
        if word.contains(".") {
            guard let cents = Double(word), cents.isFinite else { return nil }
            return cents
        }
        let parts = word.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let n = Double(parts[0]), n == n.rounded() else { return nil }
        let d = parts.count == 2 ? Double(parts[1]) : 1
        guard let d, d == d.rounded(), n > 0, d > 0 else { return nil }
        return 1200 * log2(n / d)
    }

    /// The lines that are not comments, with their 1-based numbers.
    static func contentLines(_ text: String) -> [(number: Int, text: String)] {
        var out: [(number: Int, text: String)] = []
        var number = 0
        // "\r\n" is one Character (and a newline) in Swift, so CRLF files split as LF ones do.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let trimmed = String(line)
            if trimmed.hasPrefix("!") { continue }
            // Only the description may be blank; blank lines elsewhere are skipped (as Scala does).
            if out.isEmpty || !trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) { out.append((number, trimmed)) }
        }
        // A final newline leaves an empty last line: not a line of the file.
        if let last = out.last, last.text.isEmpty, out.count > 1 { out.removeLast() }
        return out
    }

    static func firstWord(_ text: String) -> String {
        String(text.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
}
