import Foundation
import Synchronization
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// The two output formats, line by line, and how output ends when its reader goes away.
@Suite struct OutputTests {
    static func reading(time: Double = 1.23, frequency: Double? = 109.53746, midi: Int = 45, cents: Double = -7.3,
                        level: Double = -12.5, tolerance: Double = 3) -> Reading {
        Reading(time: time,
                pitch: frequency.map { Pitch(frequency: Hertz($0), note: Note(midi: midi), rawCents: Cents(cents)) },
                level: Decibels(level), confidence: 0.9, tolerance: Cents(tolerance))
    }

    @Test func jsonLineOfAPitch() {
        #expect(JSONLinesFormatter().line(for: Self.reading())
                == #"{"time":1.23,"frequency":109.53746,"note":"A2","cents":-7.3,"in_tune":false,"level_db":-12.5}"# + "\n")
    }

    @Test func jsonLineInTuneWithClampedCentsAndSharpNote() {
        let line = JSONLinesFormatter().line(for: Self.reading(frequency: 92.5, midi: 42, cents: 2.5))
        #expect(line.contains(#""note":"F#2","cents":2.5,"in_tune":true"#))
        let clamped = JSONLinesFormatter().line(for: Self.reading(cents: 61.25, tolerance: 50))
        #expect(clamped.contains(#""cents":50.0,"in_tune":true"#))
    }

    @Test func jsonLineWithoutPitchHasNullsAndNeverNaN() throws {
        let line = JSONLinesFormatter().line(for: Self.reading(frequency: nil, level: -.infinity))
        #expect(line == #"{"time":1.23,"frequency":null,"note":null,"cents":null,"in_tune":false,"level_db":-120.0}"# + "\n")
        let nan = JSONLinesFormatter().line(for: Self.reading(frequency: .nan, level: .nan))
        #expect(!nan.contains("nan") && !nan.contains("inf"))
        let parsed = try JSONReading(nan.dropLast())
        #expect(parsed.frequency == nil && parsed.levelDB == -120)
    }

    @Test func textLines() {
        #expect(TextFormatter().line(for: Self.reading()) == "  1.230 s  A2    109.54 Hz   -7.3 ¢  ✗   -12.5 dBFS\n")
        #expect(TextFormatter().line(for: Self.reading(time: 12.5, frequency: 1046.502, midi: 84, cents: 0.04))
                == " 12.500 s  C6   1046.50 Hz   +0.0 ¢  ✓   -12.5 dBFS\n")
        #expect(TextFormatter().line(for: Self.reading(cents: -0.04)).contains("   +0.0 ¢  ✓"))
        #expect(TextFormatter().line(for: Self.reading(time: 0.01, frequency: nil, level: -71))
                == "  0.010 s  no pitch                      -71.0 dBFS\n")
    }

    @Test func textAndJSONGiveOneLinePerReading() throws {
        let dir = try TemporaryDirectory()
        let pluck = Synth.Pluck(frequency: Hertz(196)).render(seconds: 1, sampleRate: 44_100)
        let path = try dir.write("g3.wav", [pluck], rate: 44_100, format: .init(.wav, .pcm16))
        let text = try TunerBinary.run(["--file", path])
        let jsonl = try TunerBinary.run(["--file", path, "--output", "jsonl"])
        #expect(text.status == 0 && jsonl.status == 0)
        let readings = try JSONReading.all(jsonl.stdout)
        #expect(text.stdoutLines.count == readings.count)
        for (line, reading) in zip(text.stdoutLines, readings) {
            #expect(line.hasPrefix(String(format: "%7.3f s  ", reading.time)))
            #expect(line.hasSuffix(String(format: "%6.1f dBFS", reading.levelDB)))
            if let note = reading.note { #expect(line.contains(" \(note) ")) } else { #expect(line.contains("no pitch")) }
        }
    }

    /// `tuner … | head -1` ends quietly: no "Broken pipe", no signal death, exit 0.
    @Test func aReaderThatStopsEarlyEndsTheRunQuietly() throws {
        let dir = try TemporaryDirectory()
        let long = Synth.sine(Hertz(110), seconds: 30, sampleRate: 8_000, amplitude: 0.3)  // ~3000 lines
        let path = try dir.write("long.wav", [long], rate: 8_000, format: .init(.wav, .float32))
        let result = try TunerBinary.shell("set -o pipefail; \"$TUNER\" --file '\(path)' --output jsonl | head -1")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdoutLines.count == 1)
        _ = try JSONReading(result.stdoutLines[0])
    }

    /// A full disk is a failure, said in one line, not a silent success.
    @Test func aFailingOutputExits1() throws {
        let dir = try TemporaryDirectory()
        let sine = Synth.sine(Hertz(440), seconds: 0.3, sampleRate: 8_000)
        let path = try dir.write("a4.wav", [sine], rate: 8_000, format: .init(.wav, .pcm16))
        let readings = try TunerBinary.shell("\"$TUNER\" --file '\(path)' > /dev/full")
        #expect(readings.status == 1)
        #expect(readings.stderr == "Error: cannot write the readings: No space left on device\n")
        let help = try TunerBinary.shell("\"$TUNER\" --help > /dev/full")
        #expect(help.status == 1)
        #expect(help.stderr == "Error: cannot write to standard output: No space left on device\n")
    }

    /// The writer makes one `write(2)` per buffer, not per line, and stops at the first EPIPE.
    @Test func bufferedOutputWritesInBlocksAndStopsOnBrokenPipe() {
        final class Calls: Sendable { let count = Atomic<Int>(0); let failAt: Int; init(failAt: Int) { self.failAt = failAt } }
        let calls = Calls(failAt: 3)
        let io = SystemIO(write: { _, _, count in
            let n = calls.count.add(1, ordering: .relaxed).newValue
            return n >= calls.failAt ? (-1, EPIPE) : (count, 0)
        }, ignoreBrokenPipe: {}, isTerminal: { _ in false })
        let output = BufferedOutput(descriptor: 1, io: io, capacity: 1000)
        var accepted = 0
        for _ in 0..<1000 where output.write(String(repeating: "x", count: 99) + "\n") { accepted += 1 }
        #expect(calls.count.load(ordering: .relaxed) == 3, "two full buffers, then the failing third")
        #expect(accepted == 29)
        #expect(!output.isOpen)
        #expect(output.failure == nil, "a closed pipe is not a failure")
    }
}
