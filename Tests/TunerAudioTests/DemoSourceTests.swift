import Testing
import TunerBridge
import TunerMusic
@testable import TunerAudio
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DemoSourceTests {
    @Test func detuneStartsThirtyCentsFlatAndSettlesWithinHalfACent() {
        #expect(DemoSource.detune(ofPluck: 0) == Cents(-30))
        let round = (0..<DemoSource.plucksPerRound).map { DemoSource.detune(ofPluck: $0).value }
        #expect(zip(round, round.dropFirst()).allSatisfy { abs($1) < abs($0) }, "each pluck is closer")
        #expect(abs(round.last!) <= 0.5)
        #expect(round.filter { abs($0) <= 0.5 }.count >= 2, "it rests in tune for a while")
        // Then it goes out again (endless), sharp this time.
        #expect(DemoSource.detune(ofPluck: DemoSource.plucksPerRound).value > 10)
    }

    @Test func unpacedDemoIsAnEndlessDecayingPluck() throws {
        let demo = DemoSource(sampleRate: 48000, paced: false)
        #expect(demo.label == "built-in demo (plucked A2), 48000 Hz")
        var buffer = [Float](repeating: 0, count: 4800)
        var blockPeaks: [Float] = []
        for _ in 0..<40 {  // 4 s = two plucks
            let n = try buffer.withUnsafeMutableBufferPointer { try demo.read(into: $0) }
            #expect(n == 4800)
            #expect(buffer.allSatisfy { $0.isFinite && abs($0) <= 1 })
            blockPeaks.append(buffer.map(abs).max()!)
        }
        #expect(blockPeaks[1] > 0.2, "loud just after the pluck")
        #expect(blockPeaks[19] < blockPeaks[1] / 2, "decays through the pluck")
        #expect(blockPeaks[20] > blockPeaks[19] * 2, "plucked again after 2 s")
    }

    @Test func pacedDemoDeliversNoFasterThanRealTime() throws {
        let demo = DemoSource(sampleRate: 48000)
        var buffer = [Float](repeating: 0, count: 1024)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var frames = 0
        while frames < 9600 {  // 0.2 s
            let n = try buffer.withUnsafeMutableBufferPointer { try demo.read(into: $0) }
            #expect(n <= 480, "10 ms blocks")
            frames += n
        }
        clock_gettime(CLOCK_MONOTONIC, &end)
        let elapsed = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        #expect(elapsed >= 0.19, "0.2 s of audio took \(elapsed) s")
    }

    @Test func demoReadsAsA2ThirtyCentsFlatOnItsFirstPluck() async throws {
        let session = try TunerSession(source: DemoSource(paced: false), delivery: .everyReading)
        let pipeline = ReadingPipeline()
        var cents: [Double] = []
        for await m in session.measurements {
            let r = pipeline.reading(from: m)
            if r.time > 1.9 { break }
            if let p = r.pitch, r.time > 0.15 {  // after the attack
                #expect(p.note == DemoSource.note)
                cents.append(p.rawCents.value)
            }
        }
        session.stop()
        cents.sort()
        #expect(cents.count > 50)
        let median = cents.isEmpty ? .nan : cents[cents.count / 2]
        #expect(abs(median + 30) <= 0.5, "median \(median) ¢")
    }
}

@Suite struct PacedSourceTests {
    /// Counts up from 0, `total` samples, unpaced.
    final class Ramp: AudioSource {
        var next = 0
        let total: Int
        init(total: Int) { self.total = total }
        let sampleRate = 8000.0
        let label = "ramp"
        func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
            let n = min(buffer.count, total - next)
            for i in 0..<n { buffer[i] = Float(next + i) }
            next += n
            return n
        }
    }

    @Test func passesEverySampleThroughInTenMillisecondBlocksAtRealTime() throws {
        let paced = PacedSource(Ramp(total: 1000))
        #expect(paced.label == "ramp" && paced.sampleRate == 8000)
        var buffer = [Float](repeating: -1, count: 512)
        var got: [Float] = []
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try paced.read(into: $0) }
            if n == 0 { break }
            #expect(n <= 80)
            got += buffer[0..<n]
        }
        clock_gettime(CLOCK_MONOTONIC, &end)
        #expect(got == (0..<1000).map(Float.init))
        let elapsed = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        #expect(elapsed >= 0.12, "1000 samples at 8 kHz took \(elapsed) s")
    }
}
