import Testing
@testable import TunerScreen

/// Only a lone Esc quits: Alt+letter and escape sequences curses did not decode are skipped whole.
@Suite struct EscapeKeyTests {
    static func codes(_ text: String) -> [Int32] { text.unicodeScalars.map { Int32($0.value) } }

    @Test func aLoneEscQuits() {
        #expect(CursesTerminal.keys(for: [27]) == [.quit])
        #expect(CursesTerminal.keys(for: Self.codes("+\u{1B}")) == [.toleranceUp, .quit])
    }

    @Test func altLetterIsNotAQuit() {
        #expect(CursesTerminal.keys(for: Self.codes("\u{1B}x")) == [])
        #expect(CursesTerminal.keys(for: Self.codes("\u{1B}q")) == [], "Alt+q is not q")
        #expect(CursesTerminal.keys(for: Self.codes("\u{1B}x+")) == [.toleranceUp])
    }

    @Test func unknownSequencesAreSkippedWhole() {
        #expect(CursesTerminal.keys(for: Self.codes("\u{1B}[1;9H")) == [], "CSI with parameters")
        #expect(CursesTerminal.keys(for: Self.codes("\u{1B}[200~]")) == [.referenceUp], "the key after it counts")
        #expect(CursesTerminal.keys(for: Self.codes("\u{1B}OH[")) == [.referenceDown], "SS3 Home, then [")
        #expect(CursesTerminal.keys(for: Self.codes("\u{1B}\u{1B}")) == [], "Alt+Esc")
    }

    @Test func keysCursesDecodedStayKeys() {
        #expect(CursesTerminal.keys(for: [0x106 /* KEY_HOME */, 113]) == [.other, .quit])
    }
}
