import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic

/// The acceptance check, end to end through the built executable: a 2-second 24-bit stereo
/// 44.1 kHz WAV of a plucked A2 detuned by −7.3 ¢ reads A2, −7.3 ± 0.1 ¢ over the steady part.
@Suite struct EndToEndAccuracyTests {
    @Test func pluckedA2Detuned() throws {
        let truth = Cents(-7.3)
        let a2 = try #require(Note(parsing: "A2"))
        let pluck = Synth.Pluck(frequency: a2.frequency().shifted(by: truth))
        let left = pluck.render(seconds: 2, sampleRate: 44_100)
        let right = left.map { $0 * 0.8 }  // in phase, quieter: the mix has the same pitch
        let dir = try TemporaryDirectory()
        let path = try dir.write("a2-minus-7.3c.wav", [left, right], rate: 44_100, format: .init(.wav, .pcm24))

        let result = try TunerBinary.run(["--file", path, "--output", "jsonl"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let readings = try JSONReading.all(result.stdout)
        let steady = readings.filter { (0.5...1.8).contains($0.time) }
        #expect(steady.count >= 120, "about 130 readings at 100 per second")

        let pitched = steady.filter { $0.note != nil }
        #expect(pitched.count >= steady.count * 9 / 10, "\(pitched.count) of \(steady.count) readings have a pitch")
        #expect(pitched.allSatisfy { $0.note == "A2" }, "notes: \(Set(pitched.compactMap(\.note)))")
        let cents = try #require(median(pitched.compactMap(\.cents)), "no reading in the steady part had a pitch")
        print("end to end, plucked A2 at \(truth.value) ¢: median \(cents) ¢ over \(pitched.count) readings, 0.5–1.8 s")
        #expect(abs(cents - truth.value) <= 0.1, "median \(cents) ¢, truth \(truth.value) ¢")
        #expect(pitched.allSatisfy { !$0.inTune }, "-7.3 ¢ is outside the default 3 ¢ tolerance")

        let inTune = try TunerBinary.run(["--file", path, "--output", "jsonl", "--tolerance", "8"])
        let judged = try JSONReading.all(inTune.stdout).filter { (0.5...1.8).contains($0.time) && $0.note != nil }
        #expect(!judged.isEmpty && judged.allSatisfy(\.inTune), "within a tolerance of 8 ¢ every steady reading is in tune")
    }
}
