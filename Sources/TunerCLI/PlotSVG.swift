import Foundation
import TunerBridge
import TunerMusic

/// `--plot FILE.svg`: the whole recording as a standalone SVG — cents from the nearest note (or, with
/// `--tuning`, from the target string) against time, the note named where it changes, the tolerance
/// band, gaps where there was no pitch, and both axes with their units. Plain text, no library:
/// black on white with 14 px type and 1.5 px lines, so it reads at 100 % on screen and on paper.
struct PlotSVG {
    /// One point: reading time, cents shown (nil: no pitch), and the note they are measured from.
    struct Point: Equatable {
        var time: Double
        var cents: Double?
        var note: String?
    }

    var points: [Point] = []
    var title: String
    var tolerance: Double
    /// "nearest note" or "target string".
    var reference: String

    /// Page and plot area, in SVG user units (pixels at 100 %).
    static let width = 1000.0, height = 420.0
    static let left = 80.0, right = 20.0, top = 50.0, bottom = 60.0
    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }
    /// The least distance between two note labels: the width of "C#4" at 14 px and a gap.
    static let labelSpacing = 32.0
    /// Cents at the top and bottom of the plot; beyond that a reading is drawn on the edge.
    static let range = 50.0

    /// Adds a step of the tracker (every reading of the file, in order).
    mutating func add(_ step: TuningTracker.Step, tuning: Tuning?) {
        let note: String?
        if let target = step.target, let tuning {
            note = tuning.labels[target.stringIndex]
        } else {
            note = step.reading.pitch.map { $0.note.description }
        }
        points.append(Point(time: step.reading.time, cents: step.rawCents?.value, note: step.rawCents == nil ? nil : note))
    }

    static func x(_ time: Double, duration: Double) -> Double { left + time / max(duration, 1e-9) * plotWidth }
    static func y(_ cents: Double) -> Double { top + (range - min(max(cents, -range), range)) / (2 * range) * plotHeight }
    static func number(_ v: Double) -> String { String(format: "%.2f", v) }

    /// A step of 1, 2 or 5 × 10ⁿ seconds that gives 5…10 ticks over `duration`.
    static func tickStep(_ duration: Double) -> Double {
        let raw = max(duration, 0.1) / 8
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * magnitude >= raw { return m * magnitude }
        return 10 * magnitude
    }

    /// Why `path` cannot be written (its folder is missing or not writable, or it is a folder), or nil.
    static func unwritable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a folder"
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "the folder '\(folder)' does not exist"
        }
        return FileManager.default.isWritableFile(atPath: folder) ? nil : "the folder '\(folder)' is not writable"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The SVG document.
    func render() -> String {
        let duration = max(points.last?.time ?? 0, 0.1)
        let (w, h, l, t) = (Self.width, Self.height, Self.left, Self.top)
        let (pw, ph) = (Self.plotWidth, Self.plotHeight)
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(w))" height="\(Int(h))" viewBox="0 0 \(Int(w)) \(Int(h))" \
            font-family="sans-serif" font-size="14">
            <title>\(Self.escape(title))</title>
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(Int(l))" y="24" font-size="16" font-weight="bold">\(Self.escape(title))</text>

            """
        // Tolerance band, then grid lines every 10 ¢ and their labels.
        let bandTop = Self.y(tolerance), bandBottom = Self.y(-tolerance)
        svg += "<rect class=\"tolerance\" x=\"\(Self.number(l))\" y=\"\(Self.number(bandTop))\" width=\"\(Self.number(pw))\" "
            + "height=\"\(Self.number(max(bandBottom - bandTop, 0.5)))\" fill=\"#b8e6b8\"><title>in tune: within ±"
            + "\(TunerFlags.number(tolerance)) ¢</title></rect>\n"
        for cents in stride(from: -50, through: 50, by: 10) {
            let y = Self.number(Self.y(Double(cents)))
            let style = cents == 0 ? "stroke=\"#444\" stroke-width=\"1\"" : "stroke=\"#ccc\" stroke-width=\"0.5\""
            svg += "<line class=\"grid\" x1=\"\(Self.number(l))\" y1=\"\(y)\" x2=\"\(Self.number(l + pw))\" y2=\"\(y)\" \(style)/>\n"
            let label = cents > 0 ? "+\(cents)" : "\(cents)"
            svg += "<text class=\"y-label\" x=\"\(Self.number(l - 8))\" y=\"\(y)\" text-anchor=\"end\" "
                + "dominant-baseline=\"middle\">\(label)</text>\n"
        }
        // Time ticks.
        let step = Self.tickStep(duration)
        for time in stride(from: 0.0, through: duration + 1e-9, by: step) {
            let x = Self.number(Self.x(time, duration: duration))
            svg += "<line class=\"tick\" x1=\"\(x)\" y1=\"\(Self.number(t + ph))\" x2=\"\(x)\" y2=\"\(Self.number(t + ph + 6))\" stroke=\"black\"/>\n"
            svg += "<text class=\"x-label\" x=\"\(x)\" y=\"\(Self.number(t + ph + 22))\" text-anchor=\"middle\">"
                + "\(TunerFlags.number((time * 1000).rounded() / 1000))</text>\n"
        }
        // Axes and their titles.
        svg += "<line class=\"axis\" id=\"x-axis\" x1=\"\(Self.number(l))\" y1=\"\(Self.number(t + ph))\" "
            + "x2=\"\(Self.number(l + pw))\" y2=\"\(Self.number(t + ph))\" stroke=\"black\" stroke-width=\"1.5\"/>\n"
        svg += "<line class=\"axis\" id=\"y-axis\" x1=\"\(Self.number(l))\" y1=\"\(Self.number(t))\" "
            + "x2=\"\(Self.number(l))\" y2=\"\(Self.number(t + ph))\" stroke=\"black\" stroke-width=\"1.5\"/>\n"
        svg += "<text class=\"axis-title\" x=\"\(Self.number(l + pw / 2))\" y=\"\(Self.number(h - 12))\" "
            + "text-anchor=\"middle\">time (s)</text>\n"
        svg += "<text class=\"axis-title\" x=\"18\" y=\"\(Self.number(t + ph / 2))\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 18 \(Self.number(t + ph / 2)))\">cents from the \(reference) (¢)</text>\n"

        // The readings: one subpath per run of pitched readings.
        var d = ""
        var drawing = false
        var lastNote: String?
        var lastLabelX = -Double.infinity
        var labels = ""
        for point in points {
            guard let cents = point.cents, cents.isFinite else {
                drawing = false
                continue
            }
            let x = Self.number(Self.x(point.time, duration: duration)), y = Self.number(Self.y(cents))
            d += (drawing ? "L" : (d.isEmpty ? "M" : " M")) + "\(x) \(y)"
            drawing = true
            // A label where the note changes, unless it would overprint the one before (a note
            // flickering at ±50 ¢ between two names).
            if let note = point.note, note != lastNote, Self.x(point.time, duration: duration) - lastLabelX >= Self.labelSpacing {
                lastNote = note
                lastLabelX = Self.x(point.time, duration: duration)
                labels += "<text class=\"note\" x=\"\(x)\" y=\"\(Self.number(t - 8))\">\(Self.escape(note))</text>\n"
                labels += "<line class=\"note-mark\" x1=\"\(x)\" y1=\"\(Self.number(t))\" x2=\"\(x)\" "
                    + "y2=\"\(Self.number(t + ph))\" stroke=\"#888\" stroke-dasharray=\"3 3\"/>\n"
            }
        }
        svg += labels
        svg += "<path id=\"readings\" d=\"\(d)\" fill=\"none\" stroke=\"#1f4e9e\" stroke-width=\"1.5\" "
            + "stroke-linejoin=\"round\"/>\n"
        svg += "</svg>\n"
        return svg
    }
}
