/// A grid of dots drawn with Unicode braille: each character cell holds 2 × 4 dots (U+2800 + one bit
/// per dot), so a terminal cell carries eight pixels. Pure: it knows nothing of the screen.
public struct BrailleCanvas: Equatable, Sendable {
    /// Size in cells.
    public let columns: Int
    public let rows: Int
    /// Size in dots.
    public var width: Int { columns * 2 }
    public var height: Int { rows * 4 }
    private var cells: [UInt8]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = [UInt8](repeating: 0, count: self.columns * self.rows)
    }

    /// The bit of dot (x, y) inside its cell, by the braille numbering: dots 1–3 and 7 down the left
    /// column, 4–6 and 8 down the right.
    static func bit(x: Int, y: Int) -> UInt8 {
        let left: [UInt8] = [0x01, 0x02, 0x04, 0x40], right: [UInt8] = [0x08, 0x10, 0x20, 0x80]
        return (x % 2 == 0 ? left : right)[y % 4]
    }

    /// Sets dot (x, y), x from the left, y from the top; dots outside the canvas are ignored.
    public mutating func set(x: Int, y: Int) {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return }
        cells[(y / 4) * columns + x / 2] |= Self.bit(x: x, y: y)
    }

    public func isSet(x: Int, y: Int) -> Bool {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return false }
        return cells[(y / 4) * columns + x / 2] & Self.bit(x: x, y: y) != 0
    }

    /// Draws a straight line of dots from (x0, y0) to (x1, y1), both ends included.
    public mutating func line(from x0: Int, _ y0: Int, to x1: Int, _ y1: Int) {
        let steps = max(abs(x1 - x0), abs(y1 - y0))
        guard steps > 0 else { return set(x: x0, y: y0) }
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            set(x: Int((Double(x0) + t * Double(x1 - x0)).rounded()), y: Int((Double(y0) + t * Double(y1 - y0)).rounded()))
        }
    }

    /// One string per cell row (blank cells are U+2800, the empty braille pattern, so columns stay aligned).
    public var lines: [String] {
        (0..<rows).map { row in
            String(String.UnicodeScalarView((0..<columns).map { Unicode.Scalar(0x2800 + UInt32(cells[row * columns + $0]))! }))
        }
    }
}

/// The history graph (key h): the last `span` seconds of the reading's cents from its target as a
/// line of braille dots, +50 ¢ at the top and −50 ¢ at the bottom (beyond that it is clipped to the
/// edge), the tolerance band's edges dotted, time running left to right and ending at the newest
/// reading. Time is the readings' own (seconds of input), so the graph scrolls with the input, not a
/// clock; a reading with no pitch leaves a gap.
public enum HistoryGraph {
    /// One point of the history: when, and the cents shown then (nil: no pitch).
    public struct Point: Equatable, Sendable {
        public var time: Double
        public var cents: Double?
        public init(time: Double, cents: Double?) {
            self.time = time
            self.cents = cents
        }
    }

    /// Seconds the graph shows.
    public static let span = 10.0
    /// The cents at the top and bottom edges; readings beyond are drawn at the edge.
    public static let range = 50.0
    /// Two pitched readings further apart than this are not joined (readings come every 10 ms; a
    /// longer silence is a gap even if no pitchless reading came in between).
    public static let joinGap = 0.1

    /// Dot row of `cents` on a canvas `height` dots tall (clipped to ±`range`).
    public static func y(_ cents: Double, height: Int) -> Int {
        let c = min(max(cents, -range), range)
        return Int(((range - c) / (2 * range) * Double(height - 1)).rounded())
    }

    /// Dot column of `time` on a canvas `width` dots wide whose right edge is `now`.
    public static func x(_ time: Double, now: Double, width: Int) -> Int {
        Int(((time - (now - span)) / span * Double(width - 1)).rounded())
    }

    /// The graph of `points` (oldest first) on `columns` × `rows` cells, ending at `now`, with the
    /// edges of ±`tolerance` dotted on every other dot column.
    public static func render(_ points: [Point], now: Double, tolerance: Double, columns: Int, rows: Int) -> BrailleCanvas {
        var canvas = BrailleCanvas(columns: columns, rows: rows)
        guard canvas.width > 1, canvas.height > 1 else { return canvas }
        let edges = Set([y(tolerance, height: canvas.height), y(-tolerance, height: canvas.height)])
        for edge in edges {
            for x in stride(from: 0, to: canvas.width, by: 2) { canvas.set(x: x, y: edge) }
        }
        var previous: (x: Int, y: Int, time: Double)?
        for point in points where point.time > now - span - joinGap && point.time <= now {
            guard let cents = point.cents, cents.isFinite else {
                previous = nil
                continue
            }
            let px = x(point.time, now: now, width: canvas.width), py = y(cents, height: canvas.height)
            if let p = previous, point.time - p.time <= joinGap {
                canvas.line(from: p.x, p.y, to: px, py)
            } else {
                canvas.set(x: px, y: py)
            }
            previous = (px, py, point.time)
        }
        return canvas
    }
}
