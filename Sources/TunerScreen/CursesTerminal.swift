import CNcurses
import Foundation

/// Why the screen could not start.
public struct ScreenError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}

/// The real terminal through ncursesw: a `ScreenCanvas` to draw on and a `ScreenInput` for keys and size.
/// The one place that calls curses.
///
/// Lifecycle: `init` saves the terminal modes for the crash path (`ctuner_install_crash_restore`),
/// starts curses with `newterm` (not `initscr`, which exits the process on an unknown `TERM`) and
/// sets cbreak, no echo, keypad, non-blocking `getch`, hidden cursor and colours unless `noColor`.
/// `restore` ends curses (`endwin`, `delscreen`) — call it exactly once, from ordinary code (never a
/// signal handler). Used from one task only.
public final class CursesTerminal: ScreenCanvas, ScreenInput {
    private var screen: OpaquePointer?
    public let usesColor: Bool
    public private(set) var size: ScreenSize
    /// Called from `inputHandled` unless standard input has ended (then no more `.input` events are wanted).
    var resumeInput: (() -> Void)?
    private(set) var inputClosed = false

    private enum Pair: Int16 { case good = 1, warn, zone }

    /// Fatal signals for the whole process (see `ctuner_crash_handler`): one sent by another process
    /// (`kill -SEGV`) ends the tuner at once, a real fault reaches Swift's backtracer first, and either
    /// way the terminal is restored first while the screen is up. Call first thing in `main`.
    public static func installFatalSignalHandlers() { ctuner_install_fatal_signal_handlers() }

    /// False when `TERM` names a terminal that cannot move the cursor (`TERM=dumb`), where the screen
    /// would stay blank; true otherwise (an unknown `TERM` is reported by `init`).
    public static func terminalCanDraw() -> Bool { ctuner_terminal_can_draw() != 0 }

    public init(noColor: Bool) throws(ScreenError) {
        // The user's locale; if it is not UTF-8 (e.g. LANG unset), UTF-8 characters anyway, so that
        // ♯ ♭ █ ▒ ✓ reach the terminal intact rather than as escapes.
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        ctuner_install_crash_restore()
        guard let screen = newterm(nil, ctuner_stdout(), ctuner_stdin()) else {
            ctuner_remove_crash_restore()
            let term = ProcessInfo.processInfo.environment["TERM"] ?? "(unset)"
            throw ScreenError(description: "cannot start the screen: terminal type TERM=\(term) is unknown; set TERM (e.g. xterm-256color) or use --output text")
        }
        self.screen = screen
        set_term(screen)
        cbreak()
        noecho()
        nonl()
        keypad(ctuner_stdscr(), true)
        nodelay(ctuner_stdscr(), true)
        set_escdelay(Self.escapeDelayMilliseconds)
        curs_set(0)
        var color = false
        if !noColor && has_colors() {
            start_color()
            use_default_colors()
            init_pair(Pair.good.rawValue, Int16(COLOR_GREEN), -1)
            init_pair(Pair.warn.rawValue, Int16(COLOR_YELLOW), -1)
            init_pair(Pair.zone.rawValue, Int16(COLOR_GREEN), -1)
            color = true
        }
        usesColor = color
        size = ScreenSize(rows: Int(ctuner_lines()), columns: Int(ctuner_cols()))
    }

    /// Ends curses and puts the terminal back as it was (`endwin`, `delscreen`).
    public func restore() {
        guard let screen else { return }
        endwin()
        delscreen(screen)
        self.screen = nil
        ctuner_remove_crash_restore()
    }

    deinit { restore() }

    // MARK: ScreenCanvas

    public func clear() { werase(ctuner_stdscr()) }

    public func put(_ text: String, row: Int, column: Int, style: ScreenStyle) {
        guard (0..<size.rows).contains(row), column < size.columns else { return }
        var text = Substring(text), column = column
        if column < 0 { text = text.dropFirst(-column); column = 0 }
        let visible = String(text.prefix(size.columns - column))
        let (attributes, pair) = look(style)
        _ = ctuner_put(Int32(row), Int32(column), visible, attributes, pair)
    }

    public func present() { wrefresh(ctuner_stdscr()) }

