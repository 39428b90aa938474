import TunerBridge
#if canImport(Glibc)
import Glibc
#endif

/// The table of target frequencies, built once from A4, a temperament and its root, an optional
/// reference from a Scala keyboard mapping, a transposition and a naming scheme. It answers "which
/// target is nearest to this frequency, what is it called, how many cents off is it" for every output:
/// the screen, text, JSON Lines, `--announce`, `--speak`, `--expect` and the string checklist.
///
/// Targets are identified by a `Note` whose `midi` is a step of the scale: for twelve-note scales it is
/// the MIDI note (C4 = 60), for others the root's MIDI note plus the degrees counted from it.
///
/// Convention (stated in the README): the note A keeps the A4 frequency (`--a4`) and every other note
/// takes its place from the temperament's intervals above the root. A Scala keyboard mapping's
/// reference note and frequency take the place of A4. Scales of other than twelve notes have no A:
/// their root in octave 4 sits at its equal-tempered frequency for A4 (C4 = 261.63 Hz at 440).
public struct TargetSystem: Sendable, Equatable {
    public var temperament: Temperament
    /// The MIDI note of a root of the scale (degree 0); for twelve notes only its pitch class matters.
    public var root: Int
    /// The note that keeps a given frequency, and that frequency (nil: the A4 of the settings).
    public var reference: (note: Int, frequency: Hertz?)
    public var names: NoteNames
    /// Sounding minus written pitch in semitones: −2 for a B♭ instrument (its written C sounds B♭).
    public var transposition: Int
    /// A stretch curve added to every target of a twelve-note scale (`--stretch piano`).
    public var stretch: Stretch
    /// A Scala keyboard mapping: targets are then the mapped MIDI keys `first…last` (`Note.midi` is the
    /// key), each at the degree the map gives it; unmapped keys are no target.
    public let keyboard: Scala.KeyboardMapping?
    /// With `keyboard`: the cents of each MIDI key 0…127 above degree 0, nil where it is no target.
    private let keyCents: [Double?]

    public init(temperament: Temperament = .equal, root: Int = 60, reference: (note: Int, frequency: Hertz?)? = nil,
                names: NoteNames = .english, transposition: Int = 0, stretch: Stretch = .none) {
        self.init(temperament: temperament, root: root, reference: reference, keyboard: nil, names: names,
                  transposition: transposition, stretch: stretch)
    }

    /// A system whose targets come from a Scala keyboard mapping: its middle note is the root, its
    /// reference note keeps its reference frequency.
    public init(temperament: Temperament, keyboard: Scala.KeyboardMapping, names: NoteNames = .english,
                transposition: Int = 0, stretch: Stretch = .none) {
        self.init(temperament: temperament, root: keyboard.middleNote,
                  reference: (keyboard.referenceNote, keyboard.referenceFrequency), keyboard: keyboard, names: names,
                  transposition: transposition, stretch: stretch)
    }

    private init(temperament: Temperament, root: Int, reference: (note: Int, frequency: Hertz?)?,
                 keyboard: Scala.KeyboardMapping?, names: NoteNames, transposition: Int, stretch: Stretch) {
        self.keyboard = keyboard
        self.keyCents = keyboard.map { map in
            (0...127).map { map.cents(ofKey: $0, in: temperament) }
        } ?? []
        self.temperament = temperament
        self.stretch = stretch
        self.root = root
        self.names = names
        self.transposition = transposition
        self.reference = reference ?? (temperament.count == 12 ? 69 : root, nil)
    }

    public static func == (a: TargetSystem, b: TargetSystem) -> Bool {
        a.temperament == b.temperament && a.root == b.root && a.reference.note == b.reference.note
            && a.reference.frequency == b.reference.frequency && a.names == b.names && a.transposition == b.transposition
            && a.stretch == b.stretch && a.keyboard == b.keyboard
    }

    /// Twelve-tone equal temperament at A4, English names, concert pitch: the tuner without options.
    public static let standard = TargetSystem()

    /// True when the scale has twelve notes per octave, so targets are MIDI notes with letter names.
    public var isTwelveTone: Bool { temperament.count == 12 && temperament.period == 1200 }

    /// The frequency the reference note keeps.
    public func referenceFrequency(a4: Hertz) -> Hertz {
        if let frequency = reference.frequency { return frequency }
        // Other than twelve notes: the root sits at its equal-tempered frequency for A4.
        return isTwelveTone ? a4 : Note(midi: reference.note).frequency(a4: a4)
    }

