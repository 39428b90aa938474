import Testing
import TunerBridge
@testable import TunerMusic

@Suite struct AnnouncementTests {
    func settled(_ note: String, _ cents: Double, string: Int? = nil, tolerance: Double = 3) -> SettledNote {
        let n = Note(parsing: note)!
        return SettledNote(time: 1, start: 0.5, note: n, stringIndex: string, frequency: n.frequency().shifted(by: Cents(cents)),
                           cents: Cents(cents), tolerance: Cents(tolerance))
    }

    @Test func wording() {
        #expect(Announcement.text(for: settled("E2", -4.2)) == "E2, 4 cents flat")
        #expect(Announcement.text(for: settled("A2", 0.3)) == "A2 in tune")
        #expect(Announcement.text(for: settled("A2", -3)) == "A2 in tune", "the tolerance is inclusive")
        #expect(Announcement.text(for: settled("D3", 11.6)) == "D3, 12 cents sharp")
        #expect(Announcement.text(for: settled("G3", 1.2, tolerance: 0.5)) == "G3, 1 cent sharp")
        #expect(Announcement.text(for: settled("G3", -0.6, tolerance: 0.5)) == "G3, 1 cent flat")
        #expect(Announcement.text(for: settled("G3", 0.4, tolerance: 0.1)) == "G3, 0.4 cents sharp")
        #expect(Announcement.text(for: settled("F#3", -7)) == "F#3, 7 cents flat")
        #expect(Announcement.text(for: settled("E2", -500)) == "E2, 500 cents flat")
    }

    @Test func aTuningNamesTheStringAsItIsSpelled() {
        let halfDown = Tuning.named("half-step-down")!
        let e = settled("D#2", 5, string: 0)
        #expect(Announcement.text(for: e) == "D#2, 5 cents sharp")
        #expect(Announcement.text(for: e, tuning: halfDown) == "Eb2, 5 cents sharp")
    }

    @Test func spokenForm() {
        let halfDown = Tuning.named("half-step-down")!
        #expect(Announcement.spoken(for: settled("D#2", 5, string: 0), tuning: halfDown) == "E flat 2, 5 cents sharp")
        #expect(Announcement.spoken(for: settled("F#3", -7)) == "F sharp 3, 7 cents flat")
        #expect(Announcement.spoken(for: settled("B3", 0)) == "B3 in tune")
        // A strum's line (--poly --speak): each part's name.
        #expect(Announcement.spoken(line: "Eb2 in tune, Ab2 4 cents flat, G#3 unsteady, Bb3 in tune, B3 2 cents sharp")
                == "E flat 2 in tune, A flat 2 4 cents flat, G sharp 3 unsteady, B flat 3 in tune, B3 2 cents sharp")
        // Solfège syllables keep their letters; German H and B read as written.
        #expect(Announcement.spoken(for: settled("G#3", 0), system: TargetSystem(names: .solfege)) == "Sol sharp 3 in tune")
        #expect(Announcement.spoken(for: settled("C#4", 0), system: TargetSystem(names: .solfege)) == "Do sharp 4 in tune")
        #expect(Announcement.spoken(for: settled("Bb3", 0), system: TargetSystem(names: .german)) == "B3 in tune")
        #expect(Announcement.spoken(for: settled("B3", 0), system: TargetSystem(names: .german)) == "H3 in tune")
    }
}
