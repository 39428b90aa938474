import Foundation
import Testing
import TunerBridge
import TunerMusic
@testable import TunerAudio
#if canImport(Glibc)
import Glibc
#endif

/// Ends a source after a known number of frames (the ALSA `file` plugin never reports the end of its file).
final class FrameLimit: AudioSource {
    let inner: any AudioSource
    var remaining: Int
    init(_ inner: any AudioSource, frames: Int) { self.inner = inner; remaining = frames }
    var sampleRate: Double { inner.sampleRate }
    var label: String { inner.label }
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        guard remaining > 0 else { return 0 }
        let n = try inner.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<min(buffer.count, remaining)]))
        remaining -= n
        return n
    }
}

/// A plucked string recorded to a raw file, captured by alsa-lib through the `file` plugin, analysed by
/// a `TunerSession`: the readings name the note and its cents.
@Suite struct ALSASessionTests {
    static let pluck = Synth.Pluck(frequency: Note(midi: 45).frequency().shifted(by: Cents(-7.3)))  // A2 −7.3 ¢

    static func analyse(_ source: sending ALSACaptureSource, frames: Int) async throws -> [Reading] {
        let session = try TunerSession(source: FrameLimit(source, frames: frames), delivery: .everyReading)
        let pipeline = ReadingPipeline()
        var readings: [Reading] = []
        for await m in session.measurements { readings.append(pipeline.reading(from: m)) }
        if let failure = session.failure { throw failure }
        return readings
    }

    static func check(_ readings: [Reading]) {
        let pitched = readings.compactMap(\.pitch)
        #expect(pitched.count > readings.count / 2, "most readings of a clear pluck have a pitch")
        #expect(pitched.allSatisfy { $0.note == Note(midi: 45) }, "every pitched reading names A2")
        let cents = pitched.map(\.rawCents.value).sorted()
        let median = cents.isEmpty ? .nan : cents[cents.count / 2]
        #expect(abs(median - (-7.3)) <= 0.2, "median \(median) ¢, expected −7.3 ¢ ± 0.2")
    }

    @Test func floatCaptureOfAPluckReadsA2Minus7Point3Cents() async throws {
        let samples = Self.pluck.render(seconds: 2.5, sampleRate: 48000)
        let path = try ALSACaptureTests.writeRaw(samples, name: "pluck-float")
        defer { unlink(path) }
        let source = try ALSACaptureSource(device: "tunertest", rate: 48000, formats: [.floatLE],
                                           configuration: ALSACaptureTests.fileConfiguration(path))
        Self.check(try await Self.analyse(source, frames: samples.count))
    }

    @Test func sixteenBitCaptureReadsTheSame() async throws {
        let samples = Self.pluck.render(seconds: 2.5, sampleRate: 48000)
        let ints = samples.map { Int16(clamping: Int(($0 * 32767).rounded())) }
        let path = try ALSACaptureTests.writeRaw(ints, name: "pluck-s16")
        defer { unlink(path) }
        // A 16-bit "device": the capture converts its samples to float itself. (Through `type plug` the
        // file plugin skipped whole periods of its file here, so the raw format is matched instead.)
        let source = try ALSACaptureSource(device: "tunertest", rate: 48000, formats: [.s16LE],
                                           configuration: ALSACaptureTests.fileConfiguration(path))
        #expect(source.hardware.format == .s16LE)
        Self.check(try await Self.analyse(source, frames: samples.count))
    }
}
