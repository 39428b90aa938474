import Foundation
import CTuner
import Testing
import TunerAudio
import TunerBridge
import TunerMusic

/// Odd and hostile input to the C engine (`ct_engine_create` / `ct_engine_process`): every result stays
/// finite and self-consistent, and configurations outside the documented ranges are refused with a reason.
@Suite struct RobustnessTests {
    /// Every field of every result is finite and consistent (the same rules as Fuzz/ResultChecks.hpp).
    static func insane(_ results: [ct_result], sampleRate: Double) -> [String] {
        var problems: [String] = []
        for r in results {
            func fail(_ what: String) { problems.append("t=\(r.time): \(what)") }
            if !r.time.isFinite { fail("time \(r.time)") }
            if !r.level_db.isFinite || r.level_db < -120 || r.level_db > 12.05 { fail("level \(r.level_db) dB") }
            if !r.confidence.isFinite || r.confidence < 0 || r.confidence > 1 { fail("confidence \(r.confidence)") }
            if r.has_pitch == 0 {
                if r.frequency != 0 { fail("a frequency without a pitch") }
            } else if r.has_pitch == 1 {
                if !r.frequency.isFinite || r.frequency <= 0 || r.frequency >= sampleRate / 2 {
                    fail("frequency \(r.frequency) Hz at \(sampleRate) Hz")
                }
            } else {
                fail("has_pitch \(r.has_pitch)")
            }
            if r.onset != 0 && r.onset != 1 { fail("onset \(r.onset)") }
        }
        return problems
    }

