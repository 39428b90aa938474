import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic

/// `tuner --file` on every flavour of file, written here with libsndfile, and on every kind of bad file.
@Suite struct FileInputTests {
    struct Flavour: CustomTestStringConvertible, Sendable {
        var name: String
        var format: AudioFileWriter.Format
        var rate: Int = 44_100
        var testDescription: String { "\(name) at \(rate) Hz" }
    }

    static let flavours: [Flavour] = [
        Flavour(name: "a.wav", format: .init(.wav, .pcm16)),
        Flavour(name: "a.wav", format: .init(.wav, .pcm24)),
        Flavour(name: "a.wav", format: .init(.wav, .pcm32)),
        Flavour(name: "a.wav", format: .init(.wav, .float32)),
        Flavour(name: "a.wav", format: .init(.wav, .float64)),
        Flavour(name: "a.wav", format: .init(.wavex, .pcm24)),
        Flavour(name: "a.wav", format: .init(.wavex, .float32)),
        Flavour(name: "a.flac", format: .init(.flac, .pcm24)),
        Flavour(name: "a.aiff", format: .init(.aiff, .pcm16)),
        Flavour(name: "a.wav", format: .init(.wav, .pcm16), rate: 8_000),
        Flavour(name: "a.wav", format: .init(.wav, .pcm24), rate: 192_000),
    ]

    /// Checks readings cover the file in order, one per hop, and measure the sine's level and pitch (A4).
    static func checkReadings(_ readings: [JSONReading], seconds: Double, level: Double) {
        let settled = readings.filter { $0.time > 0.2 }
        #expect(settled.allSatisfy { $0.note == "A4" }, "notes: \(Set(settled.map { $0.note ?? "none" }))")
        let frequency = median(settled.compactMap(\.frequency)) ?? .nan
        #expect(abs(1200 * log2(frequency / 440)) < 0.1, "median \(frequency) Hz, expected 440 Hz")
        #expect(!readings.isEmpty)
        let times = readings.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "times must increase")
        #expect(abs((times.last ?? 0) - seconds) < 0.011, "the last reading is at the end of the file")
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 0.01) < 0.001 }, "one reading per 10 ms hop")
        let measured = median(readings.filter { $0.time > 0.2 }.map(\.levelDB)) ?? .nan
        #expect(abs(measured - level) < 0.3, "level \(measured) dBFS, expected \(level)")
    }

    @Test("every flavour is read", arguments: flavours)
    func flavour(_ flavour: Flavour) throws {
        let dir = try TemporaryDirectory()
        let sine = Synth.sine(Hertz(440), seconds: 0.5, sampleRate: Double(flavour.rate), amplitude: 0.5)
        let path = try dir.write(flavour.name, [sine], rate: flavour.rate, format: flavour.format)
        let result = try TunerBinary.run(["--file", path, "--output", "jsonl"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        Self.checkReadings(try JSONReading.all(result.stdout), seconds: 0.5, level: sineLevel(0.5))
    }

    /// Left loud, right quiet, in phase: the mix, channel 1 and channel 2 have three different levels.
    @Test(arguments: [(nil, 0.275), (1, 0.5), (2, 0.05)] as [(Int?, Double)])
    func stereoIsMixedOrOneChannelPicked(channel: Int?, amplitude: Double) throws {
        let dir = try TemporaryDirectory()
        let left = Synth.sine(Hertz(440), seconds: 0.5, sampleRate: 48_000, amplitude: 0.5)
        let right = Synth.sine(Hertz(440), seconds: 0.5, sampleRate: 48_000, amplitude: 0.05)
        let path = try dir.write("stereo.wav", [left, right], rate: 48_000, format: .init(.wav, .pcm24))
        let result = try TunerBinary.run(["--file", path, "--output", "jsonl"] + (channel.map { ["--channel", "\($0)"] } ?? []))
        #expect(result.status == 0)
        #expect(result.stderr == "")
        Self.checkReadings(try JSONReading.all(result.stdout), seconds: 0.5, level: sineLevel(amplitude))
    }

    // MARK: Files that cannot be tuned: one line naming the file and the reason, exit 66

    static func expectNoInput(_ arguments: [String], _ message: String) throws {
        let result = try TunerBinary.run(arguments)
        #expect(result.status == 66)
        #expect(result.stdout == "")
        #expect(result.stderr == message + "\n")
    }

    @Test func missingFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("missing.wav")
        try Self.expectNoInput(["--file", path], "Error: cannot read '\(path)': no such file")
    }

    @Test func directory() throws {
        let dir = try TemporaryDirectory()
        try Self.expectNoInput(["-f", dir.url.path], "Error: cannot read '\(dir.url.path)': it is a directory, not an audio file")
    }

    @Test func notAudio() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("notes.wav")
        try "not really a wave file\n".write(toFile: path, atomically: true, encoding: .utf8)
        try Self.expectNoInput(["--file", path],
                               "Error: cannot read '\(path)': not an audio file libsndfile can read (Format not recognised)")
    }

    @Test func emptyFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("empty.wav")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        try Self.expectNoInput(["--file", path], "Error: cannot read '\(path)': the file is empty (0 bytes)")
    }

    @Test func wavWithoutFrames() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("silent.wav", [[]], rate: 44_100, format: .init(.wav, .pcm16))
        try Self.expectNoInput(["--file", path], "Error: cannot read '\(path)': it holds no audio (0 frames)")
    }

    @Test(arguments: [4_000, 200_000])
    func unsupportedRate(_ rate: Int) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("odd.wav", [[0.1, -0.1, 0.1]], rate: rate, format: .init(.wav, .pcm16))
        try Self.expectNoInput(["--file", path],
                               "Error: cannot tune '\(path)': its sample rate \(rate) Hz is outside 8000…192000 Hz; "
                               + "resample it first (e.g. sox in.wav -r 48000 out.wav)")
    }

    @Test func channelTheFileDoesNotHaveIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("stereo.wav", [[0.1], [0.2]], rate: 44_100, format: .init(.wav, .pcm16))
        let result = try TunerBinary.run(["--file", path, "--channel", "3"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: Invalid value '3' for '--channel <n>': '\(path)' has 2 channels; "
                + "use 1…2, or leave --channel out to mix them.\n")
    }

    /// Live input on this machine (no sound card, output not a terminal): a clear error naming the device.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/snd"), "needs a machine without a sound card"),
          arguments: [([], "default"), (["-d", "hw:7"], "hw:7"), (["--rate", "44100", "--output", "jsonl"], "default")])
    func liveInputWithoutACaptureDeviceSaysSo(_ arguments: [String], device: String) throws {
        let result = try TunerBinary.run(arguments)
        #expect(result.status == 69)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: cannot open capture device \"\(device)\" (ALSA: No such file or directory); "
                + "see --list-devices\n")
    }

    @Test func listDevicesPrintsCapturePCMsOnePerLine() throws {
        let result = try TunerBinary.run(["--list-devices"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdoutLines.contains { $0.hasPrefix("null ") }, "alsa-lib's null PCM is always there")
        #expect(result.stdoutLines.allSatisfy { !$0.hasPrefix(" ") })
    }
}
