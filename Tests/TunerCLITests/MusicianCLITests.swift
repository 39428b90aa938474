import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// The musician's flags run as a user runs them: --list-tunings, --tuning, --announce, --speak,
/// --expect and JSON Lines with a tuning, on synthesised files.
@Suite struct MusicianCLITests {
    static let rate = 48_000

    /// Plucked strings one after another, `seconds` each, written as a float WAV.
    static func notesFile(_ dir: TemporaryDirectory, _ name: String, _ notes: [(midi: Int, cents: Double)],
                          seconds: Double = 1.5) throws -> String {
        var samples: [Float] = []
        for note in notes {
            let frequency = Note(midi: note.midi).frequency().shifted(by: Cents(note.cents))
            samples += Synth.Pluck(frequency: frequency).render(seconds: seconds, sampleRate: Double(rate))
        }
        return try dir.write(name, [samples], rate: rate, format: .init(.wav, .float32))
    }

    /// E2 4 ¢ flat, A2 in tune, D3 12 ¢ sharp, 1.5 s each.
    static func threeNotes(_ dir: TemporaryDirectory) throws -> String {
        try notesFile(dir, "three.wav", [(40, -4), (45, 0), (50, 12)])
    }

    @Test func listTuningsPrintsThePresetsAndExits() throws {
        let result = try TunerBinary.run(["--list-tunings"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == Tuning.listing)
        #expect(result.stdout.contains("  drop-d  ") && result.stdout.contains("D2 A2 D3 G3 B3 E4"))
        #expect(result.stdout.split(separator: "\n").count == Tuning.presets.count + 8 + Temperament.builtIns.count)
    }

    @Test func announcePrintsExactlyOneLinePerSettledNote() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.threeNotes(dir)
        let result = try TunerBinary.run(["--file", path, "--announce"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "E2, 4 cents flat\nA2 in tune\nD3, 12 cents sharp\n")
        // With a tuning the notes are named by their strings, and the same three lines come out.
        let tuned = try TunerBinary.run(["--file", path, "--announce", "--tuning", "guitar"])
        #expect(tuned.status == 0)
        #expect(tuned.stdout == result.stdout)
        // Against a drop-D tuning the first string is D2: the E2 reads 196 cents sharp of it.
        let dropD = try TunerBinary.run(["--file", path, "--announce", "--tuning", "drop-d", "--tolerance", "5"])
        #expect(dropD.stdoutLines.count == 3)
        #expect(dropD.stdoutLines.first == "D2, 196 cents sharp")
        #expect(dropD.stdoutLines.dropFirst().first == "A2 in tune")
    }

    @Test func expectExitsZeroInTuneOneOffAndSaysByHowMuch() throws {
        let dir = try TemporaryDirectory()
        let a2 = try Self.notesFile(dir, "a2.wav", [(45, 1)], seconds: 2)
        let pass = try TunerBinary.run(["--file", a2, "--expect", "A2"])
        #expect(pass.status == 0)
        #expect(pass.stdout == "A2 in tune: 1 cent sharp (tolerance ±3 cents)\n")
        #expect(pass.stderr == "")

        let sharp = try Self.notesFile(dir, "a2-sharp.wav", [(45, 10)], seconds: 2)
        let off = try TunerBinary.run(["--file", sharp, "--expect", "A2"])
        #expect(off.status == 1)
        #expect(off.stdout == "expected A2: 10 cents sharp, out of tolerance (tolerance ±3 cents)\n")
        // A wider tolerance passes it.
        let wide = try TunerBinary.run(["--file", sharp, "--expect", "A2", "--tolerance", "12"])
        #expect(wide.status == 0)
        #expect(wide.stdout == "A2 in tune: 10 cents sharp (tolerance ±12 cents)\n")

        let other = try TunerBinary.run(["--file", a2, "--expect", "Bb2"])
        #expect(other.status == 1)
        #expect(other.stdout == "expected A#2, heard A2 (1 cent sharp), which is 99 cents flat of A#2\n")

        // The last settled note is the verdict: the three-note file ends on D3.
        let three = try Self.threeNotes(dir)
        #expect(try TunerBinary.run(["--file", three, "--expect", "D3", "-t", "15"]).status == 0)
        #expect(try TunerBinary.run(["--file", three, "--expect", "E2", "-t", "15"]).status == 1)

        let silent = try dir.write("silence.wav", [[Float](repeating: 0, count: Self.rate)], rate: Self.rate,
                                   format: .init(.wav, .pcm16))
        let nothing = try TunerBinary.run(["--file", silent, "--expect", "A2"])
        #expect(nothing.status == 1)
        #expect(nothing.stdout.contains("no note settled"))
    }

    @Test func expectOnUnreadableInputExits66() throws {
        let dir = try TemporaryDirectory()
        let text = dir.path("notes.wav")
        try "not audio".write(toFile: text, atomically: true, encoding: .utf8)
        for path in [text, dir.path("missing.wav"), dir.url.path] {
            let result = try TunerBinary.run(["--file", path, "--expect", "A2"])
            #expect(result.status == 66, "\(path)")
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("Error: ") && result.stderr.split(separator: "\n").count == 1)
        }
    }

