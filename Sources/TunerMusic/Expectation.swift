import TunerBridge

/// `--expect NOTE`: whether an input's settled pitch is NOTE within the tolerance, so a recording
/// or a setup check can gate a script.
public struct Expectation: Sendable, Equatable {
    /// The note the input should settle on.
    public var note: Note
    /// The in-tune tolerance, ± cents.
    public var tolerance: Cents
    /// The targets: how `note` is named and where it lies (its temperament).
    public var system: TargetSystem

    public init(note: Note, tolerance: Cents = Cents(3), system: TargetSystem = .standard) {
        self.note = note
        self.tolerance = tolerance
        self.system = system
    }

    /// Parses the NOTE of `--expect` ("A2", "F#3", "Bb1", "E♭2").
    public init(parsing text: String, tolerance: Cents = Cents(3), system: TargetSystem = .standard)
        throws(ExpectationError) {
        guard let note = system.target(named: text) else { throw ExpectationError(text: text) }
        if system.isTwelveTone && !Limits.notes.contains(note.midi) {
            throw ExpectationError(text: text, outOfRange: note)
        }
        self.init(note: note, tolerance: tolerance, system: system)
    }

    /// The verdict: the last settled note of the input (where it ended up) must be `note` within
    /// `tolerance`. Cents are measured from `note` itself, so a neighbouring note is reported as
    /// e.g. "100.3 cents sharp".
    public func verdict(for settled: [SettledNote]) -> ExpectationVerdict {
        let note = system.name(of: self.note)
        guard let last = settled.last else {
            return ExpectationVerdict(passed: false,
                                      message: "expected \(note), but no note settled in the input "
                                        + "(no pitch was held steady)")
        }
        let cents = system.interval(from: self.note, to: last.note) + last.cents
        let heard: (note: Note, cents: Cents)
        if system.temperament.isEqual12 {
            heard = Note.nearest(midiCents: Double(self.note.midi) * 100 + cents.value)
        } else {
            heard = system.nearest(to: system.frequency(of: self.note).shifted(by: cents)) ?? (self.note, cents)
        }
        let offset = Self.amount(cents)
        let tolerated = "tolerance ±\(Self.number(tolerance.value)) cents"
        if cents.magnitude <= tolerance {
            return ExpectationVerdict(passed: true, message: "\(note) in tune: \(offset) (\(tolerated))")
        }
        if heard.note != self.note {
            return ExpectationVerdict(passed: false,
                                      message: "expected \(note), heard \(system.name(of: heard.note)) "
                                        + "(\(Self.amount(heard.cents))), which is \(offset) of \(note)")
        }
        return ExpectationVerdict(passed: false,
                                  message: "expected \(note): \(offset), out of tolerance (\(tolerated))")
    }

    /// "12.3 cents sharp", "0.4 cents flat", "0 cents".
    static func amount(_ cents: Cents) -> String {
        let size = (cents.value.magnitude * 10).rounded() / 10
        if size == 0 { return "0 cents" }
        return "\(number(size)) cent\(size == 1 ? "" : "s") \(cents.value < 0 ? "flat" : "sharp")"
    }

    /// A number with at most one decimal and no trailing ".0".
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}

/// The outcome of `--expect`: pass (exit 0) or fail (exit 1), with the line to print.
public struct ExpectationVerdict: Sendable, Equatable {
    public var passed: Bool
    public var message: String
    /// 0 when passed, 1 otherwise (66 for unreadable input is the CLI's, before any verdict).
    public var exitCode: Int32 { passed ? 0 : 1 }
}

/// The NOTE of `--expect` is not a note (the CLI words it).
public struct ExpectationError: Error, Equatable {
    public var text: String
    /// The note `text` names when it is one but outside `Limits.notes` (G#9…B9, Cb0); nil when not a note.
    public var outOfRange: Note?
    public init(text: String, outOfRange: Note? = nil) {
        self.text = text
        self.outOfRange = outOfRange
    }
}

extension Note {
    /// The nearest note to a position in MIDI cents (MIDI note × 100 + cents) and the cents from it.
    static func nearest(midiCents: Double) -> (note: Note, cents: Cents) {
        let midi = Int((midiCents / 100).rounded())
        return (Note(midi: midi), Cents(midiCents - Double(midi) * 100))
    }
}
