import Foundation
import TunerKit

/// Draws a `ScreenModel` on a `ScreenCanvas`: the whole picture from the one value, every frame.
///
/// Layout (rows, for the minimum 40×12; taller terminals get the middle block centred):
/// status · big note (5) · numbers and cue · needle · scale with the tolerance zone · scale labels ·
/// level meter · key help.
public enum ScreenRenderer {
    public static let tooSmallMessage =
        "Terminal too small (need \(ScreenSize.minimum.columns)×\(ScreenSize.minimum.rows))"
    public static let keyHelp = "q quit   + - tolerance   [ ] A4 ±1 Hz"
    static let blockHeight = 10

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
        canvas.put(pad(" " + keyHelp, cols), row: size.rows - 1, column: 0, style: .bar)

        let top = 1 + (size.rows - 2 - blockHeight) / 2
        drawNote(model, canvas: canvas, row: top, cols: cols)
        drawNumbers(model, canvas: canvas, row: top + 5, cols: cols)
        drawScale(model, canvas: canvas, row: top + 6, cols: cols)
        drawLevel(model, canvas: canvas, row: top + 9, cols: cols)
    }

    /// "file a2.wav, 44100 Hz · A4 440 Hz · tolerance ±3.0 ¢"; when that is wider than `width`, the
    /// settings come first so that they stay visible: "A4 440 Hz · tolerance ±3.0 ¢ · file a2.wav, …".
    public static func statusLine(_ model: ScreenModel, width: Int = .max) -> String {
        var source = model.sourceLabel
        if !source.contains("Hz") { source += ", \(Int(model.sampleRate)) Hz" }
        let settings = "A4 \(hertz(model.settings.a4)) Hz · tolerance ±\(String(format: "%.1f", model.settings.tolerance.value)) ¢"
        let full = "\(source) · \(settings)"
        return full.count <= width ? full : "\(settings) · \(source)"
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
        return shown.cents.value < 0 ? ("♭ FLAT — tune up", .warn) : ("♯ SHARP — tune down", .warn)
    }

    static func drawNote(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        guard let shown = model.shown else {
            let text = "—"
            canvas.put(text, row: row + 2, column: (cols - 1) / 2, style: .dim)
            return
        }
        let rows = BigGlyphs.note(shown.note.name, octave: shown.note.octave)
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
            let name = shown.note.name.replacingOccurrences(of: "#", with: "♯") + String(shown.note.octave)
            numbers = "\(name)   \(String(format: "%.2f", shown.frequency.value)) Hz   \(signedCents(shown.cents))   "
        }
        let total = numbers.count + cue.text.count
        let start = max(0, (cols - total) / 2)
        canvas.put(numbers, row: row, column: start, style: model.shown?.live == true ? .bold : .dim)
        canvas.put(cue.text, row: row, column: start + numbers.count, style: cue.style)
    }

    /// Needle row, scale row (tolerance zone ▒, centre ┃) and labels row.
    static func drawScale(_ model: ScreenModel, canvas: ScreenCanvas, row: Int, cols: Int) {
        var width = min(101, cols - 8)
        if width % 2 == 0 { width -= 1 }
        let left = (cols - width) / 2
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
        canvas.put("-50", row: row + 2, column: left, style: .dim)
        canvas.put("0", row: row + 2, column: left + mid, style: .dim)
        canvas.put("+50", row: row + 2, column: left + width - 3, style: .dim)
        if width >= 41 {
            canvas.put("-25", row: row + 2, column: left + column(-25) - 1, style: .dim)
            canvas.put("+25", row: row + 2, column: left + column(25) - 1, style: .dim)
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
