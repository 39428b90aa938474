import TunerBridge
import TunerMusic

/// `--output jsonl`: one JSON object per reading with exactly the keys `time`, `frequency`, `note`,
/// `cents`, `in_tune`, `level_db` in that order, e.g.
/// `{"time":1.23,"frequency":109.536,"note":"A2","cents":-7.3,"in_tune":false,"level_db":-12.5}`.
/// Numbers are written in full (shortest text that reads back as the same Double), never NaN or infinity.
struct JSONLinesFormatter: ReadingFormatter {
    /// How notes are named (temperament, names, transposition).
    var system = TargetSystem.standard

    func line(for reading: Reading) -> String {
        fields(of: reading) + "}\n"
    }

    /// The six keys of a reading, without the closing brace.
    func fields(of reading: Reading) -> String {
        var text = "{\"time\":"
        text += Self.number(reading.time.isFinite ? reading.time : 0)
        if let pitch = reading.printablePitch {
            text += ",\"frequency\":" + Self.number(pitch.frequency.value)
            text += ",\"note\":\"" + system.name(of: pitch.note) + "\""
            text += ",\"cents\":" + Self.number(pitch.cents.value)
        } else {
            text += ",\"frequency\":null,\"note\":null,\"cents\":null"
        }
        text += ",\"in_tune\":" + (reading.printablePitch != nil && reading.isInTune ? "true" : "false")
        text += ",\"level_db\":" + Self.number(reading.printableLevel)
        return text
    }

    /// A finite Double as a JSON number: Swift's shortest round-trip form ("110.0", "1e-05" are valid JSON).
    static func number(_ value: Double) -> String {
        precondition(value.isFinite, "JSON has no NaN or infinity")
        return value == 0 ? "0" : value.description
    }
}
