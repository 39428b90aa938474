import Testing
import TunerTestSupport
import TunerBridge
@testable import TunerMusic

/// Scala files: published examples read, broken ones refused with the line at fault.
@Suite struct ScalaTests {
    @Test func thePublishedExampleReads() throws {
        let scale = try Scala.scale(text: ScalaExamples.meanquar, file: "meanquar.scl", name: "meanquar.scl")
        #expect(scale.count == 12 && scale.period == 1200)
        let meantone = Temperament.named("meantone")!
        for degree in 0..<12 where degree != 8 {  // 25/16 is G♯ as a major third above E (772.627 ¢)
            #expect(abs(scale.degrees[degree] - meantone.degrees[degree]) < 0.001, "degree \(degree)")
        }
        #expect(abs(scale.degrees[8] - 772.627) < 0.001)
    }

    @Test func ratiosIntegersAndTrailingWordsAndCRLF() throws {
        let text = "! x\r\nJust pentatonic\r\n5\r\n9/8 whole tone\r\n5/4\r\n3/2\r\n5/3\r\n2\r\n"
        let scale = try Scala.scale(text: text, file: "p.scl", name: "p.scl")
        #expect(scale.count == 5 && scale.period == 1200)
        #expect(abs(scale.degrees[1] - 203.910) < 0.001 && abs(scale.degrees[4] - 884.359) < 0.001)
        // A non-octave period: the Bohlen–Pierce scale's tritave 3/1.
        let bp = try Scala.scale(text: "BP\n2\n1200.0\n3/1\n", file: "bp.scl", name: "bp")
        #expect(abs(bp.period - 1901.955) < 0.001)
    }

    func error(_ text: String) -> ScalaError? {
        do { _ = try Scala.scale(text: text, file: "s.scl", name: "s"); return nil } catch { return error }
    }

    @Test func brokenFilesSayWhichLineAndWhy() {
        #expect(error("") == ScalaError(file: "s.scl", line: nil, kind: .empty))
        #expect(error("! only comments\n!\n") == ScalaError(file: "s.scl", line: nil, kind: .empty))
        #expect(error("desc\ntwelve\n") == ScalaError(file: "s.scl", line: 2, kind: .badCount("twelve")))
        #expect(error("desc\n0\n") == ScalaError(file: "s.scl", line: 2, kind: .noPeriod), "no period")
        #expect(error("desc\n3\n5/4\n2/1\n") == ScalaError(file: "s.scl", line: nil, kind: .wrongCount(expected: 3, found: 2)))
        #expect(error("desc\n1\n5/4\n2/1\n") == ScalaError(file: "s.scl", line: 4, kind: .wrongCount(expected: 1, found: 2)))
        #expect(error("desc\n2\n3/0\n2/1\n") == ScalaError(file: "s.scl", line: 3, kind: .notARatio("3/0")))
        #expect(error("desc\n2\n-5/4\n2/1\n") == ScalaError(file: "s.scl", line: 3, kind: .notARatio("-5/4")))
        #expect(error("desc\n2\n0\n2/1\n") == ScalaError(file: "s.scl", line: 3, kind: .notARatio("0")))
        #expect(error("desc\n2\nfoo\n2/1\n") == ScalaError(file: "s.scl", line: 3, kind: .notAPitch("foo")))
        #expect(error("desc\n2\n3/2\n-1200.0\n") == ScalaError(file: "s.scl", line: 4, kind: .outsidePeriod("-1200.0")))
        #expect(error("desc\n2\n2/1\n3/2\n") == ScalaError(file: "s.scl", line: 3, kind: .outsidePeriod("2/1")))
        let many = "desc\n2000\n" + (1...2000).map { "\(Double($0) * 0.6)" }.joined(separator: "\n")
        #expect(error(many) == ScalaError(file: "s.scl", line: 2, kind: .tooManyNotes(2000)))
        // The limit is inclusive: 1,200 one-cent steps read.
        let cents = "desc\n1200\n" + (1...1200).map { "\($0).0" }.joined(separator: "\n")
        #expect(error(cents) == nil)
    }

    // The keyboard mapping format: Scala's help, "Keyboard mappings"
    // (https://www.huygens-fokker.org/scala/help.htm#mappings): size of map, first and last MIDI note to
    // retune, middle note (where the first entry is), reference note, reference frequency, degree of the
    // formal octave, then one entry per key (a degree, or x: unmapped); a size of 0 is a linear mapping.
    // The white-key map of a 7-note scale is the one of Sevish's tutorial "Mapping microtonal scales to a
    // MIDI keyboard in Scala" (http://sevish.com/2017/mapping-microtonal-scales-keyboard-scala/).

