import Foundation
import Testing

/// Key h on a real (tmux) terminal: the history graph of a string 8 ¢ sharp appears under the tuner,
/// its line above the 0 ¢ row, and goes away again.
@Suite(.serialized) struct HistoryTmuxTests {
    /// Braille cells with at least one dot in `line`.
    static func dotted(_ line: Substring) -> Int {
        line.unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count
    }

    @Test func keyHShowsTheHistoryGraphAndHidesIt() throws {
        let tmux = try TmuxHarness(name: "history")
        let file = tmux.path("a2-sharp.wav")
        try writeSineWAV(path: file, frequency: 110 * pow(2, 8.0 / 1200), seconds: 8)
        tmux.run("\(TmuxHarness.tunerPath) --file \(file); echo EXIT=$?")
        #expect(tmux.waitFor { $0.contains("+8.0 ¢") } != nil, "the string is shown:\n\(tmux.screen)")
        #expect(!tmux.screen.contains("-10 s"))

        tmux.keys("h")
        // Two seconds of history on screen: a line of more than 15 cells.
        let shown = tmux.waitFor { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            guard let zero = lines.firstIndex(where: { $0.hasPrefix("  0¢") }),
                  let top = lines.firstIndex(where: { $0.hasPrefix("+50¢") }), top < zero else { return false }
            return lines[top..<zero].contains { Self.dotted($0) > 15 }
        }
        #expect(shown != nil, "the line above 0 ¢:\n\(tmux.screen)")
        if let shown {
            print("history graph in tmux:\n" + shown)
            let lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.contains { $0.contains("-10 s") && $0.contains("-5 s") && $0.hasSuffix("now") })
            #expect(lines.contains { $0.hasPrefix("-50¢") })
            #expect(lines.contains { $0.contains("h graph") })
        }
        tmux.keys("h")
        #expect(tmux.waitFor { !$0.contains("-10 s") && $0.contains("+8.0 ¢") } != nil, "h hides it:\n\(tmux.screen)")
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("EXIT=0") } != nil)
    }
}
