import Foundation
import Testing
import TunerTestSupport
import TunerBridge
import TunerMusic
@testable import TunerAudio

/// Reads every file flavour the issue names, written here with libsndfile (`sf_open` + `SFM_WRITE`),
/// and compares what comes back with what went in.
@Suite struct AudioFileSourceTests {
    /// Reads a whole source with reads of `chunk` samples.
    static func readAll(_ source: AudioFileSource, chunk: Int = 1000) throws -> [Float] {
        var all: [Float] = []
        var buffer = [Float](repeating: .nan, count: chunk)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if n == 0 { break }
            #expect(n > 0 && n <= chunk)
            all += buffer[0..<n]
        }
        return all
    }

    static let signal = Synth.sine(Hertz(441), seconds: 0.25, sampleRate: 44_100, amplitude: 0.5)

    struct Flavour: CustomTestStringConvertible, Sendable {
        var format: AudioFileWriter.Format
        var ext: String
        /// Largest allowed difference per sample (the format's quantisation step).
        var tolerance: Float
        var testDescription: String { "\(format) .\(ext)" }
    }

    static let flavours: [Flavour] = [
        Flavour(format: .init(.wav, .pcm16), ext: "wav", tolerance: 1.0 / 32768),
        Flavour(format: .init(.wav, .pcm24), ext: "wav", tolerance: 1.0 / 8_388_608),
        Flavour(format: .init(.wav, .pcm32), ext: "wav", tolerance: 1e-7),
        Flavour(format: .init(.wav, .float32), ext: "wav", tolerance: 0),
        Flavour(format: .init(.wav, .float64), ext: "wav", tolerance: 0),
        Flavour(format: .init(.wavex, .pcm16), ext: "wav", tolerance: 1.0 / 32768),
        Flavour(format: .init(.wavex, .pcm24), ext: "wav", tolerance: 1.0 / 8_388_608),
        Flavour(format: .init(.wavex, .float32), ext: "wav", tolerance: 0),
        Flavour(format: .init(.flac, .pcm16), ext: "flac", tolerance: 1.0 / 32768),
        Flavour(format: .init(.flac, .pcm24), ext: "flac", tolerance: 1.0 / 8_388_608),
        Flavour(format: .init(.aiff, .pcm16), ext: "aiff", tolerance: 1.0 / 32768),
    ]

    @Test("every lossless flavour reads back sample for sample", arguments: flavours)
    func losslessFlavour(_ flavour: Flavour) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("sine.\(flavour.ext)")
        try AudioFileWriter().write([Self.signal], sampleRate: 44_100, format: flavour.format, to: path)

        let source = try AudioFileSource(path: path)
        #expect(source.sampleRate == 44_100)
        #expect(source.info.channels == 1)
        #expect(source.info.format == flavour.format.sndfileFormat)
        #expect(source.info.frames == Int64(Self.signal.count))
        let back = try Self.readAll(source)
        #expect(back.count == Self.signal.count)
        let worst = zip(back, Self.signal).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= flavour.tolerance * 1.01, "largest difference \(worst)")
    }

    @Test func oggVorbisIsReadWithTheRightLengthAndLevel() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("sine.ogg")
        try AudioFileWriter().write([Self.signal], sampleRate: 44_100, format: .init(.ogg, .vorbis), to: path)
        let back = try Self.readAll(AudioFileSource(path: path))
        #expect(back.count == Self.signal.count)
        let rms = (back.reduce(0.0) { $0 + Double($1 * $1) } / Double(back.count)).squareRoot()
        #expect(abs(20 * log10(rms) - 20 * log10(0.5 / 2.0.squareRoot())) < 0.5)
    }

    /// Left and right differ so that the mean, the first and the second channel are all distinguishable.
    static let left = Synth.sine(Hertz(220), seconds: 0.1, sampleRate: 48_000, amplitude: 0.6)
    static let right = Synth.sine(Hertz(330), seconds: 0.1, sampleRate: 48_000, amplitude: 0.2)

    @Test func stereoIsMixedToTheMeanOfTheChannels() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("stereo.wav")
        try AudioFileWriter().write([Self.left, Self.right], sampleRate: 48_000, format: .init(.wav, .float32), to: path)
        let source = try AudioFileSource(path: path, blockFrames: 256)
        #expect(source.label == "file stereo.wav, 48000 Hz, 2 channels mixed")
        let back = try Self.readAll(source, chunk: 1000)  // larger than a block: reads are cut at 256
        let expected = zip(Self.left, Self.right).map { ($0 + $1) / 2 }
        #expect(back.count == expected.count)
        #expect(zip(back, expected).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test(arguments: [1, 2])
    func channelPicksOneChannel(_ channel: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("stereo.wav")
        try AudioFileWriter().write([Self.left, Self.right], sampleRate: 48_000, format: .init(.wav, .float32), to: path)
        let source = try AudioFileSource(path: path, channel: channel)
        #expect(source.label == "file stereo.wav, 48000 Hz, channel \(channel) of 2")
        let back = try Self.readAll(source, chunk: 333)
        #expect(back == (channel == 1 ? Self.left : Self.right))
    }

    @Test func sixChannelsMixInOrderAcrossOddReadSizes() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("six.wav")
        let frames = 5000
        let channels = (0..<6).map { c in (0..<frames).map { Float(($0 + 7 * c) % 100) / 200 } }
        try AudioFileWriter().write(channels, sampleRate: 96_000, format: .init(.wavex, .float32), to: path)
        let back = try Self.readAll(AudioFileSource(path: path, blockFrames: 100), chunk: 77)
        let expected = (0..<frames).map { i in channels.reduce(Float(0)) { $0 + $1[i] } / 6 }
        #expect(back.count == frames)
        #expect(zip(back, expected).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test(arguments: [8_000, 11_025, 192_000])
    func sampleRatesAtAndInsideTheLimitsOpen(_ rate: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("rate.wav")
        let signal = Synth.sine(Hertz(440), seconds: 0.05, sampleRate: Double(rate))
        try AudioFileWriter().write([signal], sampleRate: rate, format: .init(.wav, .pcm16), to: path)
        let source = try AudioFileSource(path: path)
        #expect(source.sampleRate == Double(rate))
        #expect(try Self.readAll(source).count == signal.count)
    }

    // MARK: Errors

    static func openError(_ path: String, channel: Int? = nil) -> AudioFileError? {
        do {
            _ = try AudioFileSource(path: path, channel: channel)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFile() throws {
        let dir = try TemporaryDirectory()
        let error = try #require(Self.openError(dir.path("nope.wav")))
        #expect(error.reason == .missing)
        #expect(error.description == "cannot read '\(dir.path("nope.wav"))': no such file")
    }

    @Test func directory() throws {
        let dir = try TemporaryDirectory()
        let error = try #require(Self.openError(dir.url.path))
        #expect(error.reason == .directory)
        #expect(error.description == "cannot read '\(dir.url.path)': it is a directory, not an audio file")
    }

    @Test func emptyFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("empty.wav")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = try #require(Self.openError(path))
        #expect(error.reason == .emptyFile)
        #expect(error.description == "cannot read '\(path)': the file is empty (0 bytes)")
    }

    @Test func wavWithoutFrames() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("silent.wav")
        try AudioFileWriter().write([[]], sampleRate: 44_100, format: .init(.wav, .pcm16), to: path)
        let error = try #require(Self.openError(path))
        #expect(error.reason == .noFrames)
        #expect(error.description == "cannot read '\(path)': it holds no audio (0 frames)")
    }

    @Test func textIsNotAudio() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("notes.txt")
        try "E2 A2 D3 G3 B3 E4\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(Self.openError(path))
        #expect(error.reason == .notAudio(detail: "Format not recognised"))
        #expect(error.description == "cannot read '\(path)': not an audio file libsndfile can read (Format not recognised)")
    }

    @Test(arguments: [4_000, 7_999, 200_000])
    func unsupportedSampleRate(_ rate: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("rate.wav")
        try AudioFileWriter().write([[0.1, 0.2, 0.3]], sampleRate: rate, format: .init(.wav, .pcm16), to: path)
        let error = try #require(Self.openError(path))
        #expect(error.reason == .unsupportedSampleRate(rate))
        #expect(error.description.hasPrefix("cannot tune '\(path)': its sample rate \(rate) Hz is outside 8000…192000 Hz"))
    }

    @Test(arguments: [0, 3])
    func channelOutOfRange(_ channel: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("stereo.wav")
        try AudioFileWriter().write([[0.1], [0.2]], sampleRate: 44_100, format: .init(.wav, .pcm16), to: path)
        let error = try #require(Self.openError(path, channel: channel))
        #expect(error.reason == .channelOutOfRange(requested: channel, available: 2))
        #expect(error.description == "cannot use channel \(channel) of '\(path)': it has 2 channels (1…2)")
    }
}
