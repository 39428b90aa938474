import Foundation
import TunerBridge
import TunerMusic

/// Draws a `ScreenModel` on a `ScreenCanvas`: the whole picture from the one value, every frame.
///
/// Layout (rows, top to bottom; the middle block is centred in taller terminals):
/// status · big note (5) · tuning row (with a tuning) · numbers and cue · needle · scale with the
/// tolerance zone · strobe band (key s) · scale labels · level meter · key help. When the terminal is
/// too short for all of them (the minimum is 40×12), the scale labels go first, then the level meter.
public enum ScreenRenderer {
    public static let tooSmallMessage =
        "Terminal too small (need \(ScreenSize.minimum.columns)×\(ScreenSize.minimum.rows))"
    public static let keyHelp = "q quit   + - tolerance   [ ] A4 ±1 Hz   s strobe   t tone   h graph"
    /// The key help with a tuning: the string keys too.
    public static let tuningKeyHelp = "q quit  +- tolerance  [] A4  s strobe  t tone  h graph  1-9 lock  0 auto"
    /// Added to the key help with a tuning when the terminal is wide enough for it.
    public static let strumKeyHint = "  p strums"
    /// The key help in strum mode.
    public static let strumKeyHelp = "q quit   + - tolerance   [ ] A4 ±1 Hz   p one string"
    /// Cells of a string's needle in strum mode: ±50 ¢ in 2-cent steps would not fit; 25 cells, 4 ¢ each.
    public static let strumNeedleWidth = 25

    /// The rows of the middle block, in order, and how many lines each takes.
    enum Part: Equatable {
        case note, strings, numbers, scale, strobe, labels, level
        /// The history graph: `rows` of braille and its time axis under them.
        case graph(rows: Int)
        var height: Int {
            switch self {
            case .note: return 5
            case .scale: return 2
            case .graph(let rows): return rows + 1
            default: return 1
            }
        }
    }

    /// Columns left of the graph for its cents labels ("+50¢ ", "  0¢ ", "-50¢ ").
    public static let graphGutter = 5
    /// The fewest braille rows worth drawing (12 dots: ±50 ¢ at about 8 ¢ a dot); with less room the
    /// graph gives way, as the scale labels and the level meter do.
    public static let minimumGraphRows = 3

    /// The parts shown for `model` in `available` rows: optional ones (labels, then level) are
    /// dropped when the tuning row and the strobe band would not fit otherwise; the graph (key h)
    /// takes the rows that are left, dropping the labels and the level meter if it needs them, and
    /// is left out when fewer than `minimumGraphRows` would be left even then.
    static func parts(_ model: ScreenModel, available: Int) -> [Part] {
        var parts: [Part] = [.note]
        if model.tuning != nil { parts.append(.strings) }
        parts += [.numbers, .scale]
        if model.strobeOn { parts.append(.strobe) }
        parts += [.labels, .level]
        func used() -> Int { parts.reduce(0) { $0 + $1.height } }
        if model.historyOn {
            for optional in [Part.labels, .level] where available - used() - 1 < minimumGraphRows {
                parts.removeAll { $0 == optional }
            }
            let rows = available - used() - 1
            if rows >= minimumGraphRows { parts.append(.graph(rows: rows)) }
        }
        for optional in [Part.labels, .level] where used() > available {
            parts.removeAll { $0 == optional }
        }
        return parts
    }

    public static func draw(_ model: ScreenModel, on canvas: ScreenCanvas) {
        canvas.clear()
        defer { canvas.present() }
        let size = model.size
        if size.isTooSmall {
            for (i, line) in wrap(tooSmallMessage, width: max(1, size.columns)).enumerated() {
                canvas.put(line, row: i, column: 0, style: .bold)
            }
            return
        }
        let cols = size.columns
        canvas.put(pad(" " + statusLine(model, width: cols - 1), cols), row: 0, column: 0, style: .bar)
        canvas.put(pad(" " + bottomLine(model), cols), row: size.rows - 1, column: 0, style: .bar)
        if model.readsStrums {
            drawStrum(model, canvas: canvas, rows: size.rows - 2, cols: cols)
            return
        }

        let parts = parts(model, available: size.rows - 2)
        let height = parts.reduce(0) { $0 + $1.height }
        var row = 1 + (size.rows - 2 - height) / 2
        for part in parts {
            switch part {
            case .note: drawNote(model, canvas: canvas, row: row, cols: cols)
            case .strings: drawStrings(model, canvas: canvas, row: row, cols: cols)
            case .numbers: drawNumbers(model, canvas: canvas, row: row, cols: cols)
            case .scale: drawScale(model, canvas: canvas, row: row, cols: cols)
            case .strobe: drawStrobe(model, canvas: canvas, row: row, cols: cols)
            case .labels: drawLabels(model, canvas: canvas, row: row, cols: cols)
            case .level: drawLevel(model, canvas: canvas, row: row, cols: cols)
            case .graph(let rows): drawGraph(model, canvas: canvas, row: row, rows: rows, cols: cols)
            }
            row += part.height
        }
    }

