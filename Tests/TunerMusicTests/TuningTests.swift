import Foundation
import Testing
import TunerBridge
@testable import TunerMusic

@Suite struct TuningTests {
    /// The presets as a musician would write them: short name → notes in string order.
    static let expected: [(String, String)] = [
        ("guitar", "E2 A2 D3 G3 B3 E4"),
        ("half-step-down", "Eb2 Ab2 Db3 Gb3 Bb3 Eb4"),
        ("drop-d", "D2 A2 D3 G3 B3 E4"),
        ("drop-c", "C2 G2 C3 F3 A3 D4"),
        ("dadgad", "D2 A2 D3 G3 A3 D4"),
        ("open-g", "D2 G2 D3 G3 B3 D4"),
        ("open-d", "D2 A2 D3 F#3 A3 D4"),
        ("open-e", "E2 B2 E3 G#3 B3 E4"),
        ("guitar7", "B1 E2 A2 D3 G3 B3 E4"),
        ("bass", "E1 A1 D2 G2"),
        ("bass5", "B0 E1 A1 D2 G2"),
        ("bass6", "B0 E1 A1 D2 G2 C3"),
        ("ukulele", "G4 C4 E4 A4"),
        ("baritone-ukulele", "D3 G3 B3 E4"),
        ("violin", "G3 D4 A4 E5"),
        ("viola", "C3 G3 D4 A4"),
        ("cello", "C2 G2 D3 A3"),
        ("mandolin", "G3 D4 A4 E5"),
        ("banjo", "G4 D3 G3 B3 D4"),
    ]

    /// Frequencies at A4 = 440 Hz, from published tables (Hz, 2 decimals), by MIDI note.
    static let table440: [Int: Double] = [
        23: 30.87, 28: 41.20, 33: 55.00, 35: 61.74, 36: 65.41, 38: 73.42, 39: 77.78, 40: 82.41, 43: 98.00,
        44: 103.83, 45: 110.00, 47: 123.47, 48: 130.81, 49: 138.59, 50: 146.83, 52: 164.81,
        53: 174.61, 54: 185.00, 55: 196.00, 56: 207.65, 57: 220.00, 58: 233.08, 59: 246.94,
        60: 261.63, 62: 293.66, 63: 311.13, 64: 329.63, 67: 392.00, 69: 440.00, 76: 659.26,
    ]

    @Test func everyPresetHasItsNotes() throws {
        #expect(Tuning.presets.count == Self.expected.count)
        for (key, notes) in Self.expected {
            let tuning = try #require(Tuning.named(key), "preset \(key)")
            #expect(tuning.key == key)
            #expect(tuning.description == notes, "\(key)")
            #expect(tuning.strings == notes.split(separator: " ").map { Note(parsing: String($0))! })
        }
        // Spot checks in MIDI numbers, independent of the parser.
        #expect(Tuning.named("bass5")?.strings.first?.midi == 23)  // B0
        #expect(Tuning.named("ukulele")?.strings.map(\.midi) == [67, 60, 64, 69])  // re-entrant
        #expect(Tuning.named("banjo")?.strings.map(\.midi) == [67, 50, 55, 59, 62])
        #expect(Tuning.named("half-step-down")?.strings.map(\.midi) == [39, 44, 49, 54, 58, 63])
    }

