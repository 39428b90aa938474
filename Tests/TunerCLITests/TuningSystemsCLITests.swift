import Foundation
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
import TunerTestSupport

/// Tuning systems through the built executable (issue 14): temperaments, Scala files, transposition,
/// capo, offsets and note names, as a user would type them.
@Suite struct TuningSystemsCLITests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("tuner-tuning-systems") }

    /// A 1.5 s sine at `frequency`, 48 kHz mono.
    func sine(_ frequency: Double, _ name: String) throws -> String {
        try dir.write(name, [Synth.sine(Hertz(frequency), seconds: 1.5, sampleRate: 48_000)], rate: 48_000,
                      format: .init(.wav, .pcm24))
    }

    func text(_ name: String, _ contents: String) throws -> String {
        let path = dir.path(name)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func meantoneE4PassesWithTheTemperamentAndFailsWithout() throws {
        // 328.977 Hz is quarter-comma meantone's E4 with A4 = 440 Hz (3.4 ¢ flat of equal temperament).
        let path = try sine(328.977, "e4-meantone.wav")
        let tempered = try TunerBinary.run(["--file", path, "--expect", "E4", "--temperament", "meantone", "--root", "C",
                                            "--tolerance", "0.5"])
        #expect(tempered.status == 0, "\(tempered.stdout)\(tempered.stderr)")
        #expect(tempered.stdout.hasPrefix("E4 in tune: "))
        let equal = try TunerBinary.run(["--file", path, "--expect", "E4", "--tolerance", "0.5"])
        #expect(equal.status == 1)
        #expect(equal.stdout == "expected E4: 3.4 cents flat, out of tolerance (tolerance ±0.5 cents)\n")
    }

    @Test func aScalaFileIsATemperament() throws {
        let path = try sine(328.977, "e4.wav")
        let scl = try text("meanquar.scl", ScalaExamples.meanquar)
        let run = try TunerBinary.run(["--file", path, "--expect", "E4", "--temperament", scl, "--tolerance", "0.5"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // A keyboard mapping moves the reference: A4 = 415 Hz puts E4 a semitone (about) lower.
        let kbm = try text("a415.kbm", "0\n0\n127\n60\n69\n415.0\n12\n")  // size 0: linear
        let low = try TunerBinary.run(["--file", path, "--temperament", scl, "--kbm", kbm, "--output", "jsonl"])
        #expect(low.status == 0)
        let lowNotes = try JSONReading.all(low.stdout).filter { $0.time > 0.5 }.map(\.note)
        #expect(lowNotes.count > 50 && lowNotes.allSatisfy { $0 == "F4" }, "\(Set(lowNotes))")
    }

    @Test func aKeyboardMappingDecidesWhatEachKeyPlays() throws {
        // Just major on the white keys, black keys unmapped (Scala's .kbm format; the map is the one in
        // ScalaTests): A4 plays 5/3 at 440 Hz, so D4 (9/8) is 297 Hz. Read key by key (linear), D4 would
        // be degree 2 above a C4 of 176 Hz, 220 Hz: that sine must fail --expect D4.
        let scl = try text("major.scl", "Just major\n7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n")
        let kbm = try text("whitekeys.kbm", "12\n0\n127\n60\n69\n440.0\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n")
        let args = ["--temperament", scl, "--kbm", kbm, "--expect", "D4", "--tolerance", "0.5"]
        let mapped = try TunerBinary.run(["--file", try sine(297, "d4-297.wav")] + args)
        #expect(mapped.status == 0, "\(mapped.stdout)\(mapped.stderr)")
        #expect(mapped.stdout.hasPrefix("D4 in tune: "), "\(mapped.stdout)")
        let linear = try TunerBinary.run(["--file", try sine(220, "d4-220.wav")] + args)
        #expect(linear.status == 1, "\(linear.stdout)\(linear.stderr)")
        #expect(linear.stdout.hasPrefix("expected D4, heard A3 (0 cents)"), "\(linear.stdout)")
        // A black key is no target of this map: expecting one is refused.
        let black = try TunerBinary.run(["--file", try sine(297, "d4-b.wav"), "--temperament", scl, "--kbm", kbm,
                                         "--expect", "C#4"])
        #expect(black.status == 64 && black.stderr == "Error: Invalid value 'C#4' for '--expect <note>': not a key "
                + "that '\(kbm)' maps; name a key it maps to a degree (MIDI 0…127, not 'x').\n",
                "\(black.stderr)")
        let tone = try TunerBinary.run(["--tone", "C#4", "--temperament", scl, "--kbm", kbm])
        #expect(tone.status == 64 && tone.stderr == "Error: Invalid value for '--tone <note>': C#4 is not a key that "
                + "'\(kbm)' maps; use keys it maps to a degree.\n", "\(tone.stderr)")
    }

    @Test func brokenKeyboardMappingsAreOneLineAndExit66() throws {
        let path = try sine(440, "a4-kbm.wav")
        let scl = try text("major7.scl", "Just major\n7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n")
        let cases: [(String, String)] = [
            ("! degree 9 of a 7-note scale\n7\n0\n127\n60\n60\n264\n7\n0\n9\n",
             ":10: degree 9 is beyond the scale, which has degrees 0…6"),
            ("12\n0\n127\n60\n61\n277\n7\n0\nx\n", ":5: the reference note 61 is unmapped"),
            ("0\n90\n10\n60\n60\n264\n7\n", ":3: the last note to retune (10) is below the first (90)"),
            ("1\n0\n127\n60\n60\n264\n7\n0\n1\n", ":9: more map entries than the map size 1"),
            ("0\n0\n127\n60\n60\nA4\n7\n", ":6: \"A4\" is not a valid reference frequency"),
        ]
        for (index, (contents, message)) in cases.enumerated() {
            let kbm = try text("broken\(index).kbm", contents)
            let run = try TunerBinary.run(["--file", path, "--temperament", scl, "--kbm", kbm])
            #expect(run.status == 66, "\(contents)")
            #expect(run.stderr.hasPrefix("Error: \(kbm)\(message)"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stdout.isEmpty)
        }
    }

    @Test func brokenAndMissingScalaFilesAreOneLineAndExit66() throws {
        let path = try sine(440, "a4.wav")
        let broken = try text("broken.scl", "! broken\nA scale\n 3\n 9/8\n 3/0\n 2/1\n")
        let run = try TunerBinary.run(["--file", path, "--temperament", broken])
        #expect(run.status == 66)
        #expect(run.stderr == "Error: \(broken):5: \"3/0\" is not a ratio: both numbers must be positive whole numbers, "
                + "e.g. 5/4\n")
        let missing = try TunerBinary.run(["--file", path, "--temperament", dir.path("nowhere.scl")])
        #expect(missing.status == 66)
        #expect(missing.stderr == "Error: cannot read '\(dir.path("nowhere.scl"))': no such file\n")
        let empty = try TunerBinary.run(["--file", path, "--temperament", try text("empty.scl", "")])
        #expect(empty.status == 66 && empty.stderr.hasPrefix("Error: ") && empty.stderr.contains("empty.scl: the file is empty"))
        #expect(empty.stderr.split(separator: "\n").count == 1)
    }

    @Test func badTuningSystemFlagsAreUsageErrors() throws {
        for arguments in [["--temperament", "werckmeister"], ["--temperament", "200edo"], ["--capo", "13", "--tuning", "guitar"],
                          ["--capo", "2"], ["--transpose", "H"], ["--names", "klingon"], ["--root", "X"],
                          ["--tuning", "guitar", "--offsets", "0 -2 0"], ["--tuning", "guitar", "--offsets", "0 0 0 0 0 60"],
                          ["--tuning", "guitar", "--offsets", "0 0 0 0 0 0.25"], ["--kbm", "a.kbm"],
                          ["--tuning", "guitar", "--temperament", "19edo"]] {
            let run = try TunerBinary.run(["--file", "x.wav"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: ") && run.stdout.isEmpty, "\(arguments)")
        }
        let offsets = try TunerBinary.run(["--file", "x.wav", "--tuning", "guitar", "--offsets", "0 -2 0"])
        #expect(offsets.stderr.hasPrefix("Error: Invalid value '0 -2 0' for '--offsets <cents>': give one offset per "
                                         + "string: the tuning has 6 strings, the offsets are 3."))
    }

    @Test func aBbInstrumentReadsWrittenNotes() throws {
        // A B♭ instrument sounding B♭3 (233.08 Hz) is shown as C4 and passes --expect C4.
        let path = try sine(233.082, "bb3.wav")
        let run = try TunerBinary.run(["--file", path, "--output", "jsonl", "--transpose", "Bb"])
        let pitched = try JSONReading.all(run.stdout).filter { $0.time > 0.3 && $0.note != nil }
        #expect(!pitched.isEmpty && pitched.allSatisfy { $0.note == "C4" })
        #expect(pitched.allSatisfy { abs(($0.frequency ?? 0) - 233.082) < 0.01 }, "frequencies stay concert pitch")
        #expect(try TunerBinary.run(["--file", path, "--expect", "C4", "--transpose", "Bb"]).status == 0)
        #expect(try TunerBinary.run(["--file", path, "--expect", "C4"]).status == 1)
        #expect(try TunerBinary.run(["--file", path, "--expect", "C4", "--transpose", "-2"]).status == 0)
    }

    @Test func germanAndSolfegeNames() throws {
        let b3 = try sine(246.942, "b3.wav")
        let german = try TunerBinary.run(["--file", b3, "--output", "jsonl", "--names", "german"])
        let germanNotes = try JSONReading.all(german.stdout).filter { $0.time > 0.3 }.map(\.note)
        #expect(germanNotes.count > 50 && germanNotes.allSatisfy { $0 == "H3" }, "\(Set(germanNotes))")
        #expect(try TunerBinary.run(["--file", b3, "--expect", "H3", "--names", "german"]).status == 0)
        #expect(try TunerBinary.run(["--file", b3, "--expect", "B3", "--names", "german"]).status == 1, "German B is B♭")
        let g3 = try sine(195.998, "g3.wav")
        let solfege = try TunerBinary.run(["--file", g3, "--announce", "--names", "solfege"])
        #expect(solfege.stdout == "Sol3 in tune\n")
        #expect(try TunerBinary.run(["--file", g3, "--expect", "Sol3", "--names", "solfege"]).status == 0)
        #expect(try TunerBinary.run(["--file", g3, "--expect", "G3", "--names", "solfege"]).status == 0, "English too")
    }

    @Test func aCapoRaisesEveryStringAndOffsetsSweetenThem() throws {
        // Capo 2 on a guitar: the low string's target is F#2 (92.50 Hz); an F#2 sine is in tune on string 1.
        let fSharp2 = try sine(92.4986, "fs2.wav")
        let capo = try TunerBinary.run(["--file", fSharp2, "--output", "jsonl", "--tuning", "guitar", "--capo", "2"])
        let settled = capo.stdoutLines.filter { $0.contains("\"event\":\"settled\"") }
        #expect(settled.count == 1 && settled[0].contains("\"string\":1,\"target\":\"F#2\""), "\(settled)")
        #expect(settled.first?.contains("\"in_tune\":true,\"target_frequency\":92.49") == true)
        // Offsets: the A string 2 ¢ flat; an exact A2 then reads +2 ¢ from its target.
        let a2 = try sine(110, "a2.wav")
        let sweet = try TunerBinary.run(["--file", a2, "--output", "jsonl", "--tuning", "guitar",
                                         "--offsets", "0 -2 0 0 0 0"])
        let line = try #require(sweet.stdoutLines.last { $0.contains("\"target_cents\"") && !$0.contains("null") })
        let cents = try #require(line.split(separator: ",").first { $0.hasPrefix("\"target_cents\"") })
        #expect(abs(Double(cents.split(separator: ":")[1])! - 2) < 0.05, "\(line)")
    }

    /// A piano's A0 (27.5 Hz), the lowest note the engine reads (issue 14, item 6).
    @Test func aPianosA0ReadsWithinATenthOfACentAsASineAndHalfACentStruck() throws {
        let sine = try dir.write("a0-sine.wav", [Synth.sine(Hertz(27.5), seconds: 2.5, sampleRate: 48_000)], rate: 48_000,
                                 format: .init(.wav, .pcm24))
        let run = try TunerBinary.run(["--file", sine, "--expect", "A0", "--tolerance", "0.1"])
        #expect(run.status == 0 && run.stdout.hasPrefix("A0 in tune: "), "\(run.stdout)\(run.stderr)")
        // A struck bass string: 40 partials up to 1.2 kHz, B = 5·10⁻⁴ and 10⁻³ (a piano's lowest strings:
        // 3·10⁻⁴ … 10⁻³, Fletcher & Rossing ch. 12), its 20th partial 157 ¢ / 290 ¢ above 20·f1.
        for B in [5e-4, 1e-3] {
            let pluck = Synth.Pluck(frequency: Hertz(27.5), inharmonicity: B, partials: 40, decay: 4)
            let path = try dir.write("a0-pluck-\(B).wav", [pluck.render(seconds: 3, sampleRate: 44_100)], rate: 44_100,
                                     format: .init(.wav, .pcm24))
            let struck = try TunerBinary.run(["--file", path, "--expect", "A0", "--tolerance", "0.5"])
            #expect(struck.status == 0 && struck.stdout.hasPrefix("A0 in tune: "), "B \(B): \(struck.stdout)\(struck.stderr)")
        }
    }

    /// `--stretch piano`: a sine at A0 − 17.3 ¢ and at C8 + 28.9 ¢ (the curve's ends) are in tune with it,
    /// out of tune without it; the JSON Lines target frequency follows it.
    @Test func pianoStretchMovesTheTargetsItNames() throws {
        for (note, midi) in [("A0", 21), ("C8", 108)] {
            let cents = PianoStretch.cents(atMIDI: midi)
            let frequency = Note(midi: midi).frequency(a4: Hertz(440)).value * exp2(cents / 1200)
            let path = try sine(frequency, "\(note)-stretched.wav")
            let stretched = try TunerBinary.run(["--file", path, "--expect", note, "--stretch", "piano", "--tolerance", "0.5"])
            #expect(stretched.status == 0 && stretched.stdout.hasPrefix("\(note) in tune: "), "\(stretched.stdout)\(stretched.stderr)")
            let plain = try TunerBinary.run(["--file", path, "--expect", note, "--tolerance", "0.5"])
            #expect(plain.status == 1, "\(plain.stdout)")
            let flatOrSharp = cents < 0 ? "flat" : "sharp"
            #expect(plain.stdout.hasPrefix("expected \(note): \(String(abs((cents * 10).rounded() / 10))) cents \(flatOrSharp)"),
                    "\(plain.stdout)")
            // JSON Lines: every reading names the note and its cents from the stretched target.
            let jsonl = try TunerBinary.run(["--file", path, "--output", "jsonl", "--stretch", "piano"])
            let pitched = try JSONReading.all(jsonl.stdout).filter { $0.time > 0.5 && $0.note != nil }
            #expect(!pitched.isEmpty && pitched.allSatisfy { $0.note == note && abs($0.cents ?? 99) < 0.1 }, "\(note)")
        }
        let bad = try TunerBinary.run(["--file", "x.wav", "--stretch", "guitar"])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: Invalid value 'guitar' for '--stretch <curve>': must be one of none, piano."))
        let edo = try TunerBinary.run(["--file", "x.wav", "--stretch", "piano", "--temperament", "19edo"])
        #expect(edo.status == 64 && edo.stderr.hasPrefix("Error: '--stretch' needs a temperament of 12 notes"))
    }

    @Test func helpAndListingNameTheTuningSystems() throws {
        let help = try TunerBinary.run(["--help"]).stdout
        for flag in ["--temperament", "--root", "--kbm", "--transpose", "--capo", "--names", "--offsets", "--stretch"] {
            #expect(help.contains(flag), "\(flag) missing from --help")
        }
        let list = try TunerBinary.run(["--list-tunings"]).stdout
        for name in Temperament.builtIns.map(\.name) + ["19edo", "german", "solfege", "Bb", "--stretch piano"] {
            #expect(list.contains(name), "\(name) missing from --list-tunings")
        }
    }
}
