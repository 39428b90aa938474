import Synchronization
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
@testable import TunerCLI
#if canImport(Glibc)
import Glibc
#endif

/// Live input is printed reading by reading: one `write(2)` per reading, so whoever reads the pipe (a
/// script, the PulseAudio tests' latency measurement) sees each one as it is made. A file's readings
/// still go out in 64 KiB blocks.
@Suite struct LiveOutputTests {
    /// Samples from memory, then the end.
    final class ArraySource: AudioSource {
        let samples: [Float]
        var position = 0
        let sampleRate = 48_000.0
        let label = "memory"
        init(_ samples: [Float]) { self.samples = samples }
        func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
            let n = min(buffer.count, samples.count - position)
            for i in 0..<n { buffer[i] = samples[position + i] }
            position += n
            return n
        }
    }

    /// Runs `printLines` over half a second of A2 and returns (readings printed, write calls made).
    func printed(live: Bool) async throws -> (lines: Int, writes: Int) {
        final class Tally: Sendable {
            let writes = Atomic<Int>(0)
            let newlines = Atomic<Int>(0)
        }
        let tally = Tally()
        let io = SystemIO(write: { _, bytes, count in
            tally.writes.add(1, ordering: .relaxed)
            let text = UnsafeRawBufferPointer(start: bytes, count: count)
            tally.newlines.add(text.filter { $0 == UInt8(ascii: "\n") }.count, ordering: .relaxed)
            return (count, 0)
        }, ignoreBrokenPipe: {}, isTerminal: { _ in false })
        let samples = Synth.sine(Note(midi: 45).frequency(), seconds: 0.5, sampleRate: 48_000)
        let session = try TunerSession(source: ArraySource(samples), delivery: .everyReading)
        let exit = await TunerCommand.printLines(of: session, through: ReadingPipeline(), live: live, io: io) {
            JSONLinesFormatter().line(for: $0.reading)
        }
        #expect(exit == .success)
        return (tally.newlines.load(ordering: .relaxed), tally.writes.load(ordering: .relaxed))
    }

    @Test func liveInputWritesEachReadingAsItComes() async throws {
        let (lines, writes) = try await printed(live: true)
        #expect(lines >= 30, "\(lines) readings in half a second")
        #expect(writes == lines, "one write per reading: \(writes) writes for \(lines) readings")
    }

    @Test func fileInputStillWritesInBlocks() async throws {
        let (lines, writes) = try await printed(live: false)
        #expect(lines >= 30)
        #expect(writes == 1, "half a second of readings fits one 64 KiB block: \(writes) writes")
    }
}
