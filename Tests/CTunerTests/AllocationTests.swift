import AllocationCounter
import CTuner
import Foundation
import Testing
import TunerAudio
import TunerBridge
import TunerMusic

/// The real-time path allocates nothing per block: every buffer and FFT plan is made at creation.
///
/// In a sanitizer build (`make sanitize`) AddressSanitizer/ThreadSanitizer own malloc, the counter is
/// compiled out (Tests/AllocationCounter), and this suite is reported as skipped with the reason.
@Suite(.enabled(if: alloc_counter_available() != 0,
                "not run: allocations cannot be counted in a sanitizer build (the sanitizer owns malloc)"))
struct AllocationTests {
    private struct Tally { var results = 0; var pitched = 0 }

    @Test func theCounterSeesAnAllocation() {
        alloc_counter_start()
        let p = malloc(64)
        free(p)
        #expect(alloc_counter_stop() == 2)
    }

    @Test(arguments: [64, 441, 1024, 8192])
    func engineProcessAllocatesNothing(block: Int) throws {
        let rate = 48000.0
        let pluck = Synth.Pluck(frequency: Hertz(41.2), inharmonicity: 1e-4).render(seconds: 3, sampleRate: rate)
        let noise = Synth.noise(count: 48000, rms: 0.1)
        var config = ct_config()
        ct_config_default(&config, rate)
        let tally = UnsafeMutablePointer<Tally>.allocate(capacity: 1)
        tally.initialize(to: Tally())
        defer { tally.deallocate() }
        let engine = try #require(ct_engine_create(&config, { result, context in
            let t = context!.assumingMemoryBound(to: Tally.self)
            t.pointee.results += 1
            if result.has_pitch != 0 { t.pointee.pitched += 1 }
        }, tally, nil, 0))
        defer { ct_engine_destroy(engine) }
        let signal = pluck + noise + [Float](repeating: 0, count: 24000) + pluck
        let allocations = allocations(feeding: signal, inBlocksOf: block) { ct_engine_process(engine, $0, $1) }
        #expect(allocations == 0, "\(allocations) allocations while processing \(signal.count) samples")
        #expect(tally.pointee.results == signal.count / 480)
        #expect(tally.pointee.pitched > tally.pointee.results / 2)
    }

    @Test func swiftWrapperProcessAllocatesNothing() throws {
        let rate = 44100.0
        let samples = Synth.Pluck(frequency: Hertz(110)).render(seconds: 2, sampleRate: rate)
        var count = 0
        var inTune = 0
        let pipeline = ReadingPipeline()
        let engine = try PitchEngine(sampleRate: rate) { measurement in
            count += 1
            if pipeline.reading(from: measurement).isInTune { inTune += 1 }
        }
        let perPass = allocationsPerPass(feeding: samples, to: engine.process)
        #expect(perPass[1] == 0, "allocations per pass: \(perPass)")
        #expect(count == 400)
        #expect(inTune > 300)
    }
}

/// Feeds `samples` to `process` in 512-sample blocks, twice, and returns the allocations counted in each
/// pass. The first pass warms up what the Swift runtime makes once (type metadata caches); a real-time
/// path must allocate nothing in the second.
func allocationsPerPass(feeding samples: [Float], to process: (UnsafeBufferPointer<Float>) -> Void) -> [UInt] {
    (0..<2).map { _ in
        allocations(feeding: samples, inBlocksOf: 512) { process(UnsafeBufferPointer(start: $0, count: $1)) }
    }
}

/// Feeds `samples` to `process` (a block's first sample and its length) in blocks of `block` samples,
/// the last one shorter, and returns the allocations counted meanwhile.
func allocations(feeding samples: [Float], inBlocksOf block: Int,
                 to process: (UnsafePointer<Float>, Int) -> Void) -> UInt {
    samples.withUnsafeBufferPointer { buffer in
        alloc_counter_start()
        var start = 0
        while start < buffer.count {
            let n = min(block, buffer.count - start)
            process(buffer.baseAddress! + start, n)
            start += n
        }
        return alloc_counter_stop()
    }
}
