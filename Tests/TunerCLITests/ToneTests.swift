import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic

/// `tuner --tone NOTE`: the tone is played through a playback PCM that alsa-lib's `file` plugin turns
/// into a WAV (a private ~/.asoundrc under a temporary HOME), and the tuner's own engine measures it.
@Suite struct ToneTests {
    /// A HOME whose ~/.asoundrc defines `pcm.out`, writing what is played to `out.wav` there.
    static func playbackHome() throws -> TemporaryDirectory {
        let home = try TemporaryDirectory("tuner-tone")
        try "pcm.out { type file slave.pcm null file \"\(home.path("out.wav"))\" format \"wav\" }\n"
            .write(toFile: home.path(".asoundrc"), atomically: true, encoding: .utf8)
        return home
    }

    /// Cents of every reading of `path` between 0.3 s and 1.7 s, with their notes, measured at `a4`.
    static func measure(_ path: String, a4: String) throws -> [(note: String, cents: Double)] {
        let result = try TunerBinary.run(["--file", path, "--a4", a4, "--output", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutLines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let time = object["time"] as? Double, (0.3...1.7).contains(time),
                  let note = object["note"] as? String, let cents = object["cents"] as? Double else { return nil }
            return (note, cents)
        }
    }

    @Test(arguments: [("A2", "sine"), ("E4", "sine"), ("E2", "pluck"), ("G3", "pluck")])
    func toneIsMeasuredAtItsNoteWithinATenthOfACent(note: String, timbre: String) throws {
        let home = try Self.playbackHome()
        let played = try TunerBinary.shell(
            "HOME=\(home.url.path) \"$TUNER\" --tone \(note) --tone-timbre \(timbre) --a4 442 --playback-device out")
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.hasPrefix("Playing \(note) ("))
        let readings = try Self.measure(home.path("out.wav"), a4: "442")
        #expect(readings.count > 100)  // 2 s of tone, a reading every 10 ms
        #expect(readings.allSatisfy { $0.note == note })
        let worst = readings.map { abs($0.cents) }.max() ?? .infinity
        #expect(worst <= 0.1, "worst \(worst) ¢")
    }

    /// The same tone at A4 = 440 measured against A4 = 442 reads 1200·log2(440/442) ≈ −7.85 ¢:
    /// the tone follows --a4 (and the check above can fail).
    @Test func toneFollowsA4() throws {
        let home = try Self.playbackHome()
        let played = try TunerBinary.shell("HOME=\(home.url.path) \"$TUNER\" --tone A3 --playback-device out --duration 2")
        #expect(played.status == 0, "\(played.stderr)")
        let readings = try Self.measure(home.path("out.wav"), a4: "442")
        let expected = 1200 * log2(440.0 / 442.0)
        #expect(!readings.isEmpty)
        #expect(readings.allSatisfy { abs($0.cents - expected) <= 0.1 })
    }

    /// The tone is the temperament's note: meantone's E4 reads in tune against meantone and several
    /// cents off against equal temperament.
    @Test func toneFollowsTheTemperament() throws {
        let home = try Self.playbackHome()
        let played = try TunerBinary.shell(
            "HOME=\(home.url.path) \"$TUNER\" --tone E4 --temperament meantone --playback-device out")
        #expect(played.status == 0, "\(played.stderr)")
        let inMeantone = try TunerBinary.run(["--file", home.path("out.wav"), "--temperament", "meantone",
                                              "--output", "jsonl"])
        let equal = try Self.measure(home.path("out.wav"), a4: "440")
        let meantoneCents = inMeantone.stdoutLines.compactMap { line -> Double? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let t = o["time"] as? Double, (0.3...1.7).contains(t) else { return nil }
            return o["cents"] as? Double
        }
        #expect(meantoneCents.count > 100 && meantoneCents.allSatisfy { abs($0) <= 0.1 }, "\(meantoneCents.prefix(3))")
        #expect(!equal.isEmpty && equal.allSatisfy { abs($0.cents) > 1 }, "\(equal.prefix(3))")
    }

    @Test func durationSetsTheLength() throws {
        let home = try Self.playbackHome()
        let played = try TunerBinary.shell("HOME=\(home.url.path) \"$TUNER\" --tone C4 --playback-device out --duration 0.5")
        #expect(played.status == 0, "\(played.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: home.path("out.wav"))[.size] as? Int ?? 0
        #expect(size == 44 + 24_000 * 2)  // 0.5 s at 48 kHz, 16-bit mono, and the WAV header
    }

    @Test func missingPlaybackDeviceIsOneLineAndExit69() throws {
        let home = try TemporaryDirectory("tuner-tone-nodev")
        let result = try TunerBinary.shell("HOME=\(home.url.path) \"$TUNER\" --tone A4 --playback-device no_such_out")
        #expect(result.status == 69)
        #expect(result.stderr == "Error: cannot open playback device \"no_such_out\" (ALSA: No such file or directory); "
                + "name another with --playback-device (see --list-playback-devices)\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["--tone", "H2"], "Error: Invalid value 'H2' for '--tone <note>': must be a note"),
        (["--tone", "A4", "--duration", "0"], "Error: Invalid value '0' for '--duration <seconds>': must be between 0.1 and 60."),
        (["--tone-timbre", "organ"], "Error: Invalid value 'organ' for '--tone-timbre <timbre>': must be one of sine, pluck"),
        (["--tone", "A4", "--file", "x.wav"], "Error: '--tone' and '--file' cannot be used together"),
        (["--tone", "A4", "--announce"], "Error: '--tone' and '--announce' cannot be used together"),
        (["--chime", "--output", "jsonl"], "Error: '--chime' and '--output jsonl' cannot be used together"),
        (["--chime", "--file", "x.wav", "--expect", "A2"], "Error: '--expect' and '--chime' cannot be used together"),
    ])
    func badToneArgumentsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try TunerBinary.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    /// `--chime` where nothing would sound (standard output is a pipe, no --announce): a usage error;
    /// with no playback device: one line naming it, exit 69, before the analysis.
    @Test func chimeNeedsSomewhereToSoundAndADevice() throws {
        let home = try TemporaryDirectory("tuner-chime")
        let file = home.path("a2.wav")
        try AudioFileWriter().write([Synth.sine(Hertz(110), seconds: 1, sampleRate: 48000)], sampleRate: 48000,
                                    format: .init(.wav, .pcm16), to: file)
        let piped = try TunerBinary.shell("HOME=\(home.url.path) \"$TUNER\" --file \(file) --chime | cat")
        #expect(piped.status == 0, "the status of cat")
        #expect(piped.stderr == "Error: '--chime' sounds with the screen, --announce or --speak, and standard output "
                + "is not a terminal here; add '--announce' or '--output screen'.\n")
        let status = try TunerBinary.shell("HOME=\(home.url.path) \"$TUNER\" --file \(file) --chime; echo $?")
        #expect(status.stdout == "64\n")
        let noDevice = try TunerBinary.shell(
            "HOME=\(home.url.path) \"$TUNER\" --file \(file) --chime --announce --playback-device no_such_out")
        #expect(noDevice.status == 69)
        #expect(noDevice.stdout == "")
        #expect(noDevice.stderr == "Error: cannot open playback device \"no_such_out\" (ALSA: No such file or directory); "
                + "name another with --playback-device (see --list-playback-devices)\n")
    }
}
