import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic

/// What a download folder or a sound card can hand the tuner, through the real binary: every case
/// ends with the documented exit code and either one line on stderr or sensible JSON readings —
/// never a crash, a hang, or a NaN in the output.
@Suite struct BadInputMatrixTests {
    /// A canonical 44-byte WAV header (PCM) with whatever the fields claim, followed by `data`.
    static func wav(channels: UInt16, rate: UInt32, bits: UInt16 = 16, dataBytesClaimed: UInt32? = nil,
                    data: [UInt8]) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: UInt16) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let blockAlign = UInt16(truncatingIfNeeded: Int(channels) * Int(bits) / 8)
        let claimed = dataBytesClaimed ?? UInt32(data.count)
        var bytes: [UInt8] = Array("RIFF".utf8) + le32(36 &+ claimed) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate)
        bytes += le32(rate &* UInt32(blockAlign)) + le16(blockAlign) + le16(bits)
        bytes += Array("data".utf8) + le32(claimed) + data
        return bytes
    }

    /// 16-bit little-endian samples of a sine.
    static func pcm16(_ frequency: Double, seconds: Double, rate: Double) -> [UInt8] {
        Synth.sine(Hertz(frequency), seconds: seconds, sampleRate: rate, amplitude: 0.4).flatMap { sample -> [UInt8] in
            let v = Int16(max(-32768, min(32767, (Double(sample) * 32767).rounded())))
            return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
        }
    }

    static func write(_ bytes: [UInt8], _ name: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `tuner --file path --output jsonl` and checks the invariants every case shares.
    static func analyse(_ path: String, _ extra: [String] = []) throws -> (TunerBinary.Result, [JSONReading]) {
        let result = try TunerBinary.run(["--file", path, "--output", "jsonl"] + extra, timeout: 60)
        #expect(!result.stdout.lowercased().contains("nan") && !result.stdout.lowercased().contains("inf"),
                "no NaN or infinity in the JSON")
        let readings = try JSONReading.all(result.stdout)
        for r in readings {
            #expect(r.time.isFinite && r.levelDB.isFinite && r.levelDB >= -120 && r.levelDB < 50)
            if let f = r.frequency { #expect(f.isFinite && f > 20 && f < 10_000) }
            if let c = r.cents { #expect(abs(c) <= 50) }
        }
        return (result, readings)
    }

    /// An unreadable file: exit 66 and exactly one line on stderr that names the file.
    static func expectUnreadable(_ path: String) throws {
        let (result, readings) = try analyse(path)
        #expect(result.status == 66)
        #expect(readings.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains((path as NSString).lastPathComponent))
    }

    static func pitchedNotes(_ readings: [JSONReading], after seconds: Double) -> [String] {
        readings.filter { $0.time > seconds }.compactMap(\.note)
    }

    // MARK: - Files that cannot be read

    @Test func headerTruncated() throws {
        let dir = try TemporaryDirectory()
        let whole = Self.wav(channels: 1, rate: 44100, data: Self.pcm16(110, seconds: 0.5, rate: 44100))
        try Self.expectUnreadable(try Self.write(Array(whole.prefix(20)), "cut-header.wav", in: dir))
    }

    @Test func headerClaimsZeroChannels() throws {
        let dir = try TemporaryDirectory()
        let data = Self.pcm16(110, seconds: 0.5, rate: 44100)
        try Self.expectUnreadable(try Self.write(Self.wav(channels: 0, rate: 44100, data: data), "zero-channels.wav", in: dir))
    }

    @Test func headerClaimsZeroHertz() throws {
        let dir = try TemporaryDirectory()
        let data = Self.pcm16(110, seconds: 0.5, rate: 44100)
        try Self.expectUnreadable(try Self.write(Self.wav(channels: 1, rate: 0, data: data), "zero-rate.wav", in: dir))
    }

    // MARK: - Odd but readable files

    @Test func dataTruncatedReadsWhatIsThere() throws {
        let dir = try TemporaryDirectory()
        let whole = Self.wav(channels: 1, rate: 44100, data: Self.pcm16(110, seconds: 2, rate: 44100))
        let path = try Self.write(Array(whole.prefix(44 + 44100 * 2)), "cut-data.wav", in: dir)  // 1 s of 2
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0)
        #expect(readings.count == 100)
        #expect(Set(Self.pitchedNotes(readings, after: 0.3)) == ["A2"])
    }

    @Test func headerClaimsABillionFrames() throws {
        let dir = try TemporaryDirectory()
        let data = Self.pcm16(110, seconds: 1, rate: 44100)
        let path = try Self.write(Self.wav(channels: 1, rate: 44100, dataBytesClaimed: 2_000_000_000, data: data),
                                  "billion.wav", in: dir)
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0, "reads the frames that are there: \(result.stderr)")
        #expect(readings.count == 100)
        #expect(Set(Self.pitchedNotes(readings, after: 0.3)) == ["A2"])
    }

    @Test(arguments: [1, 441])  // one sample; 10 ms
    func tinyFiles(frames: Int) throws {
        let dir = try TemporaryDirectory()
        let samples = Array(Synth.sine(Hertz(110), seconds: 1, sampleRate: 44100).prefix(frames))
        let path = try dir.write("tiny-\(frames).wav", [samples], rate: 44100, format: .init(.wav, .pcm16))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0)
        #expect(readings.count == frames / 441)
        #expect(readings.allSatisfy { $0.note == nil })
    }

    @Test func allZeroIsSilence() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("zero.wav", [[Float](repeating: 0, count: 44100)], rate: 44100, format: .init(.wav, .pcm16))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0 && readings.count == 100)
        #expect(readings.allSatisfy { $0.note == nil && $0.levelDB == -120 })
    }

    @Test func fullScaleClippedStillReadsTheNote() throws {
        let dir = try TemporaryDirectory()
        let clipped = Synth.sine(Hertz(110), seconds: 1.5, sampleRate: 44100, amplitude: 8).map { max(-1, min(1, $0)) }
        let path = try dir.write("clipped.wav", [clipped], rate: 44100, format: .init(.wav, .pcm16))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0)
        #expect(Set(Self.pitchedNotes(readings, after: 0.4)) == ["A2"])
        #expect(readings.last.map { $0.levelDB > -3 } == true)
    }

    @Test func dcOffsetStillReadsTheNote() throws {
        let dir = try TemporaryDirectory()
        let shifted = Synth.sine(Hertz(110), seconds: 1.5, sampleRate: 44100, amplitude: 0.2).map { $0 + 0.5 }
        let path = try dir.write("dc.wav", [shifted], rate: 44100, format: .init(.wav, .float32))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0)
        let notes = Self.pitchedNotes(readings, after: 0.4)
        #expect(Set(notes) == ["A2"] && notes.count > 90)
    }

    @Test func nanAndInfinitySamplesNeverReachTheOutput() throws {
        let dir = try TemporaryDirectory()
        var samples = Synth.sine(Hertz(110), seconds: 1.5, sampleRate: 44100, amplitude: 0.4)
        for i in stride(from: 1000, to: samples.count, by: 4410) {
            samples[i] = .nan
            samples[i + 1] = .infinity
            samples[i + 2] = -.infinity
        }
        let path = try dir.write("nan.wav", [samples], rate: 44100, format: .init(.wav, .float32))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0 && readings.count == 150)
        #expect(Set(Self.pitchedNotes(readings, after: 0.4)).isSubset(of: ["A2"]))
    }

    @Test func whiteNoiseHasNoPitch() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("noise.wav", [Synth.noise(count: 88200, rms: 0.2, seed: 9)], rate: 44100,
                                 format: .init(.wav, .pcm16))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0 && readings.count == 200)
        let pitched = readings.filter { $0.note != nil }.count
        #expect(pitched <= 4, "\(pitched) of 200 noise readings had a pitch")
    }

    @Test func sixChannelsAt192kHz() throws {
        let dir = try TemporaryDirectory()
        let tone = Synth.sine(Hertz(440), seconds: 1, sampleRate: 192_000, amplitude: 0.3)
        let silent = [Float](repeating: 0, count: tone.count)
        let path = try dir.write("six.wav", [tone, silent, tone, silent, tone, silent], rate: 192_000,
                                 format: .init(.wavex, .pcm24))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0 && readings.count == 100)
        #expect(Set(Self.pitchedNotes(readings, after: 0.4)) == ["A4"])
    }

    @Test func eightKilohertz() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("eight.wav", [Synth.sine(Hertz(196), seconds: 1, sampleRate: 8000)], rate: 8000,
                                 format: .init(.wav, .pcm16))
        let (result, readings) = try Self.analyse(path)
        #expect(result.status == 0 && readings.count == 100)
        #expect(Set(Self.pitchedNotes(readings, after: 0.4)) == ["G3"])
    }
}