    /// Cents of target `note` above the root it is counted from, its stretch included (twelve notes).
    public func position(of note: Note) -> Double {
        let stretched = stretch != .none && isTwelveTone ? stretch.cents(atMIDI: note.midi) : 0
        guard keyboard != nil else { return temperament.position(note.midi - root) + stretched }
        // The reference key always has a place (the reader refuses one unmapped); no other key is asked
        // for unless it is a target (`isTarget`).
        guard keyCents.indices.contains(note.midi), let cents = keyCents[note.midi] else { return .nan }
        return cents + stretched
    }

    /// True when `note` is a target: always, unless a keyboard mapping leaves its key out (outside
    /// `first…last`, or unmapped).
    public func isTarget(_ note: Note) -> Bool {
        guard let keyboard else { return true }
        return (keyboard.first...keyboard.last).contains(note.midi) && keyCents[note.midi] != nil
    }

    /// True when targets are named as MIDI keys (C4, D♯4): twelve-note scales, and any scale played
    /// through a keyboard mapping that is not linear (its keys, not its degrees, are what a player reads).
    public var namesKeys: Bool { isTwelveTone || keyboard.map { !$0.isLinear } ?? false }

    /// True when every target is at its twelve-tone equal-tempered place (no table to look up).
    public var isPlainEqual: Bool { temperament.isEqual12 && stretch == .none }

    /// The cents from target `a` up to target `b` (negative when `b` is lower).
    public func interval(from a: Note, to b: Note) -> Cents { Cents(position(of: b) - position(of: a)) }

    /// The frequency of target `note` for A4 = `a4`.
    public func frequency(of note: Note, a4: Hertz = Hertz(440)) -> Hertz {
        let cents = position(of: note) - position(of: Note(midi: reference.note))
        return Hertz(referenceFrequency(a4: a4).value * exp2(cents / 1200))
    }

    /// How far target `note` lies from its equal-tempered place (twelve-note scales), in cents.
    func deviation(of note: Note) -> Double {
        position(of: note) - position(of: Note(midi: reference.note)) - Double(note.midi - reference.note) * 100
    }

    /// The nearest target to `frequency` and the cents from it; nil outside MIDI 0…127 (twelve notes).
    public func nearest(to frequency: Hertz, a4: Hertz = Hertz(440)) -> (note: Note, cents: Cents)? {
        let anchor = referenceFrequency(a4: a4)
        if keyboard != nil { return nearestKey(to: frequency, anchor: anchor) }
        guard isTwelveTone else { return nearestDegree(to: frequency, anchor: anchor) }
        let fractional = Double(reference.note) + 12 * log2(frequency.value / anchor.value)
        let midi = Int(fractional.rounded())
        let equal = 100 * (fractional - Double(midi))
        var best = (note: Note(midi: midi), cents: Cents(equal))
        if !isPlainEqual {
            // A tempered or stretched note lies within ±50 ¢ of its equal place (a piano's stretch is
            // under 30 ¢), so the nearest is this one or a neighbour.
            best.cents = Cents(equal - deviation(of: best.note))
            for other in (midi - 1)...(midi + 1) where other != midi {
                let cents = Double(midi - other) * 100 + equal - deviation(of: Note(midi: other))
                if abs(cents) < best.cents.magnitude.value { best = (Note(midi: other), Cents(cents)) }
            }
        }
        guard (0...127).contains(best.note.midi) else { return nil }
        return best
    }

    /// The nearest mapped key in `first…last` (at most 128 to compare; the table is built once).
    private func nearestKey(to frequency: Hertz, anchor: Hertz) -> (note: Note, cents: Cents)? {
        let p = position(of: Note(midi: reference.note)) + 1200 * log2(frequency.value / anchor.value)
        guard p.isFinite, let keyboard else { return nil }
        var best: (key: Int, cents: Double)?
        for key in keyboard.first...keyboard.last {
            guard let place = keyCents[key] else { continue }
            let cents = p - place - (stretch != .none && isTwelveTone ? stretch.cents(atMIDI: key) : 0)
            if best == nil || abs(cents) < abs(best!.cents) { best = (key, cents) }
        }
        return best.map { (Note(midi: $0.key), Cents($0.cents)) }
    }

