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

// MARK: - The hostile run, as a table

/// What a hostile or careless user tries, one row each, run through bash against the real binary in a
/// folder of fixtures: every row ends with its documented exit code and, on stderr, exactly one
/// "Error: …" line (a usage error adds the usage lines after it) containing the row's words — or, for
/// a row that must succeed, nothing but the row's note.
extension BadInputMatrixTests {
    struct Row: CustomTestStringConvertible, Sendable {
        /// A bash command line run in the fixture folder; `$TUNER` is the binary.
        var script: String
        var status: Int32
        /// Words the first stderr line must contain (it must also start with "Error: " when status ≠ 0);
        /// nil: stderr must be empty.
        var message: String?
        var testDescription: String { script }
        init(_ script: String, _ status: Int32, _ message: String?) {
            self.script = script
            self.status = status
            self.message = message
        }
    }

    /// The fixture folder: `a2.wav` (1 s of A2, mono), `stereo.wav`, `empty.wav` (0 bytes), `text.wav`
    /// (words), `folder.wav/` (a directory), `zero.wav` (a header and no frames), `cut.ogg` (an OGG cut
    /// after its headers: no frames), `whole.ogg`.
    static func fixtures() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("tuner-matrix")
        let a2 = Synth.sine(Hertz(110), seconds: 1, sampleRate: 44100, amplitude: 0.4)
        _ = try dir.write("a2.wav", [a2], rate: 44100, format: .init(.wav, .pcm16))
        _ = try dir.write("stereo.wav", [a2, a2], rate: 44100, format: .init(.wav, .pcm16))
        let ogg = try dir.write("whole.ogg", [a2], rate: 44100, format: .init(.ogg, .vorbis))
        let oggBytes = try Data(contentsOf: URL(fileURLWithPath: ogg))
        // The Vorbis headers (identification, comment, setup) end within the first 4 KiB of libsndfile's
        // output; what follows is audio pages. Cut where the headers are complete and no page of audio is.
        let audioPage = Self.firstAudioPageOffset(oggBytes)
        try oggBytes.prefix(audioPage).write(to: URL(fileURLWithPath: dir.path("cut.ogg")))
        _ = try Self.write(Self.wav(channels: 1, rate: 44100, data: []), "zero.wav", in: dir)
        FileManager.default.createFile(atPath: dir.path("empty.wav"), contents: Data())
        try "these are words, not audio\n".write(toFile: dir.path("text.wav"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.path("folder.wav"), withIntermediateDirectories: true)
        return dir
    }

