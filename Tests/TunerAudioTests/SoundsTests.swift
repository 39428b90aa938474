import Testing
import TunerBridge
import TunerMusic
@testable import TunerAudio

/// The tuner's own sounds start and end without a click and stay at their levels.
@Suite struct SoundsTests {
    /// Largest |sample| in `range` of `samples`.
    static func peak(_ samples: [Float], _ range: Range<Int>) -> Float {
        samples[range].map { abs($0) }.max() ?? 0
    }

    @Test(arguments: Sounds.Timbre.allCases)
    func tonesFadeInAndOut(timbre: Sounds.Timbre) {
        let sound = Sounds.tone(Hertz(196), seconds: 1, timbre: timbre, rate: 48000)
        let s = sound.samples
        #expect(s.count == 48000)
        let overall = Self.peak(s, 0..<s.count)
        #expect(overall <= Float(Sounds.toneLevel) + 1e-6 && overall > Float(Sounds.toneLevel) * 0.5)
        // The first and last samples are silent; the first 0.5 ms and the last 1 ms stay far below the peak.
        #expect(abs(s[0]) < 1e-6 && abs(s[s.count - 1]) < 1e-4)
        #expect(Self.peak(s, 0..<24) < overall * 0.1)
        #expect(Self.peak(s, (s.count - 48)..<s.count) < overall * 0.1)
    }

    @Test func chimesAreQuietShortAndDifferent() {
        let good = Sounds.chime(inTune: true, rate: 48000)
        let bad = Sounds.chime(inTune: false, rate: 48000)
        for chime in [good, bad] {
            #expect(chime.seconds <= 0.2)
            #expect(Self.peak(chime.samples, 0..<chime.samples.count) <= Float(Sounds.chimeLevel) + 1e-6)
            #expect(abs(chime.samples[0]) < 1e-6)
            #expect(Self.peak(chime.samples, (chime.samples.count - 48)..<chime.samples.count) < 0.01 * Float(Sounds.chimeLevel))
        }
        #expect(good != bad)
    }
}
