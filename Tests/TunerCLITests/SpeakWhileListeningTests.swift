import Synchronization
import Testing
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// `--speak` on live input: while espeak-ng speaks, the analysis ignores the input, so the tuner's
/// own voice is not announced as a note. Driven step by step: the readings are handed out only
/// when the analysis asks for them, and the fake speech lasts until the "voice" readings were taken.
@Suite struct SpeakWhileListeningTests {
    enum Item {
        case reading(PitchMeasurement)
        /// Wait until the speaker has started speaking.
        case waitForSpeech
        /// Every reading before this was taken: let the speech end.
        case voiceTaken
    }

    /// Hands out the items in order, through `AsyncStream(unfolding:)`; used by one task at a time.
    final class Script: @unchecked Sendable {
        var items: [Item]
        var speechStarted: AsyncStream<Void>.Iterator
        let voiceTaken: AsyncStream<Void>.Continuation
        init(_ items: [Item], speechStarted: AsyncStream<Void>, voiceTaken: AsyncStream<Void>.Continuation) {
            self.items = items
            self.speechStarted = speechStarted.makeAsyncIterator()
            self.voiceTaken = voiceTaken
        }
        func next() async -> PitchMeasurement? {
            while !items.isEmpty {
                switch items.removeFirst() {
                case .reading(let reading): return reading
                case .waitForSpeech: _ = await speechStarted.next()
                case .voiceTaken: voiceTaken.yield()
                }
            }
            return nil
        }
    }

    /// The fake speaker's side: the first announcement lasts until the voice readings were taken.
    final class Speech: @unchecked Sendable {
        let started: AsyncStream<Void>.Continuation
        var voiceTaken: AsyncStream<Void>.Iterator
        let calls = Mutex<[[String]]>([])
        init(started: AsyncStream<Void>.Continuation, voiceTaken: AsyncStream<Void>) {
            self.started = started
            self.voiceTaken = voiceTaken.makeAsyncIterator()
        }
        /// A WAV of 10 ms of silence, as `espeak-ng --stdout` would write speech.
        static let wav: [UInt8] = {
            var bytes = Array("RIFF".utf8) + [0xdc, 1, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0]
            bytes += [0x22, 0x56, 0, 0, 0x44, 0xac, 0, 0, 2, 0, 16, 0] + Array("data".utf8) + [0xb8, 1, 0, 0]
            return bytes + [UInt8](repeating: 0, count: 440)
        }()
        func speak(_ arguments: [String]) async -> Speaker.Launched {
            let first = calls.withLock { $0.append(arguments); return $0.count == 1 }
            if first {
                started.yield()
                _ = await voiceTaken.next()
            }
            return Speaker.Launched(status: 0, message: "", output: Self.wav)
        }
    }

    /// What the engine reports for MIDI note `midi` 0.5 ¢ sharp (nil: no pitch) at `time`.
    static func reading(_ midi: Int?, at time: Double) -> PitchMeasurement {
        let frequency = midi.map { Note(midi: $0).frequency().shifted(by: Cents(0.5)) }
        return PitchMeasurement(time: time, frequency: frequency, clarity: 0.9,
                                level: Decibels(frequency == nil ? -90 : -20))
    }

    /// A2 played for 1 s (it settles at 0.5 s and is announced); while the announcement is spoken,
    /// the microphone hears the voice as a steady C4 for 1 s; then silence.
    /// With `chiming`, the first settled note's chime (not speech) is what lasts while the "voice" plays.
    func run(ignoreWhileSpeaking: Bool, chiming: Bool = false) async -> (printed: String, spoken: [[String]], code: ExitCode) {
        let (started, startedSink) = AsyncStream<Void>.makeStream()
        let (taken, takenSink) = AsyncStream<Void>.makeStream()
        var items: [Item] = (0..<100).map { .reading(Self.reading(45, at: Double($0) / 100)) }
        items.append(.waitForSpeech)
        items += (100..<200).map { .reading(Self.reading(60, at: Double($0) / 100)) }
        items.append(.voiceTaken)
        items += (200..<250).map { .reading(Self.reading(nil, at: Double($0) / 100)) }
        let script = Script(items, speechStarted: started, voiceTaken: takenSink)
        let readings = AsyncStream<PitchMeasurement>(unfolding: { await script.next() })

        let speech = Speech(started: startedSink, voiceTaken: taken)
        let speaker = Speaker(executable: "/fake/espeak-ng", launch: { _, arguments in await speech.speak(arguments) },
                              play: { _ in })
        let printed = Mutex<[UInt8]>([])
        let io = SystemIO(write: { _, bytes, count in
                              printed.withLock { $0 += UnsafeRawBufferPointer(start: bytes, count: count) }
                              return (count, 0)
                          }, ignoreBrokenPipe: {}, isTerminal: { _ in false })
        let chime: @Sendable (Bool) async -> String? = { inTune in
            _ = await speech.speak(["chime", inTune ? "in tune" : "out of tune"])
            return nil
        }
        let code = await SettledOutput.announce(SettledNotes(measurements: readings), tuning: nil, printing: true,
                                                speaker: chiming ? nil : speaker, chime: chiming ? chime : nil,
                                                ignoreWhileSpeaking: ignoreWhileSpeaking, stop: {}, io: io)
        return (String(decoding: printed.withLock { $0 }, as: UTF8.self), speech.calls.withLock { $0 }, code)
    }

    @Test func theVoiceIsIgnoredWhileSpeaking() async {
        let result = await run(ignoreWhileSpeaking: true)
        #expect(result.code == .success)
        #expect(result.printed == "A2 in tune\n")
        #expect(result.spoken == [["--stdout", "A2 in tune"]])
    }

    /// The control: without ignoring, the same input announces the voice as a note.
    @Test func withoutIgnoringTheVoiceWouldBeAnnounced() async {
        let result = await run(ignoreWhileSpeaking: false)
        #expect(result.code == .success)
        #expect(result.printed == "A2 in tune\nC4 in tune\n")
        #expect(result.spoken == [["--stdout", "A2 in tune"], ["--stdout", "C4 in tune"]])
    }

    /// `--chime` on live input: the chime of the first note lasts while the microphone hears C4; the
    /// input is ignored meanwhile, so only A2 is announced (and chimed).
    @Test func theChimeIsIgnoredLikeTheVoice() async {
        let result = await run(ignoreWhileSpeaking: true, chiming: true)
        #expect(result.code == .success)
        #expect(result.printed == "A2 in tune\n")
        #expect(result.spoken == [["chime", "in tune"]])
        let control = await run(ignoreWhileSpeaking: false, chiming: true)
        #expect(control.printed == "A2 in tune\nC4 in tune\n", "without ignoring, the chime's time would be read")
    }
}