    /// Strum mode: a title, then one line per string — name, a small needle (±50 ¢, ┃ at 0), cents to
    /// 0.1, ✓ in tune / ✗ not, "settled" once the string has settled in tune; "—" for a string not heard.
    ///
    ///      E2  ·········●··┃···········   -4.2 ¢  ✗
    ///      A2  ············●···········   +0.3 ¢  ✓ settled
    ///      D3  ·············┃···········      —
    static func drawStrum(_ model: ScreenModel, canvas: ScreenCanvas, rows: Int, cols: Int) {
        let lines = model.strumLines
        let title = "Strum all strings"
        let shown = min(lines.count, max(0, rows - 2))
        var row = 1 + max(0, (rows - shown - 2) / 2)
        canvas.put(title, row: row, column: max(0, (cols - title.count) / 2), style: .bold)
        row += 2
        let width = strumNeedleWidth
        let lineWidth = 4 + width + 22
        let left = max(0, (cols - lineWidth) / 2)
        for line in lines.prefix(shown) {
            var cells = Array(repeating: Character("·"), count: width)
            cells[width / 2] = "┃"
            var style: ScreenStyle = .dim
            var tail = "     —"
            if let tenths = line.centsTenths {
                let cents = Double(tenths) / 10
                let at = Int(((cents.clamped(to: -50...50) + 50) / 100 * Double(width - 1)).rounded())
                cells[at] = "●"
                tail = String(format: "%+7.1f ¢  ", cents == 0 ? 0 : cents) + (line.inTune ? "✓" : "✗")
                    + (line.settledInTune ? " settled" : "")
                style = line.inTune ? .good : .warn
            }
            canvas.put(line.label.padding(toLength: 4, withPad: " ", startingAt: 0), row: row, column: left, style: .bold)
            canvas.put(String(cells) + "  " + tail, row: row, column: left + 4, style: style)
            row += 1
        }
    }

    /// "file a2.wav, 44100 Hz · A4 440 Hz · tolerance ±3.0 ¢"; when that is wider than `width`, the
    /// settings come first so that they stay visible: "A4 440 Hz · tolerance ±3.0 ¢ · file a2.wav, …",
    /// cut with "…" at `width` when it is still wider.
    public static func statusLine(_ model: ScreenModel, width: Int = .max) -> String {
        var source = model.sourceLabel
        if !source.contains("Hz") { source += ", \(Int(model.sampleRate)) Hz" }
        var settings = "A4 \(hertz(model.settings.a4)) Hz · tolerance ±\(String(format: "%.1f", model.settings.tolerance.value)) ¢"
        // What else is in force: "meantone in D · capo 2 · B♭ instrument".
        let system = model.pipeline.system
        var systems = system.summary
        if let capo = model.tuning?.capo, capo != 0 {
            let tempered = !system.temperament.isEqual12 || system.reference.frequency != nil
            systems.insert("capo \(capo)", at: tempered ? 1 : 0)
        }
        if !systems.isEmpty { settings += " · " + systems.joined(separator: " · ") }
        let config = model.configFile.map { " · config \(abbreviatingHome($0))" } ?? ""
        let full = "\(source) · \(settings)\(config)"
        if full.count <= width { return full }
        let settingsFirst = "\(settings)\(config) · \(source)"
        return settingsFirst.count <= width ? settingsFirst : String(settingsFirst.prefix(max(0, width - 1))) + "…"
    }