    private func nearestDegree(to frequency: Hertz, anchor: Hertz) -> (note: Note, cents: Cents)? {
        let n = temperament.count
        let p = position(of: Note(midi: reference.note)) + 1200 * log2(frequency.value / anchor.value)
        guard p.isFinite else { return nil }
        let base = Int((p / temperament.period).rounded(.down)) * n
        var best = (j: base, distance: Double.infinity)
        for j in (base - 1)...(base + n) {
            let distance = abs(p - temperament.position(j))
            if distance < best.distance { best = (j, distance) }
        }
        return (Note(midi: root + best.j), Cents(p - temperament.position(best.j)))
    }

    // MARK: Names

    /// What target `note` is called, written (ASCII): "A2", with German names "H2", transposed for a B♭
    /// instrument "B2" for a sounding A2; in other scales the period's root and the degree: "C4+7".
    public func name(of note: Note) -> String {
        if namesKeys { return names.name(of: Note(midi: note.midi - transposition)) }
        let (period, degree) = periodAndDegree(of: note)
        let base = names.name(of: Note(midi: root + 12 * period - transposition))
        return degree == 0 ? base : "\(base)+\(degree)"
    }

    /// The target a written name denotes ("C4", in this scheme's names or English; "C4+7" in scales of
    /// other than twelve notes); nil when it is not one.
    public func target(named text: String) -> Note? {
        if namesKeys {
            guard let written = names.parse(text) else { return nil }
            let note = Note(midi: written.midi + transposition)
            return isTarget(note) ? note : nil
        }
        let parts = text.split(separator: "+", maxSplits: 1).map(String.init)
        guard let base = parts.first.flatMap({ names.parse($0) }) else { return nil }
        let concert = base.midi + transposition
        guard ((concert - root) % 12 + 12) % 12 == 0 else { return nil }
        let degree = parts.count == 2 ? Int(parts[1]) : 0
        guard let degree, (0..<temperament.count).contains(degree) else { return nil }
        let note = Note(midi: root + (concert - root) / 12 * temperament.count + degree)
        return isTarget(note) ? note : nil
    }

    private func periodAndDegree(of note: Note) -> (period: Int, degree: Int) {
        let j = note.midi - root, n = temperament.count
        let period = Int((Double(j) / Double(n)).rounded(.down))
        return (period, j - period * n)
    }

    /// What is in force, for the status line; empty for the standard system: "meantone in D",
    /// "B♭ instrument", "German names".
    public var summary: [String] {
        var parts: [String] = []
        if !temperament.isEqual12 || reference.frequency != nil {
            var text = temperament.name
            if isTwelveTone { text += " in " + names.pitchClasses[((root % 12) + 12) % 12] }
            if let frequency = reference.frequency {
                text += " (\(names.name(of: Note(midi: reference.note))) = \(Self.hertz(frequency)) Hz)"
            }
            parts.append(text)
        }
        if transposition != 0 {
            let key = Transposition.keys.first { $0.semitones == transposition }
            parts.append(key.map { "\($0.display) instrument" } ?? "transposed \(transposition > 0 ? "+" : "")\(transposition)")
        }
        if names != .english { parts.append("\(names.rawValue) names") }
        if stretch != .none && isTwelveTone { parts.append("\(stretch.rawValue) stretch") }
        return parts
    }

    static func hertz(_ value: Hertz) -> String {
        let tenths = (value.value * 100).rounded() / 100
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}

/// `--transpose KEY`: the keys of transposing instruments, as sounding minus written semitones.
public enum Transposition {
    public static let keys: [(name: String, display: String, semitones: Int)] = [
        ("Bb", "B♭", -2),  // clarinet, trumpet, tenor saxophone (an octave more: -14, give the number)
        ("Eb", "E♭", -9),  // alto saxophone, E♭ horn
        ("F", "F", -7),    // horn in F, cor anglais
        ("A", "A", -3),    // clarinet in A
        ("G", "G", -5),    // alto flute
    ]

    /// The semitones `text` names: a key ("Bb", "B♭", "eb") or a signed number ("-2", "+3"); nil otherwise.
    public static func parse(_ text: String) -> Int? {
        let key = text.replacingOccurrences(of: "♭", with: "b").lowercased()
        if let found = keys.first(where: { $0.name.lowercased() == key }) { return found.semitones }
        guard let n = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text), Limits.transposition.contains(n)
        else { return nil }
        return n
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
