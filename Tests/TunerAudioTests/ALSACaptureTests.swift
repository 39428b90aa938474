import Foundation
import Testing
import TunerBridge
import TunerMusic
@testable import TunerAudio

/// The real alsa-lib capture path with no sound card: the `file` plugin reads a raw file as if it were
/// a microphone (a private configuration given to `snd_pcm_open_lconf`, so nothing global is read).
@Suite struct ALSACaptureTests {
    /// alsa-lib configuration text defining `pcm.tunertest` that captures `path` (raw samples in the
    /// format the capture asks for; the `null` slave is inlined because this text stands alone).
    static func fileConfiguration(_ path: String, plug: Bool = false) -> String {
        let file = """
            type file
            slave.pcm { type null }
            file "/dev/null"
            infile "\(path)"
            format "raw"
            """
        return plug ? "pcm.tunertest { type plug slave.pcm { \(file) } }" : "pcm.tunertest { \(file) }"
    }

    static func writeRaw<T>(_ samples: [T], name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tuner-alsa-\(name)-\(getpid()).raw").path
        let data = samples.withUnsafeBufferPointer { Data(buffer: $0) }
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reads exactly `frames` frames (the plugin never signals the end of its file).
    static func capture(_ source: ALSACaptureSource, frames: Int, block: Int = 1024) throws -> [Float] {
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: block)
        while out.count < frames {
            let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            #expect(n > 0)
            if n <= 0 { break }
            out.append(contentsOf: buffer[0..<min(n, frames - out.count)])
        }
        return out
    }

    @Test func floatFileArrivesSampleForSample() throws {
        let samples = Synth.sine(Hertz(220), seconds: 0.25, sampleRate: 48000)
        let path = try Self.writeRaw(samples, name: "float")
        defer { unlink(path) }
        let source = try ALSACaptureSource(device: "tunertest", rate: 48000, formats: [.floatLE],
                                           configuration: Self.fileConfiguration(path))
        #expect(source.hardware.format == .floatLE)
        #expect(source.sampleRate == 48000)
        #expect(source.hardware.periodFrames <= 480)  // ≤ 10 ms
        let got = try Self.capture(source, frames: samples.count)
        #expect(got == samples)
    }

    @Test(arguments: [8000, 44100, 96000])
    func asksForTheRateAndPeriodsOfAtMostTenMilliseconds(rate: Int) throws {
        let path = try Self.writeRaw([Float](repeating: 0, count: 16), name: "rate\(rate)")
        defer { unlink(path) }
        let source = try ALSACaptureSource(device: "tunertest", rate: rate, formats: [.floatLE],
                                           configuration: Self.fileConfiguration(path))
        #expect(source.sampleRate == Double(rate))
        #expect(source.hardware.periodFrames <= rate / 100)
        #expect(!source.hardware.soundServer)  // the file plugin is not a server's: 10 ms periods
        #expect(source.hardware.bufferFrames >= source.hardware.periodFrames)
        #expect(source.label == "ALSA tunertest, \(rate) Hz")
    }

    @Test func sixteenBitFileIsConvertedToFloat() throws {
        let ints: [Int16] = (0..<4800).map { Int16(clamping: Int(16000 * sin(Double($0) * 0.05))) }
        let path = try Self.writeRaw(ints, name: "s16")
        defer { unlink(path) }
        let source = try ALSACaptureSource(device: "tunertest", rate: 48000, formats: [.s16LE],
                                           configuration: Self.fileConfiguration(path))
        #expect(source.hardware.format == .s16LE)
        let got = try Self.capture(source, frames: ints.count)
        #expect(got.count == ints.count)
        #expect(zip(got, ints).allSatisfy { $0 == Float($1) / 32768 })
    }

    @Test func missingDeviceNamesTheDeviceAndTheReason() {
        do {
            _ = try ALSACaptureSource(device: "no-such-tuner-device",
                                      configuration: "pcm.somethingelse { type null }")
            Issue.record("opening a device that does not exist succeeded")
        } catch {
            #expect(error.kind == .noDevice)
            #expect(error.device == "no-such-tuner-device")
            #expect(error.code < 0)
            #expect(error.description.contains("\"no-such-tuner-device\""))
            #expect(error.description.contains("ALSA: \(error.reason)"))
            #expect(!error.reason.isEmpty)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/snd"),
                   "only a machine without a sound card has no \"default\" capture device"))
    func missingDefaultDeviceOnThisMachineIsATypedError() {
        #expect(throws: ALSAError.self) { _ = try ALSACaptureSource(device: "default") }
    }
}