    private func look(_ style: ScreenStyle) -> (attr_t, Int16) {
        switch style {
        case .normal: return (ctuner_a_normal(), 0)
        case .bold: return (ctuner_a_bold(), 0)
        case .dim: return (ctuner_a_dim(), 0)
        case .good: return usesColor ? (ctuner_a_bold(), Pair.good.rawValue) : (ctuner_a_bold() | ctuner_a_reverse(), 0)
        case .warn: return (ctuner_a_bold(), usesColor ? Pair.warn.rawValue : 0)
        case .zone: return (ctuner_a_normal(), usesColor ? Pair.zone.rawValue : 0)
        case .bar: return (ctuner_a_reverse(), 0)
        case .active: return (ctuner_a_reverse() | ctuner_a_bold(), 0)
        }
    }

    // MARK: ScreenInput

    /// How long curses waits after an Esc for the rest of an escape sequence (`ESCDELAY`): a lone Esc
    /// quits only once nothing followed it for this long. 100 ms: ncurses' own default (1 s) makes Esc
    /// feel broken, the 25 ms used before split sequences arriving over ssh into a "lone" Esc that quit.
    static let escapeDelayMilliseconds: Int32 = 100

    public func readKeys() -> [ScreenKey] {
        var codes: [Int32] = []
        while true {
            let c = wgetch(ctuner_stdscr())
            if c == ERR { break }
            codes.append(c)
        }
        let keys = Self.keys(for: codes)
        // Readable with nothing to read: standard input has ended or hung up.
        if codes.isEmpty && ctuner_pending_bytes(0) <= 0 { inputClosed = true }
        return keys
    }

    public func inputHandled() {
        if !inputClosed { resumeInput?() }
    }

    /// The size the kernel reports now; curses is told (`resizeterm`) when it changed.
    public func currentSize() -> ScreenSize {
        var rows: Int32 = 0, cols: Int32 = 0
        if ctuner_window_size(1, &rows, &cols) == 0, Int(rows) != size.rows || Int(cols) != size.columns {
            resizeterm(rows, cols)
        }
        size = ScreenSize(rows: Int(ctuner_lines()), columns: Int(ctuner_cols()))
        return size
    }

    /// The keys in what curses returned at once. An Esc that starts a sequence curses did not decode is
    /// not a key: Alt+letter (Esc x), an unknown CSI sequence (Esc [ … final byte, e.g. Home/End in a
    /// terminal whose terminfo lacks them) or SS3 (Esc O x) are skipped whole. Only an Esc with nothing
    /// after it (curses waited `escapeDelayMilliseconds` for more) is the Esc key, which quits.
    static func keys(for codes: [Int32]) -> [ScreenKey] {
        var keys: [ScreenKey] = []
        var i = 0
        while i < codes.count {
            let code = codes[i]
            i += 1
            guard code == 27 else {
                keys.append(key(for: code))
                continue
            }
            guard i < codes.count else {
                keys.append(.quit)  // a lone Esc
                break
            }
            let next = codes[i]
            i += 1
            if next == 91 {  // "[": parameters and intermediates, then one final byte 0x40…0x7E
                while i < codes.count, !(0x40...0x7E).contains(codes[i]) { i += 1 }
                i += 1
            } else if next == 79 {  // "O": one more byte
                i += 1
            }
        }
        return keys
    }

    /// q, Q and Esc quit; + = and - _ change the tolerance; [ ] nudge A4; 0…9 lock a string
    /// (0: automatic); s S toggle the strobe; t T play the target note; h H toggle the history graph;
    /// p P switch between one string and every string of a strum.
    static func key(for code: Int32) -> ScreenKey {
        switch code {
        case 48...57: return .digit(Int(code) - 48)  // 0…9
        case 115, 83: return .strobe  // s S
        case 112, 80: return .strums  // p P
        case 116, 84: return .tone  // t T
        case 104, 72: return .history  // h H
        case 113, 81, 27: return .quit  // q Q Esc
        case 43, 61: return .toleranceUp  // + =
        case 45, 95: return .toleranceDown  // - _
        case 91: return .referenceDown  // [
        case 93: return .referenceUp  // ]
        default: return .other
        }
    }
}