    /// "/home/ann/.config/tuner/config" → "~/.config/tuner/config" (when HOME is /home/ann).
    static func abbreviatingHome(_ path: String, home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String {
        guard let home, !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    /// The bottom bar: the key help, or "♪ A2 — playing the reference tone, input ignored" while the
    /// tone plays, or a notice (why a sound could not play) until the next key.
    public static func bottomLine(_ model: ScreenModel) -> String {
        if let note = model.toneNote {
            return "♪ \(displayLabel(note.description)) — playing the reference tone; input ignored"
        }
        if let notice = model.notice { return notice }
        if model.readsStrums { return strumKeyHelp }
        guard model.tuning != nil else { return keyHelp }
        return model.size.columns > tuningKeyHelp.count + strumKeyHint.count + 1 ? tuningKeyHelp + strumKeyHint : tuningKeyHelp
    }

    /// "+3.2 ¢", "-7.3 ¢", "0.0 ¢".
    public static func signedCents(_ cents: Cents) -> String {
        let tenths = Int((cents.value * 10).rounded())
        return tenths == 0 ? "0.0 ¢" : String(format: "%+.1f ¢", Double(tenths) / 10)
    }

    /// The cue after the numbers: in tune, flat, sharp, held or waiting.
    public static func cue(_ model: ScreenModel) -> (text: String, style: ScreenStyle) {
        guard let shown = model.shown else { return (model.ended ? "" : "play a string", .dim) }
        if !shown.live { return ("(held)", .dim) }
        if model.isInTune { return ("IN TUNE ✓", .good) }
        return shown.offset.value < 0 ? ("♭ FLAT — tune up", .warn) : ("♯ SHARP — tune down", .warn)
    }

    static func drawNote(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        guard let shown = model.shown else {
            let text = "—"
            canvas.put(text, row: row + 2, column: (cols - 1) / 2, style: .dim)
            return
        }
        let rows = BigGlyphs.note(model.pipeline.system.name(of: shown.note))
        let width = rows[0].count
        let style: ScreenStyle = !shown.live ? .dim : model.isInTune ? .good : .bold
        for (i, line) in rows.enumerated() {
            canvas.put(line, row: row + i, column: max(0, (cols - width) / 2), style: style)
        }
    }

    static func drawNumbers(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        let cue = cue(model)
        var numbers = ""
        if let shown = model.shown {
            let name = model.pipeline.system.name(of: shown.note).replacingOccurrences(of: "#", with: "♯")
            numbers = "\(name)   \(String(format: "%.2f", shown.frequency.value)) Hz   \(signedCents(shown.offset))   "
        }
        let total = numbers.count + cue.text.count
        let start = max(0, (cols - total) / 2)
        canvas.put(numbers, row: row, column: start, style: model.shown?.live == true ? .bold : .dim)
        canvas.put(cue.text, row: row, column: start + numbers.count, style: cue.style)
    }

    /// The scale's first column and width for `cols` columns (the strobe band uses the same).
    static func scaleFrame(_ model: ScreenModel, cols: Int) -> (left: Int, width: Int) {
        let width = model.scaleWidth
        return ((cols - width) / 2, width)
    }

    /// Needle row and scale row (tolerance zone ▒, centre ┃).
    static func drawScale(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        let (left, width) = scaleFrame(model, cols: cols)
        let mid = width / 2
        func column(_ cents: Double) -> Int { Int(((cents + 50) / 100 * Double(width - 1)).rounded()) }
        let tolerance = model.settings.tolerance.value
        let zoneLow = min(mid, column(-tolerance)), zoneHigh = max(mid, column(tolerance))
        for i in 0..<width {
            let (glyph, style): (String, ScreenStyle)
            if i == mid { (glyph, style) = ("┃", .zone) }
            else if (zoneLow...zoneHigh).contains(i) { (glyph, style) = ("▒", .zone) }
            else if i == 0 { (glyph, style) = ("├", .dim) }
            else if i == width - 1 { (glyph, style) = ("┤", .dim) }
            else { (glyph, style) = ("─", .dim) }
            canvas.put(glyph, row: row + 1, column: left + i, style: style)
        }
        if let shown = model.shown {
            let at = left + column(shown.cents.value)
            let style: ScreenStyle = !shown.live ? .dim : model.isInTune ? .good : .warn
            canvas.put("▼", row: row, column: at, style: style)
            canvas.put("█", row: row + 1, column: at, style: style)
        }
    }

    /// The scale labels: -50, -25, 0, +25, +50.
    static func drawLabels(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        let (left, width) = scaleFrame(model, cols: cols)
        let mid = width / 2
        func column(_ cents: Double) -> Int { Int(((cents + 50) / 100 * Double(width - 1)).rounded()) }
        canvas.put("-50", row: row, column: left, style: .dim)
        canvas.put("0", row: row, column: left + mid, style: .dim)
        canvas.put("+50", row: row, column: left + width - 3, style: .dim)
        if width >= 41 {
            canvas.put("-25", row: row, column: left + column(-25) - 1, style: .dim)
            canvas.put("+25", row: row, column: left + column(25) - 1, style: .dim)
        }
    }

    /// The strobe band under the scale, as wide as it: it drifts left when flat, right when sharp.
    static func drawStrobe(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        guard let band = model.strobeBand else { return }
        let (left, _) = scaleFrame(model, cols: cols)
        canvas.put(band, row: row, column: left, style: model.isInTune ? .good : .normal)
    }

    /// The history graph (see `HistoryGraph`): cents labels on the left, the braille rows (those
    /// holding the tolerance band's edges in the zone's style), and the time axis under them.
    static func drawGraph(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, rows: Int, cols: Int) {
        let width = cols - graphGutter - 1
        guard width >= 2, let now = model.history.last?.time else {
            canvas.put("history: no readings yet", row: row + rows / 2, column: graphGutter, style: .dim)
            return
        }
        let tolerance = model.settings.tolerance.value
        let graph = HistoryGraph.render(model.history, now: now, tolerance: tolerance, columns: width, rows: rows)
        let bandRows = Set([tolerance, -tolerance].map { HistoryGraph.y($0, height: graph.height) / 4 })
        for (i, line) in graph.lines.enumerated() {
            canvas.put(line, row: row + i, column: graphGutter, style: bandRows.contains(i) ? .zone : .normal)
        }
        canvas.put("+50¢", row: row, column: 0, style: .dim)
        canvas.put("  0¢", row: row + HistoryGraph.y(0, height: graph.height) / 4, column: 0, style: .dim)
        canvas.put("-50¢", row: row + rows - 1, column: 0, style: .dim)
        let axis = row + rows
        canvas.put("-10 s", row: axis, column: graphGutter, style: .dim)
        canvas.put("-5 s", row: axis, column: graphGutter + width / 2 - 2, style: .dim)
        canvas.put("now", row: axis, column: graphGutter + width - 3, style: .dim)
    }

    /// One segment of the tuning row and how it is drawn.
    typealias Segment = (text: String, style: ScreenStyle)

    /// The tuning row: every string by name, the target one as "[A2]" (drawn reversed), ✓ after a
    /// string that settled in tune, its whole cents after one that settled out of tune, then
    /// "locked" or "auto". Spacing narrows when the terminal is narrow.
    static func stringsRow(_ model: ScreenModel, width: Int) -> [Segment] {
        let strings = model.strings
        guard !strings.isEmpty else { return [] }
        for gap in ["   ", "  ", " "] {
            var segments: [Segment] = []
            for (i, string) in strings.enumerated() {
                if i > 0 { segments.append((gap, .normal)) }
                let label = displayLabel(string.label)
                segments.append(string.isActive ? ("[\(label)]", .active) : (" \(label) ", .normal))
                if string.isDone {
                    segments.append(("✓", .good))
                } else if let last = string.lastSettled {
                    let cents = Int(last.cents.value.rounded())
                    segments.append((cents > 0 ? "+\(cents)" : "\(cents)", .warn))
                }
            }
            segments.append((gap + (model.isLocked ? "locked" : "auto"), model.isLocked ? .warn : .dim))
            if segments.reduce(0, { $0 + $1.text.count }) <= width || gap == " " { return segments }
        }
        return []
    }

    /// "Eb2" → "E♭2", "F#3" → "F♯3".
    static func displayLabel(_ label: String) -> String {
        var out = ""
        for (i, c) in label.enumerated() {
            out.append(i == 1 && c == "#" ? "♯" : i == 1 && c == "b" ? "♭" : c)
        }
        return out
    }

    static func drawStrings(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        let segments = stringsRow(model, width: cols)
        let total = segments.reduce(0) { $0 + $1.text.count }
        var column = max(0, (cols - total) / 2)
        for segment in segments {
            canvas.put(segment.text, row: row, column: column, style: segment.style)
            column += segment.text.count
        }
    }

    /// "level ▕████░░░░│░░░▏ gate closed" — the bar marks the gate with │.
    static func drawLevel(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        let filled = model.levelBucket, gate = model.gateBucket
        var meter = ""
        for i in 0..<ScreenModel.levelBuckets {
            meter += i < filled ? "█" : (i == gate ? "│" : "░")
        }
        let note = model.ended ? "input ended — q quits"
            : model.gateClosed ? "gate closed" : (model.shown?.live == true ? "" : "no clear pitch")
        let text = "level ▕\(meter)▏ \(note)"
        let start = max(0, (cols - text.count) / 2)
        canvas.put(text, row: row, column: start, style: model.gateClosed ? .dim : .normal)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }

    static func hertz(_ a4: Hertz) -> String {
        a4.value == a4.value.rounded() ? String(Int(a4.value)) : String(format: "%.1f", a4.value)
    }

    /// Breaks `text` at spaces into lines of at most `width` characters.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty { line = String(word) }
            else if line.count + 1 + word.count <= width { line += " " + word }
            else { lines.append(line); line = String(word) }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
