import Dispatch
import Synchronization
import Testing
import TunerAudio
import TunerBridge
import TunerMusic
@testable import TunerCLI
#if canImport(Glibc)
import Glibc
#endif

/// Live input is printed as it comes: a capture block's readings (which arrive together) in one
/// `write(2)`, before the next block is read, so whoever reads the pipe (a script, the PulseAudio
/// tests' latency measurement) sees each reading as soon as its block is analysed. A file's readings
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

    /// One block of A2, then a source that waits (up to `antiHangSeconds`) until the
    /// block's readings have been written before it ends: live output must not hold them back for
    /// more to come, and must write them together rather than one `write` per reading.
    final class Gate: Sendable {
        let written = DispatchSemaphore(value: 0)
        /// Whether the first block's readings were written before the source was read again.
        let writtenBeforeNextRead = Atomic<Bool>(false)
    }

    /// How long the gated source waits for the write: only a guard against a hang (output held back until
    /// the input ends would wait forever). Not a speed bound: under the full suite the consumer task
    /// waits for a thread of the cooperative pool, tens of seconds under load, and in one `make sanitize`
    /// TSan run on 2 cores more than 120 s (the bound before).
    static let antiHangSeconds = 600.0

    final class GatedSource: AudioSource {
        let block: [Float]
        let gate: Gate
        var reads = 0
        let sampleRate = 48_000.0
        let label = "gated"
        init(_ block: [Float], gate: Gate) { self.block = block; self.gate = gate }
        func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
            reads += 1
            guard reads == 1 else {
                if reads == 2 {
                    let success = gate.written.wait(timeout: .now() + LiveOutputTests.antiHangSeconds) == .success
                    gate.writtenBeforeNextRead.store(success, ordering: .relaxed)
                }
                return 0
            }
            let n = min(buffer.count, block.count)
            for i in 0..<n { buffer[i] = block[i] }
            return n
        }
    }

    @Test func liveInputWritesEachBlocksReadingsAtOnceAsTheyCome() async throws {
        final class Tally: Sendable {
            let writes = Atomic<Int>(0)
            let newlines = Atomic<Int>(0)
            let wholeLines = Atomic<Bool>(true)
        }
        let tally = Tally()
        let samples = Synth.sine(Note(midi: 45).frequency(), seconds: 0.3, sampleRate: 48_000)
        let gate = Gate()
        let io = SystemIO(write: { _, bytes, count in
            tally.writes.add(1, ordering: .relaxed)
            let text = UnsafeRawBufferPointer(start: bytes, count: count)
            tally.newlines.add(text.filter { $0 == UInt8(ascii: "\n") }.count, ordering: .relaxed)
            if text.last != UInt8(ascii: "\n") { tally.wholeLines.store(false, ordering: .relaxed) }
            gate.written.signal()
            return (count, 0)
        }, ignoreBrokenPipe: {}, isTerminal: { _ in false })
        let session = try TunerSession(source: GatedSource(samples, gate: gate), delivery: .everyReading, blockSize: samples.count)
        let exit = await TunerCommand.printLines(of: session, through: ReadingPipeline(), live: true, io: io) {
            JSONLinesFormatter().line(for: $0.reading)
        }
        #expect(exit == .success)
        let lines = tally.newlines.load(ordering: .relaxed), writes = tally.writes.load(ordering: .relaxed)
        #expect(lines >= 5, "\(lines) readings in one 0.3 s block")
        let writtenFirst = gate.writtenBeforeNextRead.load(ordering: .relaxed)
        #expect(writtenFirst, "the block's readings were held back until the input ended")
        #expect(writes == 1, "one write for the block's readings: \(writes) writes for \(lines) readings")
        let wholeLines = tally.wholeLines.load(ordering: .relaxed)
        #expect(wholeLines, "a write ended inside a line")
    }

    @Test func fileInputStillWritesInBlocks() async throws {
        let (lines, writes) = try await printed(live: false)
        #expect(lines >= 30)
        #expect(writes == 1, "half a second of readings fits one 64 KiB block: \(writes) writes")
    }
}
