import Testing
import TunerBridge
@testable import TunerMusic

@Suite struct NoteTests {
    @Test func scientificPitchNotation() {
        #expect(Note(midi: 69).description == "A4")
        #expect(Note(midi: 60).description == "C4")
        #expect(Note(midi: 23).description == "B0")
        #expect(Note(midi: 59).description == "B3")
        #expect(abs(Note(midi: 23).frequency().value - 30.8677) < 1e-4)
        #expect(abs(Note(midi: 40).frequency().value - 82.4069) < 1e-4)
    }

    @Test func nearestNoteAndCents() {
        let (note, cents) = Note.nearest(to: Hertz(110).shifted(by: Cents(-7.3)))
        #expect(note.description == "A2")
        #expect(abs(cents.value + 7.3) < 1e-9)
        let (n2, c2) = Note.nearest(to: Hertz(432), a4: Hertz(432))
        #expect(n2.description == "A4" && abs(c2.value) < 1e-9)
    }

    @Test func parsing() {
        #expect(Note(parsing: "F#2")?.midi == 42)
        #expect(Note(parsing: "Gb2")?.midi == 42)
        #expect(Note(parsing: "e♭2")?.midi == 39)
        #expect(Note(parsing: "B0")?.midi == 23)
        #expect(Note(parsing: "H9") == nil)
        #expect(Note(parsing: "") == nil)
        #expect(Note(parsing: "A") == nil)
    }

    @Test func clampingAndInTune() {
        let p = Pitch(frequency: Hertz(100), note: Note(midi: 43), rawCents: Cents(-63))
        #expect(p.cents.value == -50)
        let r = Reading(time: 0, pitch: p, level: Decibels(-10), confidence: 1, tolerance: Cents(3))
        #expect(!r.isInTune)
        let q = Pitch(frequency: Hertz(100), note: Note(midi: 43), rawCents: Cents(3))
        #expect(Reading(time: 0, pitch: q, level: Decibels(-10), confidence: 1, tolerance: Cents(3)).isInTune)
        let q2 = Pitch(frequency: Hertz(100), note: Note(midi: 43), rawCents: Cents(-3.01))
        #expect(!Reading(time: 0, pitch: q2, level: Decibels(-10), confidence: 1, tolerance: Cents(3)).isInTune)
        #expect(!Reading(time: 0, pitch: nil, level: Decibels(-10), confidence: 0, tolerance: Cents(50)).isInTune)
    }
}
