import Testing
import TunerBridge
@testable import TunerMusic

/// Every built-in temperament against published cents above C, to ±0.01 ¢.
///
/// Sources (cents of C, C♯, D, E♭, E, F, F♯, G, G♯, A, B♭, B above C):
/// - pythagorean: Wikipedia, "Pythagorean tuning", the twelve-tone scale from E♭ to G♯ (wolf G♯–E♭);
///   the same as the Scala archive's `pyth_12.scl`.
/// - meantone: Wikipedia, "Quarter-comma meantone", the table of the chromatic scale E♭…G♯; Scala
///   archive `meanquar.scl`.
/// - sixth-comma-meantone: Scala archive `meansixth.scl` (1/6 syntonic comma meantone, E♭…G♯).
/// - werckmeister3: Wikipedia, "Werckmeister temperament", Werckmeister I (III) "correct temperament"
///   table; Scala archive `werck3.scl`.
/// - kirnberger3: Wikipedia, "Kirnberger temperament", Kirnberger III; Scala archive `kirnberger3.scl`
///   (e.g. C♯ 90.225 = 256/243, E 386.314 = 5/4, B 1088.269 = 15/8).
/// - vallotti: Wikipedia, "Vallotti temperament" (six fifths F–C–G–D–A–E–B narrowed by 1/6
///   Pythagorean comma); Scala archive `vallotti.scl`.
/// - young: Wikipedia, "Young temperament", Young's second temperament (fifths C–G…B–F♯ narrowed by
///   1/6 Pythagorean comma, the rest pure); Scala archive `young2.scl`.
/// - just: Wikipedia, "Five-limit tuning", the asymmetric 12-tone scale 1/1 16/15 9/8 6/5 5/4 4/3
///   45/32 3/2 8/5 5/3 9/5 15/8.
@Suite struct TemperamentTests {
    static let published: [String: [Double]] = [
        "equal": [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100],
        "pythagorean": [0, 113.685, 203.910, 294.135, 407.820, 498.045, 611.730, 701.955, 815.640, 905.865,
                        996.090, 1109.775],
        "meantone": [0, 76.049, 193.157, 310.265, 386.314, 503.422, 579.471, 696.578, 772.627, 889.735,
                     1006.843, 1082.892],
        "sixth-comma-meantone": [0, 88.594, 196.741, 304.888, 393.482, 501.629, 590.224, 698.371, 786.965,
                                 895.112, 1003.259, 1091.853],
        "werckmeister3": [0, 90.225, 192.180, 294.135, 390.225, 498.045, 588.270, 696.090, 792.180, 888.270,
                          996.090, 1092.180],
        "kirnberger3": [0, 90.225, 193.157, 294.135, 386.314, 498.045, 590.224, 696.578, 792.180, 889.735,
                        996.090, 1088.269],
        "vallotti": [0, 94.135, 196.090, 298.045, 392.180, 501.955, 592.180, 698.045, 796.090, 894.135,
                     1000.000, 1090.225],
        "young": [0, 90.225, 196.090, 294.135, 392.180, 498.045, 588.270, 698.045, 792.180, 894.135,
                  996.090, 1090.225],
        "just": [0, 111.731, 203.910, 315.641, 386.314, 498.045, 590.224, 701.955, 813.686, 884.359,
                 1017.596, 1088.269],
    ]

    @Test(arguments: Temperament.builtIns.map(\.name))
    func builtInMatchesPublishedCents(name: String) throws {
        let temperament = try #require(Temperament.named(name))
        let expected = try #require(Self.published[name], "no published table for \(name)")
        #expect(temperament.count == 12 && temperament.period == 1200)
        for (degree, cents) in expected.enumerated() {
            #expect(abs(temperament.degrees[degree] - cents) <= 0.01,
                    "\(name) degree \(degree): \(temperament.degrees[degree]) ¢, published \(cents) ¢")
        }
    }

    @Test func everyBuiltInHasAPublishedTable() {
        #expect(Set(Temperament.builtIns.map(\.name)) == Set(Self.published.keys))
    }

    @Test func edoDividesTheOctaveEqually() throws {
        let nineteen = try #require(Temperament.named("19edo"))
        #expect(nineteen.count == 19)
        #expect(abs(nineteen.degrees[11] - 11 * 1200 / 19.0) < 1e-9)
        #expect(Temperament.named("24EDO")?.count == 24)
        #expect(Temperament.named("12edo")?.isEqual12 == true)
        #expect(Temperament.named("4edo") == nil && Temperament.named("97edo") == nil, "outside Limits.edo")
        #expect(Temperament.named("edo") == nil && Temperament.named("werckmeister") == nil)
    }

    @Test func positionsRepeatEveryPeriod() {
        let meantone = Temperament.named("meantone")!
        #expect(meantone.position(12) == 1200)
        #expect(abs(meantone.position(-1) - (1082.892 - 1200)) < 0.001)
        #expect(abs(meantone.position(16) - (1200 + 386.314)) < 0.001)
    }
}

