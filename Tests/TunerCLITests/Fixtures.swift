import Foundation
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
import TunerTestSupport

extension TemporaryDirectory {
    /// Writes `channels` with libsndfile (`sf_open` with `SFM_WRITE`) and returns the path.
    func write(_ name: String, _ channels: [[Float]], rate: Int, format: AudioFileWriter.Format) throws -> String {
        let path = self.path(name)
        try AudioFileWriter().write(channels, sampleRate: rate, format: format, to: path)
        return path
    }
}

/// One line of `--output jsonl`, checked for exactly the six keys in their order.
struct JSONReading {
    var time: Double
    var frequency: Double?
    var note: String?
    var cents: Double?
    var inTune: Bool
    var levelDB: Double

    static let keys = ["time", "frequency", "note", "cents", "in_tune", "level_db"]

    struct Malformed: Error, CustomStringConvertible {
        var line: String
        var why: String
        var description: String { "\(why): \(line)" }
    }

    init(_ line: Substring) throws {
        let text = String(line)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Malformed(line: text, why: "not a JSON object")
        }
        guard Set(object.keys) == Set(Self.keys), object.count == Self.keys.count else {
            throw Malformed(line: text, why: "keys are \(object.keys.sorted())")
        }
        let positions = Self.keys.map { text.range(of: "\"\($0)\":")?.lowerBound }
        guard positions.allSatisfy({ $0 != nil }), positions.map({ $0! }) == positions.map({ $0! }).sorted() else {
            throw Malformed(line: text, why: "keys out of order")
        }
        // JSONDecoder is strict about types (a number is not a bool, null only where optional).
        struct Shape: Decodable {
            var time: Double
            var frequency: Double?
            var note: String?
            var cents: Double?
            var in_tune: Bool
            var level_db: Double
        }
        let shape: Shape
        do {
            shape = try JSONDecoder().decode(Shape.self, from: Data(text.utf8))
        } catch {
            throw Malformed(line: text, why: "wrong types (\(error))")
        }
        time = shape.time
        frequency = shape.frequency
        note = shape.note
        cents = shape.cents
        inTune = shape.in_tune
        levelDB = shape.level_db
        guard (frequency == nil) == (note == nil), (note == nil) == (cents == nil) else {
            throw Malformed(line: text, why: "frequency, note and cents must be null together")
        }
    }

    /// Every line of `output`, parsed.
    static func all(_ output: String) throws -> [JSONReading] {
        try output.split(separator: "\n").map(JSONReading.init)
    }
}

func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// The RMS level in dBFS of a sine of peak `amplitude`.
func sineLevel(_ amplitude: Double) -> Double { 20 * log10(amplitude / 2.0.squareRoot()) }
