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
        /// The first key to retune is above the last.
        case firstAboveLast(first: Int, last: Int)
        /// A map entry or formal octave that is not a degree of the scale (it has `count` degrees).
        case beyondScale(degree: Int, count: Int)
        /// More map entries than the map size says.
        case tooManyEntries(size: Int)
        /// The reference key plays no degree (`x`, or left out of the map), so the frequency tunes nothing.
        case unmappedReference(note: Int)
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

    /// A keyboard mapping (`.kbm`, https://www.huygens-fokker.org/scala/help.htm#mappings): which scale
    /// degree each MIDI key plays, and the frequency of one key. Keys `first…last` are tuned; the key
    /// `middleNote + i` plays map entry `i mod size`, raised by `floor(i / size)` formal octaves; an
    /// entry nil (`x` in the file, or missing at the end of the map) leaves its keys unmapped. A map of
    /// size 0 is linear: key `middleNote + i` plays degree `i`.
    public struct KeyboardMapping: Equatable, Sendable {
        public var first: Int
        public var last: Int
        public var middleNote: Int
        public var referenceNote: Int
        public var referenceFrequency: Hertz
        /// The degree whose pitch is the repeat interval of the map (0: the scale's period).
        public var octaveDegree: Int
        /// One entry per key of the pattern (empty: linear); nil is an unmapped key.
        public var entries: [Int?]

        public init(first: Int = 0, last: Int = 127, middleNote: Int, referenceNote: Int, referenceFrequency: Hertz,
                    octaveDegree: Int = 0, entries: [Int?] = []) {
            self.first = first
            self.last = last
            self.middleNote = middleNote
            self.referenceNote = referenceNote
            self.referenceFrequency = referenceFrequency
            self.octaveDegree = octaveDegree
            self.entries = entries
        }

        /// True for a map of size 0: every key plays the next degree.
        public var isLinear: Bool { entries.isEmpty }

        /// Cents above degree 0 (at the middle note) of what MIDI `key` plays in `scale`; nil when the
        /// map leaves it unmapped. Ignores `first…last` (the reference key may lie outside them).
        public func cents(ofKey key: Int, in scale: Temperament) -> Double? {
            let i = key - middleNote
            guard !isLinear else { return scale.position(i) }
            let size = entries.count
            let repeats = Int((Double(i) / Double(size)).rounded(.down))
            guard let degree = entries[i - repeats * size] else { return nil }
            let octave = octaveDegree == 0 ? scale.period : scale.position(octaveDegree)
            return scale.position(degree) + Double(repeats) * octave
        }
    }

    /// The largest map: one entry per MIDI key; a larger pattern could never repeat on a keyboard.
    public static let maxMapSize = 128

    /// Reads a `.kbm` for `scale`: `!` lines are comments; then map size, first and last MIDI note to
    /// retune, middle note (where the first entry is), reference note, reference frequency, the degree
    /// of the formal octave, and up to `map size` entries (a degree of the scale, or `x` for an
    /// unmapped key; entries left out are unmapped).
    public static func mapping(text: String, file: String, scale: Temperament) throws(ScalaError) -> KeyboardMapping {
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
            guard let value = DecimalNumber.parse(word),
                  field == "reference frequency" ? value > 0 : value == value.rounded() && value >= 0,
                  !isNote || (0...127).contains(Int(value)),
                  field != "map size" || value <= Double(maxMapSize) else {
                throw ScalaError(file: file, line: lines[index].number, kind: .badMapping(field: field, text: word))
            }
            values.append(value)
        }
        let size = Int(values[0]), first = Int(values[1]), last = Int(values[2]), octave = Int(values[6])
        guard first <= last else {
            throw ScalaError(file: file, line: lines[2].number, kind: .firstAboveLast(first: first, last: last))
        }
        guard octave <= scale.count else {
            throw ScalaError(file: file, line: lines[6].number, kind: .beyondScale(degree: octave, count: scale.count))
        }
        let entryLines = lines.dropFirst(fields.count)
        guard entryLines.count <= size else {
            throw ScalaError(file: file, line: entryLines[entryLines.startIndex + size].number,
                             kind: .tooManyEntries(size: size))
        }
        var entries: [Int?] = []
        for (number, text) in entryLines {
            let word = firstWord(text)
            if word == "x" || word == "X" { entries.append(nil); continue }
            guard let degree = Int(word), degree >= 0 else {
                throw ScalaError(file: file, line: number, kind: .badMapping(field: "map entry", text: word))
            }
            guard degree < scale.count else {
                throw ScalaError(file: file, line: number, kind: .beyondScale(degree: degree, count: scale.count))
            }
            entries.append(degree)
        }
        entries += Array(repeating: nil, count: size - entries.count)
        let mapping = KeyboardMapping(first: first, last: last, middleNote: Int(values[3]), referenceNote: Int(values[4]),
                                      referenceFrequency: Hertz(values[5]), octaveDegree: octave, entries: entries)
        guard mapping.cents(ofKey: mapping.referenceNote, in: scale) != nil else {
            throw ScalaError(file: file, line: lines[4].number, kind: .unmappedReference(note: mapping.referenceNote))
        }
        return mapping
    }

    /// A pitch word in cents: "386.314" (cents), "5/4" or "2" (ratios); nil when it is neither or the
    /// ratio is not positive.
    static func pitch(_ word: String) -> Double? {
        if word.contains(".") {
            guard let cents = DecimalNumber.parse(word) else { return nil }
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
