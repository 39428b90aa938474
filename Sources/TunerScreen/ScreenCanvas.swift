/// How a run of text is drawn; the terminal decides what that means (colour, bold, reverse), so that
/// every cue also exists as text or shape for terminals without colour or with `NO_COLOR`.
public enum ScreenStyle: Equatable, Sendable {
    case normal, bold, dim
    /// In tune: the cue, the needle inside the zone.
    case good
    /// Out of tune: flat or sharp.
    case warn
    /// The tolerance zone on the scale.
    case zone
    /// The status line and key help.
    case bar
    /// The target string in the tuning row: reversed, so it stands out without colour too.
    case active
}

/// Where `ScreenRenderer` draws: the curses terminal, or an off-screen grid in tests.
public protocol ScreenCanvas: AnyObject {
    var size: ScreenSize { get }
    /// Starts a frame: everything blank.
    func clear()
    /// Draws `text` at `row`, `column` (0-based) in `style`; what falls outside the canvas is cut off.
    func put(_ text: String, row: Int, column: Int, style: ScreenStyle)
    /// Ends a frame: shows it.
    func present()
}

/// An off-screen canvas: a grid of characters (and their styles) that tests read back.
public final class TextCanvas: ScreenCanvas {
    public var size: ScreenSize
    public private(set) var cells: [[Character]]
    public private(set) var styles: [[ScreenStyle]]
    public private(set) var frames = 0

    public init(size: ScreenSize) {
        self.size = size
        cells = []
        styles = []
        clear()
    }

    public func clear() {
        cells = Array(repeating: Array(repeating: " ", count: size.columns), count: size.rows)
        styles = Array(repeating: Array(repeating: .normal, count: size.columns), count: size.rows)
    }

    public func put(_ text: String, row: Int, column: Int, style: ScreenStyle) {
        guard (0..<size.rows).contains(row) else { return }
        for (i, c) in text.enumerated() where (0..<size.columns).contains(column + i) {
            cells[row][column + i] = c
            styles[row][column + i] = style
        }
    }

    public func present() { frames += 1 }

    /// The rows as text, trailing blanks removed.
    public var lines: [String] {
        cells.map { row in
            var s = String(row)
            while s.last == " " { s.removeLast() }
            return s
        }
    }
    public var text: String { lines.joined(separator: "\n") }
}