    /// The byte offset of the first Ogg page whose granule position is not 0 and not -1 (the first page
    /// that carries audio); the pages before it hold the three Vorbis headers.
    static func firstAudioPageOffset(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        var offset = 0
        while offset + 27 <= bytes.count, bytes[offset..<offset + 4] == [0x4F, 0x67, 0x67, 0x53][...] {
            let granule = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + 6 + $1]) << (8 * UInt64($1)) }
            if granule != 0 && granule != UInt64.max { return offset }
            let segments = Int(bytes[offset + 26])
            guard offset + 27 + segments <= bytes.count else { break }
            let body = bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            offset += 27 + segments + body
        }
        return offset
    }

    static let rows: [Row] = [
        // Help and version: no value, and `-h` heading a cluster is still help.
        Row(#"$TUNER -hf a2.wav | head -1"#, 0, nil),
        Row(#"$TUNER --help=yes"#, 64, "The flag '--help' takes no value (got 'yes'); write it alone."),
        Row(#"$TUNER --version=1"#, 64, "The flag '--version' takes no value (got '1'); write it alone."),
        // Notes outside the range a string can be tuned to: said so, not "octave from 0 to 9".
        Row(#"$TUNER --tuning "E2 G#9""#, 64, "\"G#9\" is above G9, the highest note: use a note from C0 to G9"),
        Row(#"$TUNER --tuning "A#9""#, 64, "\"A#9\" is above G9, the highest note"),
        Row(#"$TUNER --tuning "E2 B9""#, 64, "\"B9\" is above G9, the highest note"),
        Row(#"$TUNER --tuning "Cb0 E2""#, 64, "\"Cb0\" is below C0, the lowest note"),
        Row(#"$TUNER -f a2.wav --expect G#9"#, 64, "Invalid value 'G#9' for '--expect <note>': \"G#9\" is above G9"),
        Row(#"$TUNER -f a2.wav --expect B-1"#, 64, "\"B-1\" is below C0, the lowest note"),
        // Flags that mean nothing together.
        Row(#"$TUNER --list-tunings -f x"#, 64, "'--list-tunings' and '--file' cannot be used together"),
        Row(#"$TUNER --list-tunings --channel 2"#, 64, "'--list-tunings' and '--channel' cannot be used together"),
        Row(#"$TUNER --list-tunings --output jsonl"#, 64, "'--list-tunings' and '--output' cannot be used together"),
        Row(#"$TUNER --channel 1 --output text"#, 64, "'--channel' needs '--file'"),
        Row(#"$TUNER --channel 2 --device null"#, 64, "'--channel' needs '--file'"),
        // ALSA's configuration unreadable: one line, EX_CONFIG, not an empty list and 0.
        Row(#"ALSA_CONFIG_PATH=/nonexistent $TUNER --list-devices"#, 78,
            "cannot list capture devices: ALSA's configuration could not be read"),
        Row(#"mkdir -p h && printf 'pcm.broken { type\n' > h/.asoundrc && HOME=$PWD/h $TUNER --list-devices"#, 78,
            "cannot list capture devices: ALSA's configuration could not be read"),
        Row(#"ALSA_CONFIG_PATH=/nonexistent $TUNER --list-playback-devices"#, 78,
            "cannot list playback devices: ALSA's configuration could not be read"),
        Row(#"$TUNER --list-tunings --list-playback-devices"#, 64,
            "'--list-tunings' and '--list-playback-devices' cannot be used together"),
        Row(#"$TUNER --tone A4 --list-playback-devices"#, 64,
            "'--tone' and '--list-playback-devices' cannot be used together"),
        // A file that promises audio and holds none: 66 whatever its format.
        Row(#"$TUNER -f cut.ogg --output jsonl"#, 66, "cut.ogg': it holds no audio (0 frames)"),
        Row(#"$TUNER -f zero.wav --output jsonl"#, 66, "zero.wav': it holds no audio (0 frames)"),
        // File names are bytes: one that is not UTF-8 (café in Latin-1) opens, and is shown escaped.
        Row(#"cp a2.wav "$(printf 'caf\xe9.wav')" && [ $($TUNER -f "$(printf 'caf\xe9.wav')" --output jsonl | grep -c '"A2"') -ge 50 ]"#, 0, nil),
        Row(#"cp a2.wav "$(printf '\xff\xfe.wav')" && $TUNER --file="$(printf '\xff\xfe.wav')" --expect A2 >/dev/null"#, 0, nil),
        Row(#"$TUNER -f "$(printf 'nix\xe9.wav')" --output jsonl"#, 66, "cannot read 'nix\\xE9.wav': no such file"),
        Row(#"$TUNER -f "$(printf 'two\nlines.wav')" --output jsonl"#, 66, "cannot read 'two\\nlines.wav': no such file"),
        Row(#"cp stereo.wav "$(printf 'st\xe9.wav')" && $TUNER -f "$(printf 'st\xe9.wav')" --channel 3"#, 64,
            "'st\\xE9.wav' has 2 channels"),
        Row(#"$TUNER --tuning "$(printf 'E\xe9')""#, 64, "unknown tuning \"E\\xE9\""),
        // TERM=dumb (Emacs' M-x shell): the screen cannot draw there, so the readings come as lines.
        Row(#"TERM=dumb $TUNER -f a2.wav --output screen > out.txt && grep -q '110.00 Hz' out.txt"#, 0,
            "Note: TERM=dumb cannot show the screen (no cursor movement); printing one line per reading instead"),
        Row(#"TERM=dumb $TUNER -f a2.wav --output screen --tuning guitar > out.txt && grep -q 'string 2 A2' out.txt"#, 0,
            "Note: TERM=dumb cannot show the screen"),
        Row(#"TERM=no-such-terminal $TUNER -f a2.wav --output screen < /dev/null"#, 1,
            "cannot start the screen: terminal type TERM=no-such-terminal is unknown"),
        // Usage errors the parser already caught: each names the flag and says how to fix it.
        Row(#"$TUNER --tolerance 99"#, 64, "Invalid value '99' for '--tolerance <cents>': must be between 0.1 and 50."),
        Row(#"$TUNER -t 0"#, 64, "Invalid value '0' for '--tolerance <cents>'"),
        Row(#"$TUNER -t inf"#, 64, "Invalid value 'inf' for '--tolerance <cents>': must be a number"),
        Row(#"$TUNER -t -- -3"#, 64, "Missing value for '--tolerance <cents>'"),
        Row(#"$TUNER --tolerance=1e999"#, 64, "Invalid value '1e999' for '--tolerance <cents>'"),
        Row(#"$TUNER --a4 399.9"#, 64, "Invalid value '399.9' for '--a4 <hz>': must be between 400 and 480."),
        Row(#"$TUNER --a4 442Hz"#, 64, "Invalid value '442Hz' for '--a4 <hz>'"),
        Row(#"$TUNER --a4 """#, 64, "Invalid value '' for '--a4 <hz>'"),
        // Swift's Double("0x1b8") is 440 and Double("nan") is NaN: a tuner takes decimal numbers only.
        Row(#"$TUNER --a4 0x1b8"#, 64, "Invalid value '0x1b8' for '--a4 <hz>': must be a number between 400 and 480."),
        Row(#"$TUNER --a4 nan"#, 64, "Invalid value 'nan' for '--a4 <hz>': must be a number between 400 and 480."),
        Row(#"$TUNER --tolerance 0x2"#, 64, "Invalid value '0x2' for '--tolerance"),
        Row(#"$TUNER --a4 4.42e2 --version | grep -q '^tuner '"#, 0, nil),
        Row(#"$TUNER --output SCREEN"#, 64, "Invalid value 'SCREEN' for '--output <format>': must be one of screen, text, jsonl."),
        Row(#"$TUNER --output="#, 64, "Invalid value '' for '--output <format>'"),
        Row(#"$TUNER -f a2.wav --channel -1"#, 64, "Invalid value '-1' for '--channel <n>': must be a whole number, 1 or more."),
        Row(#"$TUNER -f a2.wav --channel two"#, 64, "Invalid value 'two' for '--channel <n>'"),
        Row(#"$TUNER -f a2.wav --channel 99999999999999999999"#, 64, "Invalid value '99999999999999999999' for '--channel <n>'"),
        Row(#"$TUNER --rate 44.1k"#, 64, "Invalid value '44.1k' for '--rate <hz>'"),
        Row(#"$TUNER --rate 384000"#, 64, "Invalid value '384000' for '--rate <hz>'"),
        Row(#"$TUNER --device """#, 64, "Invalid value '' for '--device <name>'"),
        Row(#"$TUNER --file """#, 64, "Invalid value '' for '--file <path>'"),
        Row(#"$TUNER --file=a2.wav --rate 48000"#, 64, "'--file' and '--rate' cannot be used together"),
        Row(#"$TUNER -f a2.wav --list-devices"#, 64, "'--file' and '--list-devices' cannot be used together"),
        Row(#"$TUNER -f a2.wav -d hw:9"#, 64, "'--file' and '--device' cannot be used together"),
        Row(#"$TUNER --tuning "E2 A2 D3 G3 B3 E4 A4 D5 G5 B5 E6 A6 D7""#, 64, "13 strings is too many"),
        Row(#"$TUNER --tuning ",,,""#, 64, "the tuning is empty"),
        Row(#"$TUNER --tuning "E2 A2 D3 G3 B3 X4""#, 64, "\"X4\" is not a note"),
        Row(#"$TUNER --tuning drop-z"#, 64, "unknown tuning \"drop-z\""),
        Row(#"$TUNER --tuning"#, 64, "Missing value for '--tuning <name|notes>'"),
        Row(#"$TUNER --expect A2"#, 64, "'--expect' needs '--file'"),
        Row(#"$TUNER -f a2.wav --expect A"#, 64, "Invalid value 'A' for '--expect <note>': must be a note"),
        Row(#"$TUNER -f a2.wav --expect A2 --output jsonl"#, 64, "'--expect' and '--output' cannot be used together"),
        Row(#"$TUNER -f a2.wav --expect A2 --speak"#, 64, "'--expect' and '--speak' cannot be used together"),
        Row(#"$TUNER --speak --output text"#, 64, "'--speak' and '--output' cannot be used together"),
        Row(#"$TUNER -f a2.wav --poly --tuning guitar --expect A2"#, 64,
            "'--poly' and '--expect' cannot be used together: '--expect' works on one note at a time"),
        Row(#"$TUNER --announce=yes"#, 64, "The flag '--announce' takes no value (got 'yes')"),
        Row(#"$TUNER --list-tunings=all"#, 64, "The flag '--list-tunings' takes no value (got 'all')"),
        Row(#"$TUNER -h=1"#, 64, "The flag '-h' takes no value (got '1')"),
        Row(#"$TUNER ---file a2.wav"#, 64, "Unknown option '---file'"),
        Row(#"$TUNER --FILE a2.wav"#, 64, "Unknown option '--FILE'"),
        Row(#"$TUNER --a5 442"#, 64, "Unknown option '--a5'. Did you mean '--a4'?"),
        Row(#"$TUNER -z"#, 64, "Unknown option '-z'."),
        Row(#"$TUNER -tolerance 5"#, 64, "Unknown option '-tolerance'. Did you mean '--tolerance'?"),
        Row(#"$TUNER a2.wav"#, 64, "Unexpected argument 'a2.wav'; to tune a file, write '--file a2.wav'."),
        Row(#"$TUNER -f a2.wav extra"#, 64, "Unexpected argument 'extra'"),
        Row(#"$TUNER -- a2.wav"#, 64, "Unexpected argument 'a2.wav'"),
        // Help wins wherever it is; version likewise.
        Row(#"$TUNER --bogus --help | grep -q '^EXIT CODES:'"#, 0, nil),
        Row(#"$TUNER -t 99 -h | grep -q '^EXAMPLES:'"#, 0, nil),
        Row(#"$TUNER --a4 1 --version | grep -q '^tuner 0.1.0 (commit '"#, 0, nil),
        // Files that cannot be read: one line naming the file, 66.
        Row(#"$TUNER -f missing.wav --output jsonl"#, 66, "cannot read 'missing.wav': no such file"),
        Row(#"$TUNER -f folder.wav --output jsonl"#, 66, "cannot read 'folder.wav': it is a directory"),
        Row(#"$TUNER -f empty.wav --output jsonl"#, 66, "cannot read 'empty.wav': the file is empty (0 bytes)"),
        Row(#"$TUNER -f text.wav --output jsonl"#, 66, "cannot read 'text.wav': not an audio file"),
        Row(#"$TUNER -f /dev/null --output jsonl"#, 66, "cannot read '/dev/null': not a regular file"),
        Row(#"mkfifo fifo.wav && $TUNER -f fifo.wav --output jsonl"#, 66, "cannot read 'fifo.wav': not a regular file"),
        Row(#"ln -s loop.wav loop.wav && $TUNER -f loop.wav --output jsonl"#, 66, "cannot read 'loop.wav'"),
        Row(#"$TUNER -f a2.wav/inside.wav --output jsonl"#, 66, "cannot read 'a2.wav/inside.wav': no such file"),
        Row(#"$TUNER -f "$(printf 'x%.0s' $(seq 300)).wav" --output jsonl"#, 66, "File name too long"),
        Row(#"$TUNER -f cut.ogg --expect A2"#, 66, "cut.ogg': it holds no audio (0 frames)"),
        Row(#"$TUNER -f text.wav --announce"#, 66, "cannot read 'text.wav'"),
        Row(#"$TUNER -f a2.wav --channel 2"#, 64, "it has one channel; leave --channel out"),
        // Odd but fine: names with spaces, quotes and leading dashes; output that goes away.
        Row(#"cp a2.wav "a 2 'x'.wav" && $TUNER -f "a 2 'x'.wav" --expect A2 > /dev/null"#, 0, nil),
        Row(#"cp a2.wav ./-x.wav && $TUNER --file=-x.wav --expect A2 > /dev/null"#, 0, nil),
        Row(#"$TUNER -f stereo.wav --channel 2 --expect A2 > /dev/null"#, 0, nil),
        Row(#"$TUNER -f whole.ogg --output jsonl | head -1 | grep -q '"time"'"#, 0, nil),
        Row(#"$TUNER -f a2.wav --output text > /dev/full"#, 1, "cannot write the readings: No space left on device"),
        // A closed standard output: the readings must not go to whatever the tuner opens next as fd 1.
        Row(#"$TUNER -f a2.wav --output jsonl >&-"#, 1, "cannot write the readings: Bad file descriptor"),
        Row(#"$TUNER -f a2.wav --output jsonl <&- > out.jsonl && grep -c '"A2"' out.jsonl > /dev/null"#, 0, nil),
        Row(#"$TUNER --list-tunings | head -1 | grep -q Tunings"#, 0, nil),
        Row(#"$TUNER --device no-such-pcm --output jsonl"#, 69, "cannot open capture device \"no-such-pcm\""),
        // `--device null` outruns any reader: a dropped-readings warning may come, and nothing else.
        Row(#"$TUNER --device null --output jsonl 2> err.txt | head -3 | wc -l | grep -qx 3 && ! grep -v '^Warning: ' err.txt"#, 0, nil),
        // Signals another process sends end the run as their default action says — not a Swift "crash"
        // report on stderr with the tuner running on. (Waits for the first reading, then signals.)
        Row(Self.signalled("QUIT"), 128 + SIGQUIT, nil),
        Row(Self.signalled("SEGV"), 128 + SIGSEGV, nil),
        Row(Self.signalled("BUS"), 128 + SIGBUS, nil),
        Row(Self.signalled("ABRT"), 128 + SIGABRT, nil),
        Row(Self.signalled("TERM"), 128 + SIGTERM, nil),
    ]

    /// `--device null --output jsonl` to a file, sent `signal` once the first reading is written; the
    /// script's status is the tuner's, its stderr the tuner's (bash's own "Segmentation fault" notice is
    /// dropped).
    static func signalled(_ signal: String) -> String {
        #"{ ulimit -c 0; $TUNER --device null --output jsonl > out.jsonl 2> err.txt & p=$!; "#
            + #"while [ ! -s out.jsonl ] && kill -0 $p; do sleep 0.02; done; kill -\#(signal) $p; "#
            // A tuner that runs on after the signal (the bug) is killed after 10 s, so it is not left behind.
            + #"for i in $(seq 200); do kill -0 $p || break; sleep 0.05; done; kill -KILL $p; wait $p; } 2>/dev/null; "#
            // `--device null` outruns any writer: the dropped-readings warning may come, and only it.
            + #"s=$?; grep -v '^Warning: [0-9]* readings\? dropped so far' err.txt >&2; exit $s"#
    }

    /// Resource limits, apart: under `make sanitize` they cannot run (the sanitizer runtimes reserve
    /// terabytes of shadow address space and descriptors of their own, so under `ulimit -v`/`-n` the
    /// instrumented binary cannot start at all); scripts/sanitize.sh skips this test, saying so.
    static let limitRows: [Row] = [
        // Resource limits: help, version and usage errors need none; a run under too low a limit says
        // which, in one line, and exits 71 — not a SIGILL, not waiting for ever. Above the limit it runs.
        Row(#"(ulimit -n 4; exec $TUNER --version) > v.txt && grep -q '^tuner 0.1.0 (commit ' v.txt"#, 0, nil),
        Row(#"ulimit -n 4; $TUNER -h > /dev/null"#, 0, nil),
        Row(#"ulimit -n 4; $TUNER --bogus"#, 64, "Unknown option '--bogus'."),
        Row(#"ulimit -n 4; $TUNER -f a2.wav --output jsonl"#, 71, "only 4 open files are allowed (ulimit -n 4)"),
        Row(#"ulimit -n 31; $TUNER --device null --output jsonl"#, 71, "(ulimit -n 31), below the 32"),
        Row(#"ulimit -n 32; $TUNER -f a2.wav --output jsonl | grep -c '"A2"' > /dev/null"#, 0, nil),
        Row(#"ulimit -v 100000; $TUNER --version > /dev/null"#, 0, nil),
        Row(#"ulimit -v 100000; $TUNER -f a2.wav --output jsonl"#, 71, "the address-space limit is 100000 KiB"),
        Row(#"ulimit -v 262143; $TUNER --device null --output jsonl"#, 71, "below the 256 MiB the tuner needs"),
        Row(#"ulimit -v 262144; $TUNER -f a2.wav --output jsonl | grep -c '"A2"' > /dev/null"#, 0, nil),
    ]

    @Test(arguments: limitRows)
    func resourceLimitRun(_ row: Row) throws { try Self.check(row) }

    @Test(arguments: rows)
    func hostileRun(_ row: Row) throws { try Self.check(row) }

    static func check(_ row: Row) throws {
        let dir = try Self.fixtures()
        let result = try TunerBinary.shell("cd '\(dir.url.path)' && \(row.script)", timeout: 60)
        #expect(result.status == row.status, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard let message = row.message else {
            #expect(result.stderr == "")
            return
        }
        let first = lines.first.map(String.init) ?? ""
        #expect(first.contains(message), "stderr: \(result.stderr)")
        if row.status != 0 { #expect(first.hasPrefix("Error: ")) }
        if row.status == 64 && lines.count > 1 {
            #expect(lines.dropFirst().first?.hasPrefix("Usage: tuner") == true, "only the usage may follow")
        } else {
            #expect(lines.count == 1, "one line: \(result.stderr)")
        }
    }
}

/// Standard output that a parent made non-blocking (`O_NONBLOCK` on the pipe it shares): when the pipe
/// is full the tuner waits for its reader, as with a blocking pipe, rather than failing with
/// "Resource temporarily unavailable".
@Suite struct NonBlockingOutputTests {
    @Test func aFullNonBlockingPipeIsWaitedOn() throws {
        let dir = try TemporaryDirectory()
        // 10 s of A2: about 1000 JSON lines, 90 KB, more than a pipe holds (64 KiB).
        let path = try dir.write("long.wav", [Synth.sine(Hertz(110), seconds: 10, sampleRate: 8000, amplitude: 0.4)],
                                 rate: 8000, format: .init(.wav, .pcm16))
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        let process = Process()
        process.executableURL = try TunerBinary.location()
        process.arguments = ["--file", path, "--output", "jsonl"]
        process.standardOutput = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        close(writeEnd)
        // Read nothing until the pipe is full and the tuner has had to wait (its output stops growing).
        var size: Int32 = 0, previous: Int32 = -1
        while size != previous || size < 65536 {
            previous = size
            usleep(200_000)
            _ = ioctl(readEnd, UInt(FIONREAD), &size)
            if !process.isRunning { break }
        }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            if n <= 0 { break }
            output.append(contentsOf: buffer[0..<n])
            usleep(1000)  // a slow reader
        }
        close(readEnd)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "stderr: \(stderr)")
        #expect(stderr == "")
        #expect(try JSONReading.all(String(decoding: output, as: UTF8.self)).count == 1000)
    }
}
