import Foundation
import Testing
import TunerBridge
import TunerMusic
@testable import TunerAudio
#if canImport(Glibc)
import Glibc
#endif

/// The real alsa-lib playback path with no sound card: the `file` plugin (format "wav") writes what
/// is played to a WAV file, which libsndfile reads back.
@Suite struct ALSAPlaybackTests {
    /// alsa-lib configuration text defining `pcm.tunerout`, whose playback lands in `path` as WAV.
    static func wavConfiguration(_ path: String) -> String {
        "pcm.tunerout { type file slave.pcm { type null } file \"\(path)\" format \"wav\" }"
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tuner-play-\(name)-\(getpid()).wav").path
    }

    /// Every frame of the WAV at `path` (read through the program's own file input).
    static func readBack(_ path: String) throws -> (samples: [Float], rate: Double) {
        let source = try AudioFileSource(path: path)
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return (out, source.sampleRate)
    }

    /// 16-bit only: the plugin's WAV header calls float samples integers (see `defaultFormats`).
    @Test func playedSamplesLandInTheWAV() throws {
        let format = ALSASampleFormat.s16LE
        let path = Self.temporaryPath("s16")
        defer { unlink(path) }
        let samples = Synth.sine(Hertz(330), seconds: 0.3, sampleRate: 44100, amplitude: 0.4)
        do {
            let playback = try ALSAPlayback(device: "tunerout", rate: 44100,
                                            configuration: Self.wavConfiguration(path))
            #expect(playback.hardware.format == format)
            try samples.withUnsafeBufferPointer { try playback.play($0) }
        }  // closed here: the plugin writes the WAV header's sizes
        let (got, rate) = try Self.readBack(path)
        #expect(rate == 44100)
        #expect(got.count == samples.count)
        let worst = zip(got, samples).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 1.0 / 32768 + 1e-6)
    }

    @Test func soundPlayerPlaysSoundsInOrderThroughOneDevice() async throws {
        let path = Self.temporaryPath("player")
        defer { unlink(path) }
        let player = SoundPlayer(device: "tunerout", configuration: Self.wavConfiguration(path))
        let a = Sound(samples: [Float](repeating: 0.25, count: 1000), rate: 48000)
        let b = Sound(samples: [Float](repeating: -0.5, count: 500), rate: 48000)
        try await player.play(a)
        try await player.play(b)
        player.close()
        let (got, _) = try Self.readBack(path)
        #expect(got.count == a.samples.count + b.samples.count)
        let expected = a.samples + b.samples
        #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 1.0 / 32768 + 1e-6 })
    }

    @Test func missingPlaybackDeviceIsNamedInOneLine() throws {
        #expect {
            _ = try ALSAPlayback(device: "no_such_pcm_for_tuner")
        } throws: { error in
            guard let error = error as? ALSAError else { return false }
            let text = error.description
            return error.kind == .noDevice && error.direction == .playback
                && text.contains("playback device \"no_such_pcm_for_tuner\"") && text.contains("--playback-device")
                && !text.contains("\n")
        }
    }

    @Test func sixteenBitDevicesGetClippedRoundedSamples() throws {
        let fake = ScriptedALSA()
        fake.hardware = ALSAHardware(format: .s16LE, rate: 48000, periodFrames: 4, bufferFrames: 32)
        let playback = try ALSAPlayback(device: "fake", library: fake)
        let samples: [Float] = [0, 0.5, -0.5, 1, 2, -2, 0.25, -1, 0.1]
        try samples.withUnsafeBufferPointer { try playback.play($0) }
        #expect(fake.playbackOpened == "fake")
        #expect(fake.drained == 1)
        let expected = samples.map { Float(Int16((min(max($0, -1), 1) * 32767).rounded())) / 32768 }
        #expect(fake.written == expected)
    }

    @Test func underrunsAreMendedAndShortWritesResumed() throws {
        let fake = ScriptedALSA()
        fake.hardware = ALSAHardware(format: .floatLE, rate: 48000, periodFrames: 8, bufferFrames: 64)
        fake.writeSteps = [3, -Int(EPIPE), 8, 8]
        let playback = try ALSAPlayback(device: "fake", library: fake)
        let samples = (0..<20).map { Float($0) / 20 }
        try samples.withUnsafeBufferPointer { try playback.play($0) }
        #expect(fake.written == samples)
        #expect(fake.recovered == [-EPIPE])
        #expect(playback.underruns == 1)
    }

    @Test func aDeviceThatFailsMidSoundThrowsNamingIt() throws {
        let fake = ScriptedALSA()
        fake.writeSteps = [-Int(ENODEV)]
        let playback = try ALSAPlayback(device: "hw:7", library: fake)
        #expect(fake.playbackOpened == "plughw:7")
        let samples = [Float](repeating: 0.1, count: 10)
        #expect(throws: ALSAError(kind: .vanished, device: "hw:7", code: -ENODEV, reason: "reason \(-ENODEV)",
                                  direction: .playback)) {
            try samples.withUnsafeBufferPointer { try playback.play($0) }
        }
    }
}
