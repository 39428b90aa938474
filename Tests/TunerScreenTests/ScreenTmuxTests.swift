import Foundation
import Testing
import TunerTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real binary on a real (tmux) terminal: what a musician sees, what the keys do, and that the
/// terminal is clean afterwards. Serialized: each test owns a tmux server, and they share two cores.
@Suite(.serialized) struct ScreenTmuxTests {
    /// Runs `command` in the pane as `sh -c 'echo $$ > pid; exec …'` (so the test knows its process id),
    /// after saving the terminal modes, then prints EXIT=<status> and whether the modes came back.
    func launch(_ tmux: TmuxHarness, _ arguments: String, environment: String = "") {
        tmux.run("stty -g > \(tmux.path("stty.before")); clear")
        let inner = "echo $$ > \(tmux.path("pid")); exec \(environment) \(TmuxHarness.tunerPath) \(arguments)"
        tmux.run("sh -c \(tmux.quote(inner)); echo EXIT=$?; stty -g | cmp -s - \(tmux.path("stty.before")) && echo MODES=SAME")
    }

    func pid(_ tmux: TmuxHarness) -> pid_t? {
        (try? String(contentsOfFile: tmux.path("pid"), encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// After the program ended: its exit status, terminal modes as before, cursor shown, normal screen.
    func expectCleanExit(_ tmux: TmuxHarness, status: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let after = tmux.waitFor { $0.contains("EXIT=") && $0.split(separator: "\n").last == "PROMPT$" }
        #expect(after != nil, "the shell prompt came back:\n\(tmux.screen)", sourceLocation: sourceLocation)
        let text = after ?? tmux.screen
        #expect(text.contains("EXIT=\(status)"), "exit status \(status) in:\n\(text)", sourceLocation: sourceLocation)
        #expect(text.contains("MODES=SAME"), "stty modes restored", sourceLocation: sourceLocation)
        #expect(!text.contains("q quit"), "no curses leftovers on the shell screen", sourceLocation: sourceLocation)
        #expect(tmux.paneFlag("#{alternate_on}") == "0", "left the alternate screen", sourceLocation: sourceLocation)
        #expect(tmux.paneFlag("#{cursor_flag}") == "1", "cursor visible", sourceLocation: sourceLocation)
        #expect(tmux.paneFlag("#{keypad_flag}") == "0", "keypad mode off", sourceLocation: sourceLocation)
    }

    /// The pane's text line with the numbers, e.g. "A2   110.06 Hz   +1.0 ¢   IN TUNE ✓".
    func numbersLine(_ text: String) -> String? {
        text.split(separator: "\n").map(String.init).first { $0.contains(" Hz ") && $0.contains("¢") && !$0.contains("A4") }
    }

    @Test func knownFileShowsNoteCentsAndCueThenKeysResizeAndQuit() throws {
        let tmux = try TmuxHarness(name: "file")
        // A2 +1.0 ¢ for 4 s: in tune at the default ±3 ¢.
        let file = tmux.path("a2-plus1.wav")
        try writeSineWAV(path: file, frequency: 110 * pow(2, 1.0 / 1200), seconds: 4)
        launch(tmux, "--file \(file)")

        let shown = tmux.waitForSteady { numbersLine($0)?.contains("IN TUNE ✓") == true }
        #expect(shown != nil, "in-tune cue shown:\n\(tmux.screen)")
        let line = numbersLine(shown ?? "") ?? "(no line with the numbers in:\n\(shown ?? tmux.screen))"
        #expect(line.contains("A2 "), "note named: \(line)")
        #expect(line.contains("110.06 Hz") || line.contains("110.07 Hz") || line.contains("110.05 Hz"), "\(line)")
        let cents = line.split(separator: " ").first { $0.hasPrefix("+") }.flatMap { Double($0) }
        #expect(cents.map { abs($0 - 1.0) <= 0.2 } == true, "signed cents +1.0 ± 0.2 in: \(line)")
        #expect(line.contains(" ¢   IN TUNE ✓"))
        #expect(shown?.contains("tolerance ±3.0 ¢") == true)
        #expect(shown?.contains("file") == true, "status names the source")

        tmux.keys("+")
        #expect(tmux.waitFor { $0.contains("tolerance ±3.5 ¢") } != nil, "+ widened the tolerance:\n\(tmux.screen)")
        tmux.keys("]")
        #expect(tmux.waitFor { $0.contains("A4 441 Hz") } != nil, "] raised A4:\n\(tmux.screen)")

        tmux.resize(columns: 30, rows: 10)
        #expect(tmux.waitFor { $0.contains("Terminal too small") && $0.contains("40×12") } != nil,
                "too-small message:\n\(tmux.screen)")
        tmux.resize(columns: 80, rows: 24)
        let back = tmux.waitFor { $0.contains("tolerance ±3.5 ¢") && $0.contains("q quit") && !$0.contains("too small") }
        #expect(back != nil, "the tuner again at 80×24:\n\(tmux.screen)")
        #expect(back.flatMap(numbersLine)?.contains("A2 ") == true, "with the note")

        tmux.keys("q")
        expectCleanExit(tmux, status: 0)
    }

    @Test func withoutACaptureDeviceTheDemoRunsAndSIGTERMRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(name: "demo")
        launch(tmux, "")
        let demo = tmux.waitFor { $0.contains("built-in demo") && $0.contains("A2 ") }
        #expect(demo != nil, "the demo is on screen:\n\(tmux.screen)")
        let id = try #require(pid(tmux))
        #expect(kill(id, SIGTERM) == 0)
        expectCleanExit(tmux, status: 143)
        // Joined, in case the line wraps (the ALSA reason's wording varies by machine).
        let joined = { (text: String) in text.replacingOccurrences(of: "\n", with: "") }
        let after = tmux.waitFor(timeout: 5) { joined($0).contains("showing the built-in demo.") } ?? tmux.screen
        #expect(joined(after).contains("No capture device (ALSA: ") && joined(after).contains("showing the built-in demo."),
                "the one line saying why:\n\(after)")
    }