    /// Just (5-limit) major: 1/1 9/8 5/4 4/3 3/2 5/3 15/8, period 2/1.
    static let justMajor = try! Scala.scale(text: "Just major\n7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n",
                                            file: "major.scl", name: "major.scl")

    static let whiteKeys = """
        ! whitekeys.kbm: a 7-note scale on the white keys, black keys unmapped
        ! Size of map:
        12
        ! First MIDI note number to retune:
        0
        ! Last MIDI note number to retune:
        127
        ! Middle note where the first entry of the mapping is mapped to:
        60
        ! Reference note for which frequency is given:
        69
        ! Frequency to tune the above note to
        440.0
        ! Scale degree to consider as formal octave:
        7
        ! Mapping.
        0
        x
        1
        x
        2
        3
        x
        4
        x
        5
        x
        6
        """

    @Test func aSevenNoteScaleOnTheWhiteKeys() throws {
        let mapping = try Scala.mapping(text: Self.whiteKeys, file: "whitekeys.kbm", scale: Self.justMajor)
        #expect(mapping.entries == [0, nil, 1, nil, 2, 3, nil, 4, nil, 5, nil, 6])
        let system = TargetSystem(temperament: Self.justMajor, keyboard: mapping)
        // A4 (key 69) plays degree 5 (5/3) at 440 Hz, so C4 is 264 Hz and D4 (degree 1, 9/8) 297 Hz.
        let hz = { (key: Int) in system.frequency(of: Note(midi: key)).value }
        #expect(abs(hz(69) - 440) < 1e-9)
        #expect(abs(hz(60) - 264) < 1e-9 && abs(hz(62) - 297) < 1e-9 && abs(hz(71) - 495) < 1e-9)
        // The pattern repeats every 12 keys, a formal octave (degree 7 = 2/1) higher: B3 is 15/8 below C4's octave.
        #expect(abs(hz(72) - 528) < 1e-9 && abs(hz(59) - 247.5) < 1e-9)
        #expect(system.name(of: Note(midi: 62)) == "D4")
        #expect(system.target(named: "D4") == Note(midi: 62))
        #expect(system.target(named: "C#4") == nil, "a black key is unmapped: no target")
        // 297 Hz reads D4 in tune; C♯4's equal-tempered 277.18 Hz is no black key but the nearer white one.
        let d4 = try #require(system.nearest(to: Hertz(297)))
        #expect(d4.note == Note(midi: 62) && abs(d4.cents.value) < 1e-9)
        let between = try #require(system.nearest(to: Hertz(277.18)))
        #expect(between.note == Note(midi: 60) || between.note == Note(midi: 62))
        // What the old key-by-key reading gave D4 (degree 2 from key 60, 220 Hz) is A3 here.
        #expect(system.nearest(to: Hertz(220))?.note == Note(midi: 57))
    }

    @Test func aLinearMappingAndItsKeyRange() throws {
        // Size 0: key 60 + i plays degree i; only keys 60…72 are retuned.
        let kbm = "! linear.kbm\n0\n60\n72\n60\n60\n264.0\n0\n! no mapping lines for a linear map\n"
        let mapping = try Scala.mapping(text: kbm, file: "linear.kbm", scale: Self.justMajor)
        #expect(mapping.isLinear && mapping.first == 60 && mapping.last == 72)
        let system = TargetSystem(temperament: Self.justMajor, keyboard: mapping)
        #expect(abs(system.frequency(of: Note(midi: 61)).value - 297) < 1e-9, "key 61 plays degree 1 (9/8)")
        #expect(abs(system.frequency(of: Note(midi: 67)).value - 528) < 1e-9, "key 67 plays degree 7 = 2/1")
        #expect(system.name(of: Note(midi: 61)) == "C4+1")
        // Below key 60 and above key 72 there is no target: 100 Hz reads key 60, far flat.
        let low = try #require(system.nearest(to: Hertz(100)))
        #expect(low.note == Note(midi: 60) && low.cents.value < -1000)
        let high = try #require(system.nearest(to: Hertz(5000)))
        #expect(high.note == Note(midi: 72))
    }

    @Test func theFormalOctaveSetsTheRepeatInterval() throws {
        // A one-key map of 12-tone equal temperament whose "octave" is degree 7: each key a fifth higher.
        let kbm = "1\n0\n127\n60\n60\n261.6255653\n7\n0\n"
        let mapping = try Scala.mapping(text: kbm, file: "fifths.kbm", scale: .equal)
        let system = TargetSystem(temperament: .equal, keyboard: mapping)
        let step = system.interval(from: Note(midi: 60), to: Note(midi: 61)).value
        #expect(abs(step - 700) < 1e-9)
        #expect(abs(system.interval(from: Note(midi: 58), to: Note(midi: 60)).value - 1400) < 1e-9)
        // Formal octave 0 is the period: the same map then steps by octaves.
        let octaves = try Scala.mapping(text: "1\n0\n127\n60\n60\n261.6255653\n0\n0\n", file: "o.kbm", scale: .equal)
        let plain = TargetSystem(temperament: .equal, keyboard: octaves)
        #expect(abs(plain.interval(from: Note(midi: 60), to: Note(midi: 61)).value - 1200) < 1e-9)
    }