    @Test(arguments: [440.0, 432.0])
    func everyPresetsFrequenciesFollowA4(a4: Double) throws {
        for preset in Tuning.presets {
            let frequencies = preset.frequencies(a4: Hertz(a4))
            #expect(frequencies.count == preset.strings.count)
            for (i, note) in preset.strings.enumerated() {
                let table = try #require(Self.table440[note.midi], "no table entry for \(note)")
                // The 432 Hz table is the 440 one scaled by 432/440.
                let want = table * a4 / 440
                #expect(abs(frequencies[i].value - want) < 0.006 * a4 / 440 + 1e-9,
                        "\(preset.key!) string \(i + 1) \(note) at A4=\(a4): \(frequencies[i].value) vs \(want)")
                #expect(preset.frequency(ofString: i, a4: Hertz(a4)) == frequencies[i])
            }
        }
        let a2At432 = try #require(Tuning.named("guitar")?.frequency(ofString: 1, a4: Hertz(432)))
        #expect(abs(a2At432.value - 108) < 1e-9)
    }

    @Test func namesAndAliasesIgnoreCaseAndSeparators() throws {
        for name in ["drop-d", "Drop D", "drop_d", "DROPD", " drop-d "] {
            #expect(Tuning.named(name)?.key == "drop-d", "\(name)")
        }
        #expect(Tuning.named("standard")?.key == "guitar")
        #expect(Tuning.named("bass4")?.key == "bass")
        #expect(Tuning.named("uke")?.key == "ukulele")
        #expect(Tuning.named("7-string")?.key == "guitar7")
        #expect(Tuning.named("Eb standard")?.key == "half-step-down")
        #expect(Tuning.named("bari-uke")?.key == "baritone-ukulele")
        #expect(Tuning.named("nonsense") == nil)
        #expect(Tuning.named("") == nil)
        // Every key and alias names exactly one preset.
        let all = Tuning.presets.flatMap { [$0.key!] + $0.aliases }.map(Tuning.comparable)
        #expect(Set(all).count == all.count)
    }

    @Test func customNoteListsWithSharpsAndFlats() throws {
        let dropD = try Tuning.resolve("D2 A2 D3 G3 B3 E4")
        #expect(dropD.key == nil && dropD.name == "Custom")
        #expect(dropD.strings.map(\.midi) == [38, 45, 50, 55, 59, 64])
        let flats = try Tuning.resolve("e♭2, A♭2, Db3 gb3 Bb3 Eb4")
        #expect(flats.strings == Tuning.named("half-step-down")!.strings)
        #expect(flats.description == "Eb2 Ab2 Db3 Gb3 Bb3 Eb4", "spelling kept, ASCII")
        let sharps = try Tuning(notes: "C#2 F♯2")
        #expect(sharps.strings.map(\.midi) == [37, 42])
        #expect(sharps.labels == ["C#2", "F#2"])
        #expect(try Tuning.resolve("A4").strings == [Note(midi: 69)], "one string is a tuning")
        #expect(try Tuning(notes: Array(repeating: "E2", count: 12).joined(separator: " ")).strings.count == 12)
    }

    @Test func badTuningsAreRejectedWithAFix() {
        #expect(throws: TuningError.unknownNote("H9")) { try Tuning.resolve("H9") }
        #expect(throws: TuningError.unknownNote("H9")) { try Tuning.resolve("E2 A2 H9 G3") }
        #expect(throws: TuningError.unknownNote("E")) { try Tuning.resolve("E A D G B E") }
        // C-1 and G#9 are notes, but outside C0…G9: reported as out of range, not as "not a note".
        #expect(throws: TuningError.outOfRange("C-1", Note(midi: 0))) {
            try Tuning.resolve("C-1 E2")
        }
        #expect(throws: TuningError.outOfRange("G#9", Note(midi: 128))) {
            try Tuning.resolve("E2 G#9")
        }
        #expect(throws: Never.self) { try Tuning.resolve("C0 G9") }
        #expect(throws: TuningError.empty) { try Tuning.resolve("") }
        #expect(throws: TuningError.empty) { try Tuning.resolve("  , ") }
        #expect(throws: TuningError.tooManyStrings(13)) {
            try Tuning.resolve(Array(repeating: "E2", count: 13).joined(separator: " "))
        }
        #expect(throws: TuningError.unknownName("drop-q")) { try Tuning.resolve("drop-q") }
    }

    @Test func listingShowsEveryPresetAndHowToGiveACustomTuning() {
        let lines = Tuning.listing.split(separator: "\n").map(String.init)
        // The tunings, then the temperaments, transpositions and names.
        #expect(lines.count == Tuning.presets.count + 3 + 1 + Temperament.builtIns.count + 3)
        #expect(lines[0] == "Tunings (--tuning NAME), strings in order from the lowest-pitched side:")
        #expect(lines[1] == "  guitar            E2 A2 D3 G3 B3 E4        Guitar, standard "
                + "(also: standard, guitar-standard, e-standard, guitar6)")
        #expect(lines.contains("  bass5             B0 E1 A1 D2 G2           Bass, 5 strings (low B)"))
        for preset in Tuning.presets {
            #expect(lines.contains { $0.hasPrefix("  \(preset.key!) ") && $0.contains(preset.description) })
        }
        #expect(lines[Tuning.presets.count + 2]
                == "Target frequencies follow --a4 (default 440 Hz). Without --tuning: chromatic, nearest note.")
        #expect(lines.contains("  meantone              0.0 76.0 193.2 310.3 386.3 503.4 579.5 696.6 772.6 889.7 1006.8 1082.9"))
        #expect(Tuning.listing.contains("Custom: --tuning \"D2 A2 D3 G3 B3 E4\""))
    }
}