    @Test func hangupEndsWith129AndACleanTerminal() throws {
        let tmux = try TmuxHarness(name: "sighup")
        launch(tmux, "")
        #expect(tmux.waitFor { $0.contains("q quit") } != nil, "screen up:\n\(tmux.screen)")
        let id = try #require(pid(tmux))
        #expect(kill(id, SIGHUP) == 0)
        expectCleanExit(tmux, status: 129)
    }

    @Test func controlCEndsWith130AndACleanTerminal() throws {
        let tmux = try TmuxHarness(name: "sigint")
        launch(tmux, "")
        #expect(tmux.waitFor { $0.contains("q quit") } != nil, "screen up:\n\(tmux.screen)")
        tmux.keys("C-c")
        expectCleanExit(tmux, status: 130)
    }

    @Test(arguments: [SIGSEGV, SIGABRT])
    func crashSignalRestoresTheTerminalThenKillsTheProcess(signal: Int32) throws {
        let tmux = try TmuxHarness(name: "crash\(signal)")
        // Swift's crash reporter (which runs after the terminal is restored) is off: its report would fill the pane.
        launch(tmux, "", environment: "env SWIFT_BACKTRACE=enable=no")
        #expect(tmux.waitFor { $0.contains("q quit") } != nil, "screen up:\n\(tmux.screen)")
        let id = try #require(pid(tmux))
        #expect(kill(id, signal) == 0)
        // The signal still ends the process as it would have (shell status 128 + signal number).
        expectCleanExit(tmux, status: 128 + Int(signal))
    }

    /// Ctrl-\\ ends the screen like Ctrl-C (exit 131), and a SIGSEGV or SIGBUS another process sends
    /// ends it at once with the terminal restored — with Swift's crash reporter left on, as a user has
    /// it: no report drawn over the pane, and the tuner does not run on.
    @Test func quitKeyEndsWith131AndACleanTerminal() throws {
        let tmux = try TmuxHarness(name: "sigquit")
        launch(tmux, "")
        #expect(tmux.waitFor { $0.contains("q quit") } != nil, "screen up:\n\(tmux.screen)")
        tmux.keys("C-\\\\")
        expectCleanExit(tmux, status: 131)
        #expect(!tmux.screen.contains("Backtracing"), "no crash report:\n\(tmux.screen)")
    }

