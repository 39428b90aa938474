import AllocationCounter
import CTuner
import Foundation
import Testing
import TunerAudio
import TunerBridge

/// `ct_poly_process` allocates nothing: every buffer and FFT plan of the strum analyser is made by
/// `ct_poly_create`. (Skipped with the reason in a sanitizer build, as AllocationTests.)
@Suite(.enabled(if: alloc_counter_available() != 0,
                "not run: allocations cannot be counted in a sanitizer build (the sanitizer owns malloc)"))
struct PolyAllocationTests {
    private struct Tally { var hops = 0; var heard = 0 }

    @Test(arguments: [64, 480, 4096])
    func polyProcessAllocatesNothing(block: Int) throws {
        let rate = 48000.0
        let targets = [82.41, 110.0, 146.83, 196.0, 246.94, 329.63]
        var strum = [Float](repeating: 0, count: Int(2 * rate))
        for (i, f) in targets.enumerated() {
            let pluck = Synth.Pluck(frequency: Hertz(f), inharmonicity: 1e-4, partials: 16, peak: 0.1)
                .render(seconds: 2, sampleRate: rate)
            for j in (i * 480)..<strum.count { strum[j] += pluck[j - i * 480] }
        }
        let signal = strum + Synth.noise(count: 24000, rms: 0.05) + [Float](repeating: 0, count: 24000)
        var config = ct_config()
        ct_config_default(&config, rate)
        let tally = UnsafeMutablePointer<Tally>.allocate(capacity: 1)
        tally.initialize(to: Tally())
        defer { tally.deallocate() }
        let poly = try #require(targets.withUnsafeBufferPointer { t in
            ct_poly_create(&config, t.baseAddress, t.count, { result, context in
                let tally = context!.assumingMemoryBound(to: Tally.self)
                tally.pointee.hops += 1
                for i in 0..<result!.pointee.count { tally.pointee.heard += Int(result!.pointee.strings[i].heard) }
            }, tally, nil, 0)
        })
        defer { ct_poly_destroy(poly) }
        let allocations = allocations(feeding: signal, inBlocksOf: block) { ct_poly_process(poly, $0, $1) }
        #expect(allocations == 0, "\(allocations) allocations while processing \(signal.count) samples")
        #expect(tally.pointee.hops == signal.count / 480)
        #expect(tally.pointee.heard > 6 * 100, "the strum was read: \(tally.pointee.heard) string readings")
    }

    /// The inline storage holds exactly as many strings as the C analyser can read.
    @Test func inlineCapacityIsTheAnalysersMaximum() {
        #expect(PolyStrings.capacity == Int(CT_POLY_MAX_STRINGS))
    }

    /// The Swift wrapper's process path (`PolyEngine.process` → the C callback → a `PolyMeasurement`
    /// handed to `onMeasurement`) allocates nothing per hop: the per-string readings are stored inline.
    @Test func swiftPolyWrapperProcessAllocatesNothing() throws {
        let rate = 48000.0
        let targets = [82.41, 110.0, 146.83, 196.0, 246.94, 329.63].map { Hertz($0) }
        var strum = [Float](repeating: 0, count: Int(rate))
        for (i, f) in targets.enumerated() {
            let pluck = Synth.Pluck(frequency: f, inharmonicity: 1e-4, partials: 16, peak: 0.1)
                .render(seconds: 1, sampleRate: rate)
            for j in (i * 480)..<strum.count { strum[j] += pluck[j - i * 480] }
        }
        var hops = 0
        var heard = 0
        var kept = [PolyMeasurement]()
        kept.reserveCapacity(4 * strum.count / 480)
        let engine = try PolyEngine(sampleRate: rate, targets: targets) { measurement in
            hops += 1
            for string in measurement.strings where string.frequency != nil { heard += 1 }
            kept.append(measurement)  // as the session's handoff does: a copy into reserved storage
        }
        let perPass = allocationsPerPass(feeding: strum, to: engine.process)
        #expect(perPass[1] == 0, "allocations per pass: \(perPass)")
        #expect(hops == 2 * strum.count / 480)
        #expect(kept.count == hops && kept.allSatisfy { $0.strings.count == 6 })
        #expect(heard > 6 * 50, "the strum was read: \(heard) string readings")
    }
}
