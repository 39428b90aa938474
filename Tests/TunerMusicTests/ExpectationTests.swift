import Testing
import TunerTestSupport
import TunerBridge
@testable import TunerMusic

@Suite struct ExpectationTests {
    func settled(_ note: String, _ cents: Double, string: Int? = nil) -> SettledNote {
        let n = Note(parsing: note)!
        return SettledNote(time: 1, start: 0.5, note: n, stringIndex: string,
                           frequency: n.frequency().shifted(by: Cents(cents)), cents: Cents(cents), tolerance: Cents(3))
    }

    @Test func verdicts() throws {
        let a2 = try Expectation(parsing: "A2", tolerance: Cents(3))
        let pass = a2.verdict(for: [settled("A2", 1.24)])
        #expect(pass == ExpectationVerdict(passed: true, message: "A2 in tune: 1.2 cents sharp (tolerance ±3 cents)"))
        #expect(pass.exitCode == 0)

        let out = a2.verdict(for: [settled("A2", -12.34)])
        #expect(out.exitCode == 1)
        #expect(out.message == "expected A2: 12.3 cents flat, out of tolerance (tolerance ±3 cents)")

        let other = a2.verdict(for: [settled("D3", 0.2)])
        #expect(other.exitCode == 1)
        #expect(other.message == "expected A2, heard D3 (0.2 cents sharp), which is 500.2 cents sharp of A2")

        let none = a2.verdict(for: [])
        #expect(none.exitCode == 1)
        #expect(none.message == "expected A2, but no note settled in the input (no pitch was held steady)")
    }

    @Test func theLastSettledNoteCountsAndTargetsAreConverted() throws {
        let e2 = Expectation(note: Note(midi: 40), tolerance: Cents(2))
        // Tuned up from 20 ¢ flat to 1 ¢ flat: where it ended up decides.
        #expect(e2.verdict(for: [settled("E2", -20), settled("E2", -1)]).passed)
        #expect(!e2.verdict(for: [settled("E2", -1), settled("E2", -20)]).passed)
        // In a tuning, a settled note measured against another string (E2 locked to the A2 string,
        // -499 ¢) is judged by its pitch.
        let viaString = e2.verdict(for: [settled("A2", -499, string: 1)])
        #expect(viaString.passed)
        #expect(viaString.message == "E2 in tune: 1 cent sharp (tolerance ±2 cents)")
        // Just past the tolerance, and exactly on it.
        #expect(!e2.verdict(for: [settled("E2", 2.05)]).passed)
        #expect(e2.verdict(for: [settled("E2", -2)]).passed)
        // A neighbouring note 60 ¢ flat of E2 is heard as D#2 +40 ¢.
        #expect(e2.verdict(for: [settled("E2", -60)]).message
                == "expected E2, heard D#2 (40 cents sharp), which is 60 cents flat of E2")
    }

    @Test func aBadNoteSaysHowToWriteOne() {
        #expect(throws: ExpectationError(text: "H2")) { try Expectation(parsing: "H2") }
        #expect(throws: ExpectationError(text: "")) { try Expectation(parsing: "") }
        #expect((try? Expectation(parsing: "Bb1"))?.note.midi == 34)
    }

    @Test func onSynthesisedRecordings() async throws {
        func verdict(_ signal: [Float], expect: String) async throws -> ExpectationVerdict {
            let session = try TunerSession(source: ArraySource(signal, sampleRate: MusicianSignals.rate))
            var events: [SettledNote] = []
            for await event in SettledNotes(measurements: session.measurements) { events.append(event) }
            return try Expectation(parsing: expect).verdict(for: events)
        }
        let inTune = try await verdict(MusicianSignals.pluck(Hertz(110), seconds: 1.5), expect: "A2")
        #expect(inTune.exitCode == 0 && inTune.message.hasPrefix("A2 in tune: "))
        let sharp = try await verdict(MusicianSignals.pluck(Hertz(110).shifted(by: Cents(8)), seconds: 1.5),
                                      expect: "A2")
        #expect(sharp.exitCode == 1)
        #expect(sharp.message == "expected A2: 8 cents sharp, out of tolerance (tolerance ±3 cents)")
        let wrong = try await verdict(MusicianSignals.pluck(Hertz(110), seconds: 1.5), expect: "E2")
        #expect(wrong.exitCode == 1 && wrong.message.hasPrefix("expected E2, heard A2 (0 cents), which is 500 cents sharp"))
        let silent = try await verdict(MusicianSignals.silence(1), expect: "A2")
        #expect(silent.exitCode == 1 && silent.message.contains("no note settled"))
    }
}
