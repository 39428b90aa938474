import Foundation
import TunerMusic

/// `--poly` output: one line per hop, every string of the tuning in string order.
///
/// `jsonl`: `{"time":t,"strings":[{"string":1,"target":"E2","frequency":82.31,"cents":-2.1,"in_tune":false},
/// …]}`, `null` for a string not heard. Cents are to a tenth (what the screen shows), frequency to 0.01 Hz.
///
/// `text`:
///
///       1.230 s  E2   -2.1 ¢ ✗  A2   +0.4 ¢ ✓  D3      —    G3   +0.0 ¢ ✓ …
///
/// "—" for a string not heard.
struct StrumLinesFormatter {
    enum Format { case text, jsonl }
    var format: Format
    var tuning: Tuning

    func line(for strum: StrumReading) -> String {
        switch format {
        case .jsonl: return json(strum)
        case .text: return text(strum)
        }
    }

    private func json(_ strum: StrumReading) -> String {
        var text = "{\"time\":" + JSONLinesFormatter.number(strum.time.isFinite ? strum.time : 0) + ",\"strings\":["
        for (index, string) in strum.strings.enumerated() {
            if index > 0 { text += "," }
            guard let string else {
                text += "null"
                continue
            }
            text += "{\"string\":\(index + 1),\"target\":\"\(string.label)\""
            text += ",\"frequency\":" + JSONLinesFormatter.number(Self.rounded(string.frequency.value, 100))
            text += ",\"cents\":" + JSONLinesFormatter.number(Self.rounded(string.cents.value, 10))
            text += ",\"in_tune\":" + (string.isInTune ? "true" : "false") + "}"
        }
        return text + "]}\n"
    }

    private func text(_ strum: StrumReading) -> String {
        var text = String(format: "%7.3f s", strum.time.isFinite ? strum.time : 0)
        for (index, string) in strum.strings.enumerated() {
            let label = tuning.labels.indices.contains(index) ? tuning.labels[index] : "\(index + 1)"
            text += "  " + label.padding(toLength: 3, withPad: " ", startingAt: 0)
            guard let string else {
                text += "     —     "
                continue
            }
            text += String(format: "%+7.1f ¢ ", Self.rounded(string.cents.value, 10)) + (string.isInTune ? "✓" : "✗")
        }
        return text + "\n"
    }

    /// `value` to 1/`per`, never "-0".
    static func rounded(_ value: Double, _ per: Double) -> Double {
        let r = (value * per).rounded() / per
        return r == 0 ? 0 : r
    }
}