    @Test func fewerEntriesThanTheSizeLeaveTheRestUnmapped() throws {
        // Size 12 with 10 entries: the last two keys of each pattern (A♯, B) are unmapped.
        let kbm = "12\n0\n127\n60\n69\n440\n12\n" + (0..<10).map(String.init).joined(separator: "\n") + "\n"
        let mapping = try Scala.mapping(text: kbm, file: "ten.kbm", scale: .equal)
        #expect(mapping.entries.count == 12 && mapping.entries[10] == nil && mapping.entries[11] == nil)
        let system = TargetSystem(temperament: .equal, keyboard: mapping)
        #expect(system.target(named: "B4") == nil && system.target(named: "A4") == Note(midi: 69))
        #expect(system.nearest(to: Note(midi: 71).frequency(a4: Hertz(440)))?.note != Note(midi: 71))
    }

    @Test func brokenKeyboardMappingsNameTheirLine() throws {
        func error(_ text: String, scale: Temperament = ScalaTests.justMajor) -> ScalaError? {
            do { _ = try Scala.mapping(text: text, file: "m.kbm", scale: scale); return nil } catch { return error }
        }
        let white = "\n0\n1\nx\n2\n3\n4\n5\nx\n6\n"  // the 7 entries of a 10-key pattern, after the header
        #expect(error("10\n0\n127\n60\n60\n264\n7" + white) == nil)
        #expect(error("") == ScalaError(file: "m.kbm", line: nil, kind: .empty))
        #expect(error("twelve\n0\n127\n60\n69\n440\n7\n")
                == ScalaError(file: "m.kbm", line: 1, kind: .badMapping(field: "map size", text: "twelve")))
        #expect(error("200\n0\n127\n60\n69\n440\n7\n")
                == ScalaError(file: "m.kbm", line: 1, kind: .badMapping(field: "map size", text: "200")))
        #expect(error("0\n0\n128\n60\n69\n440\n7\n")
                == ScalaError(file: "m.kbm", line: 3, kind: .badMapping(field: "last note", text: "128")))
        #expect(error("! comment\n0\n0\n127\n60\n69\n-3\n7\n")
                == ScalaError(file: "m.kbm", line: 7, kind: .badMapping(field: "reference frequency", text: "-3")))
        #expect(error("0\n0\n127\n60\n69\n440\n")
                == ScalaError(file: "m.kbm", line: nil, kind: .badMapping(field: "formal octave", text: "")))
        #expect(error("0\n80\n70\n60\n75\n440\n7\n")
                == ScalaError(file: "m.kbm", line: 3, kind: .firstAboveLast(first: 80, last: 70)))
        #expect(error("0\n0\n127\n60\n69\n440\n8\n")
                == ScalaError(file: "m.kbm", line: 7, kind: .beyondScale(degree: 8, count: 7)))
        // An 8th entry for a size of 7: the line of the extra entry.
        #expect(error("7\n0\n127\n60\n60\n264\n7\n0\n1\n2\n3\n4\n5\n6\n0\n")
                == ScalaError(file: "m.kbm", line: 15, kind: .tooManyEntries(size: 7)))
        #expect(error("7\n0\n127\n60\n60\n264\n7\n0\n7\n")
                == ScalaError(file: "m.kbm", line: 9, kind: .beyondScale(degree: 7, count: 7)))
        #expect(error("7\n0\n127\n60\n60\n264\n7\n0\n-1\n")
                == ScalaError(file: "m.kbm", line: 9, kind: .badMapping(field: "map entry", text: "-1")))
        #expect(error("7\n0\n127\n60\n60\n264\n7\n0\ny\n")
                == ScalaError(file: "m.kbm", line: 9, kind: .badMapping(field: "map entry", text: "y")))
        // The reference key marked x, or beyond the entries given: its frequency would tune nothing.
        #expect(error("! ref on a black key\n12\n0\n127\n60\n61\n277\n7\n0\nx\n1\n")
                == ScalaError(file: "m.kbm", line: 6, kind: .unmappedReference(note: 61)))
        #expect(error("12\n0\n127\n60\n69\n415.0\n12\n", scale: .equal)
                == ScalaError(file: "m.kbm", line: 5, kind: .unmappedReference(note: 69)))
    }
}