    /// Reading lines keep the six keys first and add the target string; a settled line follows the
    /// reading at which each note settled.
    @Test func jsonLinesWithATuningHaveTheTargetAndSettledLines() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.threeNotes(dir)
        let result = try TunerBinary.run(["--file", path, "--output", "jsonl", "--tuning", "guitar"])
        #expect(result.status == 0)
        let lines = result.stdoutLines.map(String.init)
        let keys = JSONReading.keys + ["string", "target", "target_cents", "target_in_tune"]
        var settled: [[String: Any]] = []
        var previousTime: Double?
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["event"] as? String == "settled" {
                #expect(object["time"] as? Double == previousTime, "right after its reading: \(line)")
                settled.append(object)
                continue
            }
            #expect(Set(object.keys) == Set(keys), "\(line)")
            let positions = keys.map { line.range(of: "\"\($0)\":")!.lowerBound }
            #expect(positions == positions.sorted(), "keys in order: \(line)")
            previousTime = object["time"] as? Double
            if object["note"] is NSNull {
                #expect(object["string"] is NSNull && object["target"] is NSNull && object["target_cents"] is NSNull)
            } else {
                let target = try #require(object["target_cents"] as? Double)
                let string = try #require(object["string"] as? Int)
                #expect((1...6).contains(string))
                #expect((target.magnitude <= 3) == (object["target_in_tune"] as? Bool), "\(line)")
            }
        }
        #expect(lines.count - settled.count == 450, "one line per 10 ms reading")
        #expect(settled.map { $0["string"] as? Int } == [1, 2, 3])
        #expect(settled.map { $0["target"] as? String } == ["E2", "A2", "D3"])
        #expect(settled.map { ($0["cents"] as? Double).map { Int($0.rounded()) } } == [-4, 0, 12])
        #expect(settled.map { $0["in_tune"] as? Bool } == [false, true, false])
        // A reading of the A2 string in the middle of its note.
        let middle = try #require(lines.first { $0.hasPrefix("{\"time\":2.25,") })
        #expect(middle.contains("\"note\":\"A2\""))
        #expect(middle.contains(",\"string\":2,\"target\":\"A2\",\"target_cents\":"))

        // Without --tuning the lines are exactly the six keys, and there are no event lines.
        let plain = try TunerBinary.run(["--file", path, "--output", "jsonl"])
        #expect(try JSONReading.all(plain.stdout).count == 450)
    }

    @Test func jsonLinesTargetCentsAreUnclampedFromTheStringsNote() {
        var tracker = TuningTracker(tuning: Tuning.named("guitar"))
        let locked = tracker.press(digit: 1)
        #expect(locked)
        let a2 = Note(midi: 45)
        let reading = Reading(time: 1, pitch: Pitch(frequency: a2.frequency(), note: a2, rawCents: Cents(-0.5)),
                              level: Decibels(-20), confidence: 0.9, tolerance: Cents(3))
        let line = TuningLinesFormatter(tuning: Tuning.named("guitar")!).lines(for: tracker.process(reading))
        #expect(line == #"{"time":1.0,"frequency":110.0,"note":"A2","cents":-0.5,"in_tune":true,"level_db":-20.0,"#
                + #""string":1,"target":"E2","target_cents":499.5,"target_in_tune":false}"# + "\n")
    }

    @Test func textLinesWithATuningAddTheTargetAndTheSettledNotes() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.threeNotes(dir)
        let result = try TunerBinary.run(["--file", path, "--tuning", "drop-d", "--output", "text"])
        #expect(result.status == 0)
        let lines = result.stdoutLines.map(String.init)
        #expect(lines.filter { $0.hasPrefix("  settled: ") }
                == ["  settled: D2, 196 cents sharp", "  settled: A2 in tune", "  settled: D3, 12 cents sharp"])
        #expect(lines.count == 453)
        // The E2 against drop D's low D2 string: the reading's own note and cents, then the string's.
        let e2 = try #require(lines.first { $0.hasPrefix("  1.000 s") })
        #expect(e2.contains("  E2  ") && e2.contains("   string 1 D2    +196.0 ¢  ✗") && e2.hasSuffix(" ¢  ✗"), "\(e2)")
        let plain = try TunerBinary.run(["--file", path, "--output", "text"])
        #expect(!plain.stdout.contains("string") && plain.stdoutLines.count == 450, "unchanged without a tuning")
    }

    @Test func speakWithoutEspeakIsAClearErrorWith69() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.notesFile(dir, "a2.wav", [(45, 0)])
        let result = try TunerBinary.shell("PATH=\(dir.url.path) \"$TUNER\" --file \(path) --speak")
        #expect(result.status == 69)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: --speak needs espeak-ng, which was not found on PATH; install it "
                + "(e.g. 'apt-get install espeak-ng') or use --announce to print the notes instead.\n")
    }

    /// A fake espeak-ng first on PATH records how it was called — once per settled note, with
    /// `--stdout` and the line as its one other argument (no shell in between) — and writes a WAV of
    /// "speech" to its standard output, which the tuner plays through its own playback device (the
    /// `file` plugin in a private ~/.asoundrc writes it to out.wav).
    @Test func speakRunsEspeakOncePerSettledNoteAndPlaysItsSpeech() throws {
        let dir = try TemporaryDirectory()
        let espeak = try FakeEspeak(in: dir)
        let (bin, log, speech, out) = (espeak.bin, espeak.log, espeak.speech, espeak.played)
        let path = try dir.write("notes.wav", [Synth.Pluck(frequency: Note(parsing: "F#2")!.frequency()).render(
            seconds: 1.5, sampleRate: 48000) + Synth.Pluck(frequency: Hertz(110)).render(seconds: 1.5, sampleRate: 48000)],
            rate: 48000, format: .init(.wav, .float32))
        let env = espeak.environment
        let spoken = try TunerBinary.shell("\(env) \"$TUNER\" --file \(path) --speak --playback-device out")
        #expect(spoken.status == 0, "\(spoken.stderr)")
        #expect(spoken.stdout == "", "--speak alone prints nothing")
        #expect(try String(contentsOfFile: log, encoding: .utf8)
                == "2|--stdout F sharp 2 in tune\n2|--stdout A2 in tune\n")
        // Both utterances were played, one after the other, sample for sample (16-bit).
        let played = try AudioFileSource(path: out)
        #expect(played.sampleRate == 22050)
        #expect(played.info.frames == 2 * speech.count)

        try FileManager.default.removeItem(atPath: log)
        let both = try TunerBinary.shell("\(env) \"$TUNER\" --file \(path) --speak --announce --playback-device out")
        #expect(both.status == 0)
        #expect(both.stdout == "F#2 in tune\nA2 in tune\n")
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 2)

        // No such playback device: one line naming it, exit 69, before anything is analysed or said.
        try FileManager.default.removeItem(atPath: log)
        let noDevice = try TunerBinary.shell("\(env) \"$TUNER\" --file \(path) --speak --playback-device no_such_out")
        #expect(noDevice.status == 69)
        #expect(noDevice.stderr == "Error: cannot open playback device \"no_such_out\" (ALSA: No such file or "
                + "directory); name another with --playback-device (see --list-playback-devices)\n")
        #expect(!FileManager.default.fileExists(atPath: log))

        // espeak-ng that fails: one line naming it, exit 69.
        try "#!/bin/sh\necho 'voice not found' >&2\nexit 1\n".write(
            toFile: bin + "/espeak-ng", atomically: true, encoding: .utf8)
        chmod(bin + "/espeak-ng", 0o755)
        let failing = try TunerBinary.shell("\(env) \"$TUNER\" --file \(path) --speak --playback-device out")
        #expect(failing.status == 69)
        #expect(failing.stderr == "Error: espeak-ng failed (exit status 1): voice not found; check that it "
                + "can speak (e.g. 'espeak-ng test') or use --announce instead.\n")
    }

    /// The real espeak-ng (a test dependency): with no sound card it used to say nothing and exit 0;
    /// now its speech goes through the tuner's playback, so the missing device is an error (exit 69),
    /// and a working device gets the speech.
    @Test func realEspeakSpeaksThroughThePlaybackDeviceOrFailsInOneLine() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.wav")
        try "pcm.out { type file slave.pcm null file \"\(out)\" format \"wav\" }\n"
            .write(toFile: dir.path(".asoundrc"), atomically: true, encoding: .utf8)
        let path = try Self.notesFile(dir, "a2.wav", [(45, 0)])
        let env = "HOME=\(dir.url.path) PATH=/usr/local/bin:/usr/bin:/bin"
        let missing = try TunerBinary.shell("\(env) \"$TUNER\" --file \(path) --speak --playback-device tuner_missing_out")
        #expect(missing.status == 69, "\(missing.stderr)")
        #expect(missing.stderr.hasPrefix("Error: cannot open playback device \"tuner_missing_out\""))
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let spoken = try TunerBinary.shell("\(env) \"$TUNER\" --file \(path) --speak --playback-device out")
        #expect(spoken.status == 0, "espeak-ng must be installed (make test-deps): \(spoken.stderr)")
        let played = try AudioFileSource(path: out)
        #expect(played.sampleRate == 22050)
        #expect(played.info.frames > 11025, "at least half a second of 'A2 in tune'")
    }
}
