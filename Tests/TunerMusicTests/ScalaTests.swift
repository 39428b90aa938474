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

    @Test func aKeyboardMappingHeaderReads() throws {
        let kbm = """
            ! A4 = 415 Hz, degree 0 on C4
            12
            0
            127
            60
            69
            415.0
            12
            ! mapping
            0
            1
            """
        let mapping = try Scala.mapping(text: kbm, file: "a415.kbm")
        #expect(mapping == Scala.KeyboardMapping(middleNote: 60, referenceNote: 69, referenceFrequency: Hertz(415)))
        #expect(throws: ScalaError(file: "m.kbm", line: 6, kind: .badMapping(field: "reference frequency", text: "-3"))) {
            try Scala.mapping(text: "12\n0\n127\n60\n69\n-3\n12\n", file: "m.kbm")
        }
        #expect(throws: ScalaError(file: "m.kbm", line: nil, kind: .badMapping(field: "formal octave", text: ""))) {
            try Scala.mapping(text: "12\n0\n127\n60\n69\n440\n", file: "m.kbm")
        }
    }
}