/// The table of targets: where each note lies, which is nearest, what it is called.
@Suite struct TargetSystemTests {
    @Test func quarterCommaMeantoneE4IsTheIssuesFrequency() {
        // The issue's check: quarter-comma meantone on C with A4 = 440 puts E4 at 328.977 Hz.
        let system = TargetSystem(temperament: .named("meantone")!)
        let e4 = Note(parsing: "E4")!
        #expect(abs(system.frequency(of: e4).value - 328.977) < 0.0005)
        #expect(system.frequency(of: Note(parsing: "A4")!) == Hertz(440), "A keeps A4")
        let nearest = system.nearest(to: Hertz(328.977))
        #expect(nearest?.note == e4 && abs(nearest!.cents.value) < 0.01)
        // The same frequency is 3.4 ¢ flat of the equal-tempered E4.
        let equal = TargetSystem.standard.nearest(to: Hertz(328.977))
        #expect(equal?.note == e4 && abs(equal!.cents.value + 3.42) < 0.01)
    }

    @Test func theRootRotatesTheTemperament() {
        // Meantone in D: D–A is a meantone fifth, and A still keeps 440 Hz.
        let inD = TargetSystem(temperament: .named("meantone")!, root: 62)
        let d4 = inD.frequency(of: Note(parsing: "D4")!), a4 = inD.frequency(of: Note(parsing: "A4")!)
        #expect(a4 == Hertz(440))
        #expect(abs(a4.cents(from: d4).value - 696.578) < 0.001)
        // F#4 is a pure major third above D4 (4 meantone fifths).
        #expect(abs(inD.frequency(of: Note(parsing: "F#4")!).cents(from: d4).value - 386.314) < 0.001)
    }

    @Test func equalTemperamentIsExactlyTheNoteArithmetic() {
        // No options: the same numbers bit for bit as Note.nearest (the outputs stay byte-identical).
        for f in stride(from: 30.0, through: 4000, by: 7.77) {
            let mine = TargetSystem.standard.nearest(to: Hertz(f), a4: Hertz(441))!
            let note = Note.nearest(to: Hertz(f), a4: Hertz(441))
            #expect(mine.note == note.note && mine.cents == note.cents)
        }
        #expect(TargetSystem.standard.interval(from: Note(midi: 40), to: Note(midi: 45)) == Cents(500))
    }

    @Test func namesTransposeAndRead() {
        let bb = TargetSystem(transposition: -2)
        // A B♭ instrument sounding B♭3 (233.08 Hz) reads its written C4.
        let sounding = bb.nearest(to: Hertz(233.08))!
        #expect(sounding.note == Note(parsing: "Bb3") && bb.name(of: sounding.note) == "C4")
        #expect(bb.target(named: "C4") == Note(parsing: "A#3"))
        let german = TargetSystem(names: .german)
        #expect(german.name(of: Note(parsing: "B3")!) == "H3" && german.name(of: Note(parsing: "Bb3")!) == "B3")
        #expect(german.target(named: "H2") == Note(parsing: "B2") && german.target(named: "B2") == Note(parsing: "Bb2"))
        #expect(german.target(named: "E2") == Note(parsing: "E2"))
        let solfege = TargetSystem(names: .solfege)
        #expect((0..<12).map { solfege.name(of: Note(midi: 60 + $0)) }
                == ["Do4", "Do#4", "Re4", "Re#4", "Mi4", "Fa4", "Fa#4", "Sol4", "Sol#4", "La4", "La#4", "Si4"])
        #expect(solfege.target(named: "Sol3") == Note(parsing: "G3") && solfege.target(named: "G3") == Note(parsing: "G3"))
        #expect(solfege.target(named: "Fa#2") == Note(parsing: "F#2") && solfege.target(named: "Xy2") == nil)
    }

    @Test func scalesOfOtherThan12NotesNameTheirDegrees() throws {
        let system = TargetSystem(temperament: try #require(Temperament.named("19edo")))
        // The root C4 keeps its equal-tempered frequency; 19edo's 11th degree is 694.7 ¢ above it.
        let c4 = Note(midi: 60)
        #expect(abs(system.frequency(of: c4).value - 261.6256) < 0.001)
        let fifth = Note(midi: 60 + 11)
        #expect(system.name(of: fifth) == "C4+11")
        #expect(system.name(of: Note(midi: 60 + 19)) == "C5" && system.name(of: Note(midi: 60 - 1)) == "C3+18")
        #expect(system.target(named: "C4+11") == fifth && system.target(named: "C5") == Note(midi: 79))
        #expect(system.target(named: "C4+19") == nil && system.target(named: "D4") == nil)
        let heard = system.nearest(to: system.frequency(of: fifth).shifted(by: Cents(7)))!
        #expect(heard.note == fifth && abs(heard.cents.value - 7) < 1e-6)
    }

    @Test func aKeyboardMappingSetsTheReference() {
        // A .kbm with reference note 60 at 256 Hz: C4 sounds at 256 Hz whatever A4 is.
        let system = TargetSystem(temperament: .named("just")!, root: 60, reference: (60, Hertz(256)))
        #expect(system.frequency(of: Note(midi: 60), a4: Hertz(415)) == Hertz(256))
        #expect(abs(system.frequency(of: Note(midi: 67)).value - 384) < 1e-9, "G4 = 3/2 of C4")
    }
}
