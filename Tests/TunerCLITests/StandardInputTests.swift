import Foundation
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
import TunerTestSupport

/// `tuner --file -`: audio piped to standard input, in the formats libsndfile reads from a stream.
@Suite struct StandardInputTests {
    struct Piped: CustomTestStringConvertible, Sendable {
        var name: String
        var format: AudioFileWriter.Format
        var channels = 1
        var testDescription: String { "\(name), \(channels) channel(s)" }
    }

    /// Long enough (5 s) that the stream is larger than what `StandardInputStream` keeps for seeking
    /// back (1 MiB) in the float and stereo cases.
    static let formats: [Piped] = [
        Piped(name: "a.wav", format: .init(.wav, .pcm16)),
        Piped(name: "a.wav", format: .init(.wav, .float32), channels: 2),
        Piped(name: "a.wav", format: .init(.wavex, .pcm24), channels: 2),
        Piped(name: "a.flac", format: .init(.flac, .pcm16)),
        Piped(name: "a.flac", format: .init(.flac, .pcm24), channels: 2),
        Piped(name: "a.aiff", format: .init(.aiff, .pcm16)),
    ]

    @Test("a pipe of every format is read to its end", arguments: formats)
    func pipe(_ piped: Piped) throws {
        let dir = try TemporaryDirectory()
        let seconds = 5.0
        let sine = Synth.sine(Hertz(440), seconds: seconds, sampleRate: 48_000, amplitude: 0.5)
        let path = try dir.write(piped.name, Array(repeating: sine, count: piped.channels), rate: 48_000, format: piped.format)
        // `cat |` makes it a pipe (not a file that could be seeked).
        let result = try TunerBinary.shell("cat '\(path)' | \"$TUNER\" --file - --output jsonl")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        FileInputTests.checkReadings(try JSONReading.all(result.stdout), seconds: seconds, level: sineLevel(0.5))
    }

    @Test func theDefaultOutputIsTextNotTheScreen() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("a.wav", [Synth.sine(Hertz(110), seconds: 1, sampleRate: 48_000, amplitude: 0.5)],
                                 rate: 48_000, format: .init(.wav, .pcm16))
        let result = try TunerBinary.shell("\"$TUNER\" --file - --expect A2 < '\(path)'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("A2 in tune"))
        let screen = try TunerBinary.shell("\"$TUNER\" --file - --output screen < '\(path)'")
        #expect(screen.status == 64)
        #expect(screen.stderr.hasPrefix("Error: '--file -' and '--output screen' cannot be used together"))
    }

    @Test func rawSamplesSayHowToAddAHeader() throws {
        let dir = try TemporaryDirectory()
        let raw = Synth.sine(Hertz(440), seconds: 0.5, sampleRate: 48_000, amplitude: 0.5).map { Int16($0 * 32767) }
        try raw.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: dir.url.appendingPathComponent("a.raw"))
        let result = try TunerBinary.shell("cat '\(dir.path("a.raw"))' | \"$TUNER\" --file -")
        #expect(result.status == 66)
        #expect(result.stderr == "Error: cannot read standard input: it has no audio header (raw samples?); give it one, "
            + "e.g. 'arecord -f S16_LE -r 48000 -c 1 -t wav' or 'sox -t raw -r 48000 -e signed -b 16 -c 1 - -t wav -'\n")
        #expect(result.stdout == "")
    }

    @Test func anEmptyPipeSaysSo() throws {
        let result = try TunerBinary.shell("printf '' | \"$TUNER\" --file -")
        #expect(result.status == 66)
        #expect(result.stderr == "Error: cannot read standard input: it is empty (0 bytes)\n")
    }

    /// A stream that does not end (a live `arecord |`): readings come while it runs, and the reader
    /// stopping (`| head`) ends the tuner. Without the opening rules of `StandardInputStream`, libsndfile
    /// would try to read past all of the WAV's declared audio before the first reading.
    @Test func anEndlessStreamIsReadAsItComes() throws {
        let dir = try TemporaryDirectory()
        // A WAV header that declares ~6 hours of 48 kHz 16-bit mono (what arecord writes for a stream),
        // then one second of audio, repeated by `yes`-style looping in the shell, forever.
        let second = Synth.sine(Hertz(440), seconds: 1, sampleRate: 48_000, amplitude: 0.5).map { Int16($0 * 32767) }
        var header = Data("RIFF".utf8)
        func le32(_ v: UInt32) -> Data { withUnsafeBytes(of: v.littleEndian) { Data($0) } }
        func le16(_ v: UInt16) -> Data { withUnsafeBytes(of: v.littleEndian) { Data($0) } }
        header += le32(0x7FFF_FFFF) + Data("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(48_000)
            + le32(96_000) + le16(2) + le16(16) + Data("data".utf8) + le32(0x7FFF_FFD8)
        try header.write(to: dir.url.appendingPathComponent("header"))
        try second.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: dir.url.appendingPathComponent("second"))
        let script = "{ cat '\(dir.path("header"))'; while cat '\(dir.path("second"))'; do :; done; } 2>/dev/null "
            + "| \"$TUNER\" --file - --output jsonl | head -n 300 | tail -n 1"
        let result = try TunerBinary.shell(script, timeout: 60)
        let reading = try #require(try JSONReading.all(result.stdout).first)
        #expect(reading.note == "A4")
        #expect(abs(reading.time - 3.0) < 0.011)
    }
}