    @Test(arguments: [SIGSEGV, SIGBUS])
    func sentFaultSignalEndsTheScreenWithoutACrashReport(signal: Int32) throws {
        let tmux = try TmuxHarness(name: "sent\(signal)")
        launch(tmux, "")
        #expect(tmux.waitFor { $0.contains("q quit") } != nil, "screen up:\n\(tmux.screen)")
        let id = try #require(pid(tmux))
        #expect(kill(id, signal) == 0)
        expectCleanExit(tmux, status: 128 + Int(signal))
        #expect(!tmux.screen.contains("Backtracing") && !tmux.screen.contains("crashed"), "no crash report:\n\(tmux.screen)")
    }

    /// Alt+x and an escape sequence the terminfo does not know leave the tuner running (they quit it
    /// before); keys after them still work, and Esc alone still quits.
    @Test func altLetterAndUnknownSequencesDoNotQuit() throws {
        let tmux = try TmuxHarness(name: "escape")
        launch(tmux, "")
        #expect(tmux.waitFor { $0.contains("q quit") && $0.contains("tolerance ±3.0 ¢") } != nil, "screen up:\n\(tmux.screen)")
        // Each sent while the tuner is idle, so each is a read of its own: a read that holds only skipped
        // bytes must not be taken for the end of the input (keys after it must still come).
        tmux.keys("M-x")
        tmux.keys("+")
        #expect(tmux.waitFor { $0.contains("tolerance ±3.5 ¢") } != nil, "still running, + handled:\n\(tmux.screen)")
        tmux.tmux("send-keys -t 0 -H 1b 5b 31 3b 39 48")  // Esc [ 1 ; 9 H: no terminfo names it
        tmux.keys("+")
        #expect(tmux.waitFor { $0.contains("tolerance ±4.0 ¢") } != nil, "still running, + handled:\n\(tmux.screen)")
        tmux.keys("Escape")
        expectCleanExit(tmux, status: 0)
    }

    @Test func noColorStillShowsTheInTuneCueAsText() throws {
        let tmux = try TmuxHarness(name: "nocolor")
        let file = tmux.path("a2.wav")
        try writeSineWAV(path: file, frequency: 110, seconds: 3)
        launch(tmux, "--file \(file)", environment: "env NO_COLOR=1")
        #expect(tmux.waitFor { $0.contains("IN TUNE ✓") } != nil, "cue without colour:\n\(tmux.screen)")
        let coloured = tmux.tmuxOutput("capture-pane -p -e -t 0")
        #expect(!coloured.contains("\u{1b}[32m") && !coloured.contains("\u{1b}[33m"), "no colour escapes")
        tmux.keys("Escape")
        expectCleanExit(tmux, status: 0)
    }

    @Test func unknownTerminalTypeIsAnErrorNotAnExit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tuner-term-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try writeSineWAV(path: dir + "/a.wav", frequency: 110, seconds: 0.5)
        let status = system(TestEnvironment.shellPrefix + "TERM=no-such-terminal \(TmuxHarness.tunerPath) --file \(dir)/a.wav --output screen "
                            + "> \(dir)/out 2> \(dir)/err < /dev/null")
        #expect((status >> 8) & 0xff == 1)
        let err = try String(contentsOfFile: dir + "/err", encoding: .utf8)
        #expect(err == "Error: cannot start the screen: terminal type TERM=no-such-terminal is unknown; "
                + "set TERM (e.g. xterm-256color) or use --output text\n")
        #expect(try String(contentsOfFile: dir + "/out", encoding: .utf8) == "")
    }

    /// Settings read from a config file show on the status line, with the file's name.
    @Test func theStatusLineSaysWhichConfigFileWasRead() throws {
        let tmux = try TmuxHarness(name: "cfg")
        let file = tmux.path("a2.wav")
        try writeSineWAV(path: file, frequency: 110, seconds: 3)
        try "tolerance = 1.5  # from the file\n".write(toFile: tmux.path("t.conf"), atomically: true, encoding: .utf8)
        launch(tmux, "--config \(tmux.path("t.conf")) --file \(file)")
        let shown = tmux.waitFor { $0.contains("tolerance ±1.5 ¢") }
        #expect(shown != nil, "the file's tolerance:\n\(tmux.screen)")
        let status = (shown ?? tmux.screen).split(separator: "\n").first { $0.contains("tolerance") }.map(String.init) ?? ""
        // HOME is the harness's folder, where t.conf is: the line shortens it to ~.
        #expect(status.hasSuffix(" · config ~/t.conf"), "status line: \(status)")
        tmux.keys("q")
        expectCleanExit(tmux, status: 0)
    }
}