    /// Makes an engine for `config` and returns it with nothing collected, or the refusal message.
    static func create(_ config: ct_config) -> (engine: OpaquePointer?, message: String) {
        var config = config
        var message = [CChar](repeating: 0, count: 256)
        let engine = ct_engine_create(&config, nil, nil, &message, message.count)
        return (engine, message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    static func sine(_ f: Double, seconds: Double, rate: Double, amplitude: Double = 0.5) -> [Float] {
        Synth.sine(Hertz(f), seconds: seconds, sampleRate: rate, amplitude: amplitude)
    }

    // ---- Non-finite, huge and tiny samples ------------------------------------------------------

    @Test(arguments: [Float.nan, -Float.nan, .infinity, -.infinity, .signalingNaN])
    func nonFiniteSamplesCountAsSilence(value: Float) {
        let rate = 48000.0
        let bad = [Float](repeating: value, count: 24000)
        let tone = Self.sine(220, seconds: 1, rate: rate)
        let results = EngineHarness.analyse(bad + tone + bad, sampleRate: rate)
        #expect(Self.insane(results, sampleRate: rate) == [])
        #expect(results.count == (bad.count * 2 + tone.count) / 480)
        // The bad stretch before the tone reads as digital silence; the tone after it is found.
        #expect(results.during(0.05...0.5).allSatisfy { $0.has_pitch == 0 && $0.level_db == -120 })
        let during = results.during(1.0...1.5)
        #expect(during.noteNames == ["A3"])
        #expect(abs(median(during.centsErrors(against: 220))) < 0.1)
    }

    @Test func straySamplesOfNaNAndInfDoNotDerailTheReading() {
        // Glitches: one sample in about 2000 is NaN or ±Inf, at random places (a fixed seed).
        let rate = 44100.0
        var signal = Self.sine(110, seconds: 1.5, rate: rate)
        let specials: [Float] = [.nan, .infinity, -.infinity]
        var random = Synth.Random(seed: 11)
        var stray = 0
        for i in signal.indices where random.next() % 2000 == 0 {
            signal[i] = specials[stray % specials.count]
            stray += 1
        }
        #expect(stray > 10)
        let results = EngineHarness.analyse(signal, sampleRate: rate)
        #expect(Self.insane(results, sampleRate: rate) == [])
        let steady = results.during(0.5...1.5)
        let pitched = steady.filter { $0.has_pitch != 0 }
        #expect(pitched.count > steady.count * 3 / 4, "\(pitched.count) of \(steady.count) readings had a pitch")
        #expect(steady.noteNames == ["A2"])
    }

    @Test(arguments: [Float(1e30), .greatestFiniteMagnitude, 65536, 4.5])
    func hugeSamplesAreClampedNotOverflowed(peak: Float) {
        let rate = 48000.0
        let signal = Self.sine(146.83, seconds: 1, rate: rate).map { $0 * 2 * peak }
        let results = EngineHarness.analyse(signal, sampleRate: rate)
        #expect(Self.insane(results, sampleRate: rate) == [])
        // Clamped to ±4: the level tops out at 20·log10(4) ≈ +12 dBFS, and the note is still D3.
        #expect(results.during(0.5...1).allSatisfy { $0.level_db > 6 && $0.level_db <= 12.05 })
        #expect(results.during(0.5...1).noteNames == ["D3"])
    }

    @Test func denormalSamplesReadAsSilence() {
        let rate = 48000.0
        let tiny = (0..<48000).map { i in Float.leastNonzeroMagnitude * Float(i % 7 - 3) }
        let results = EngineHarness.analyse(tiny, sampleRate: rate)
        #expect(Self.insane(results, sampleRate: rate) == [])
        #expect(results.allSatisfy { $0.has_pitch == 0 && $0.level_db == -120 })
    }

    // ---- DC, clipping ---------------------------------------------------------------------------

    @Test func pureDCHasNoPitch() {
        let results = EngineHarness.analyse([Float](repeating: 0.7, count: 48000), sampleRate: 48000)
        #expect(Self.insane(results, sampleRate: 48000) == [])
        #expect(results.allSatisfy { $0.has_pitch == 0 })
        #expect(abs(results.last!.level_db - 20 * log10(0.7)) < 0.01)
    }

    @Test(arguments: [0.1, 0.5, -0.6])
    func dcOffsetDoesNotHideThePitch(offset: Float) {
        // A cheap interface or a drifting preamp adds a constant to every sample.
        let rate = 48000.0
        let signal = Self.sine(220, seconds: 1.2, rate: rate, amplitude: 0.3).map { $0 + offset }
        let results = EngineHarness.analyse(signal, sampleRate: rate).during(0.5...1.2)
        #expect(Self.insane(results, sampleRate: rate) == [])
        #expect(results.noteNames == ["A3"])
        #expect(abs(median(results.centsErrors(against: 220))) < 0.1)
    }

    @Test(arguments: [55.0, 110, 329.63])
    func fullScaleClippedSquareWaveReadsItsFundamental(frequency: Double) {
        let rate = 48000.0
        let square = (0..<Int(rate * 1.2)).map { i -> Float in
            sin(2 * Double.pi * frequency * Double(i) / rate) >= 0 ? 1 : -1
        }
        let results = EngineHarness.analyse(square, sampleRate: rate).during(0.5...1.2)
        #expect(Self.insane(results, sampleRate: rate) == [])
        let expected = Note.nearest(to: Hertz(frequency)).note.description
        #expect(results.noteNames == [expected])
        #expect(abs(median(results.centsErrors(against: frequency))) < 1)
        #expect(results.allSatisfy { abs($0.level_db) < 0.01 })  // a ±1 square is 0 dBFS
    }

    @Test(arguments: [0.01, 0.001])
    func aSignalAtTheNyquistFrequencyIsNotANote(hop: Double) {
        // Alternating samples are the highest frequency a stream can carry (fs/2 = 4 kHz at 8 kHz).
        // No note lives there — the default range reaches up to 4.2 kHz — and no reading may lie at or
        // above fs/2. Found by Fuzz/engine_fuzz: 4000.0000026 Hz from the first 8 samples of an 8 kHz stream.
        let rate = 8000.0
        let alternating = (0..<8000).map { Float($0 % 2 == 0 ? 0.5 : -0.5) }
        let results = EngineHarness.analyse(alternating, sampleRate: rate, block: 8) { $0.hop_seconds = hop }
        #expect(!results.isEmpty)
        #expect(Self.insane(results, sampleRate: rate) == [])
        #expect(results.allSatisfy { $0.has_pitch == 0 })
    }

    // ---- Block sizes -------------------------------------------------------------------------------

    @Test func oneSampleBlocksGiveTheSameResultsAsLargeBlocks() {
        let rate = 22050.0
        let signal = Synth.Pluck(frequency: Hertz(196)).render(seconds: 0.8, sampleRate: rate)
        let single = EngineHarness.analyse(signal, sampleRate: rate, block: 1)
        let large = EngineHarness.analyse(signal, sampleRate: rate, block: 4096)
        #expect(single.count == large.count)
        #expect(single.count == signal.count / 221)
        #expect(Self.insane(single, sampleRate: rate) == [])
        for (a, b) in zip(single, large) {
            #expect(a.time == b.time && a.has_pitch == b.has_pitch && a.frequency == b.frequency
                    && a.onset == b.onset && a.confidence == b.confidence && a.level_db == b.level_db)
        }
        #expect(single.filter { $0.has_pitch != 0 }.count > single.count / 2)
    }

    @Test func zeroLengthAndNullBlocksDoNothing() throws {
        final class Count { var n = 0 }
        let count = Count()
        var config = ct_config()
        ct_config_default(&config, 48000)
        let engine = try #require(ct_engine_create(&config, { _, context in
            Unmanaged<Count>.fromOpaque(context!).takeUnretainedValue().n += 1
        }, Unmanaged.passUnretained(count).toOpaque(), nil, 0))
        defer { ct_engine_destroy(engine) }
        var sample: Float = 0.5
        for _ in 0..<1000 { ct_engine_process(engine, &sample, 0) }
        ct_engine_process(engine, nil, 100_000)
        #expect(count.n == 0)
        // The engine still counts from zero: the first result comes after exactly one hop.
        let hop = ct_engine_hop_size(engine)
        let block = [Float](repeating: 0.1, count: hop)
        block.withUnsafeBufferPointer { ct_engine_process(engine, $0.baseAddress, hop - 1) }
        #expect(count.n == 0)
        ct_engine_process(engine, &sample, 1)
        #expect(count.n == 1)
    }

    // ---- Configuration edges ---------------------------------------------------------------------

    @Test(arguments: [8000.0, 192000])
    func sampleRateEdgesAreAcceptedAndWork(rate: Double) {
        let truth = 261.63
        let results = EngineHarness.analyse(Self.sine(truth, seconds: 1.2, rate: rate), sampleRate: rate,
                                            block: 4096).during(0.6...1.2)
        #expect(Self.insane(results, sampleRate: rate) == [])
        #expect(results.noteNames == ["C4"])
        #expect(abs(median(results.centsErrors(against: truth))) < 0.1)
    }

    @Test(arguments: [7999.0, 192001, 7999.999, 192000.001, 0, -48000, .nan, .infinity, -.infinity])
    func sampleRatesOutsideTheRangeAreRefused(rate: Double) {
        var config = ct_config()
        ct_config_default(&config, rate)
        let (engine, message) = Self.create(config)
        #expect(engine == nil)
        ct_engine_destroy(engine)
        #expect(message == "sample rate must be between 8000 and 192000 Hz")
    }

    @Test(arguments: [400.0, 480])
    func a4EdgesNameTheNote(a4: Double) throws {
        // A sine at exactly A4 reads A4, 0 cents; one a semitone up reads A#4 (named by the bridge).
        let rate = 48000.0
        for (f, name) in [(a4, "A4"), (a4 * exp2(1.0 / 12), "A#4")] {
            let pitches = try EngineHarness.readings(Self.sine(f, seconds: 1, rate: rate), sampleRate: rate, a4: a4)
                .filter { (0.5...1).contains($0.time) }.compactMap(\.pitch)
            #expect(!pitches.isEmpty)
            #expect(Set(pitches.map(\.note.description)) == [name])
            #expect(abs(median(pitches.map(\.rawCents.value))) < 0.1)
        }
    }
}
