import TunerBridge

#if canImport(Glibc)
import Glibc
#endif

/// A note of the equal-tempered scale in scientific pitch notation: C4 is middle C (MIDI 60),
/// A4 is MIDI 69 and sounds at the reference pitch (440 Hz unless told otherwise).
/// This is the one place in Swift where that convention is stated.
public struct Note: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// MIDI note number: 69 = A4, 60 = C4, 23 = B0.
    public var midi: Int
    public init(midi: Int) { self.midi = midi }

    public static let sharpNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// 0 = C … 11 = B.
    public var pitchClass: Int { ((midi % 12) + 12) % 12 }
    /// Octave number; it changes between B and C (B3 → C4).
    public var octave: Int { Int((Double(midi) / 12).rounded(.down)) - 1 }
    /// The name with a sharp and without octave, e.g. "F#".
    public var name: String { Note.sharpNames[pitchClass] }
    /// The name with octave, e.g. "F#2" (ASCII, as in JSON output).
    public var description: String { "\(name)\(octave)" }

    public static func < (a: Note, b: Note) -> Bool { a.midi < b.midi }

    /// The equal-tempered frequency of this note for reference pitch `a4`.
    public func frequency(a4: Hertz = Hertz(440)) -> Hertz {
        Hertz(a4.value * exp2(Double(midi - 69) / 12))
    }

    /// The nearest note to `frequency` and the distance to it (within ±50 ¢).
    public static func nearest(to frequency: Hertz, a4: Hertz = Hertz(440)) -> (note: Note, cents: Cents) {
        let fractional = 69 + 12 * log2(frequency.value / a4.value)
        let midi = Int(fractional.rounded())
        return (Note(midi: midi), Cents(100 * (fractional - Double(midi))))
    }

    /// Parses "A2", "F#3", "Bb1", "c4", "E♭2", "F♯3" (sharps and flats both). Nil when not a note.
    public init?(parsing text: String) {
        guard let note = NoteNames.english.parse(text) else { return nil }
        self = note
    }
}
