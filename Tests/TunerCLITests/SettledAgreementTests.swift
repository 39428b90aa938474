import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// `--announce`, `--output text`, `--output jsonl` and `--expect` stand on the same settled notes
/// (issue 19): on one file, they name the same events.
@Suite struct SettledAgreementTests {
    /// The A string plucked twice, the second pluck into the ringing first; then D3 bowed 6 ¢ flat
    /// with a ±5 ¢ waver at 5 Hz for 3 s.
    static func file(_ dir: TemporaryDirectory) throws -> String {
        let rate = 48000.0
        let pluck = Synth.Pluck(frequency: Hertz(110), decay: 0.8).render(seconds: 1.5, sampleRate: rate)
        var bowed: [Float] = []
        var phase = 0.0
        let d3 = Note(parsing: "D3")!.frequency().shifted(by: Cents(-6)).value
        for i in 0..<Int(3 * rate) {
            let t = Double(i) / rate
            phase += 2 * Double.pi * d3 * exp2(5 * sin(2 * Double.pi * 5 * t) / 1200) / rate
            bowed.append(Float(0.25 * (sin(phase) + 0.5 * sin(2 * phase) + 0.25 * sin(3 * phase))))
        }
        return try dir.write("agree.wav", [pluck + pluck + bowed], rate: Int(rate), format: .init(.wav, .float32))
    }

    @Test func everyOutputNamesTheSameEvents() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.file(dir)
        let announced = try TunerBinary.run(["--file", path, "--announce", "--tuning", "guitar"])
        #expect(announced.status == 0, "\(announced.stderr)")
        #expect(announced.stdoutLines == ["A2 in tune", "A2 in tune", "D3, 6 cents flat"])

        let text = try TunerBinary.run(["--file", path, "--output", "text", "--tuning", "guitar"])
        let settledText = text.stdoutLines.filter { $0.hasPrefix("  settled: ") }.map { String($0.dropFirst(11)) }
        #expect(settledText == announced.stdoutLines.map(String.init))

        let json = try TunerBinary.run(["--file", path, "--output", "jsonl", "--tuning", "guitar"])
        let events = json.stdoutLines.compactMap { line -> [String: Any]? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["event"] as? String == "settled" ? object : nil
        }
        #expect(events.map { $0["target"] as? String } == ["A2", "A2", "D3"])
        #expect(events.map { ($0["cents"] as? Double).map { Int($0.rounded()) } } == [0, 0, -6])

        // --expect judges the last of them.
        let expect = try TunerBinary.run(["--file", path, "--expect", "D3", "--tolerance", "3"])
        #expect(expect.status == 1)
        #expect(expect.stdout.hasPrefix("expected D3: 6") && expect.stdout.contains("cents flat, out of tolerance"))
    }
}
