#if canImport(Glibc)
import Glibc
#endif
import Testing
import TunerBridge
@testable import TunerMusic

/// `--stretch piano`: the curve of `PianoStretch` and the table of targets that follows it.
///
/// Figures: the curve's values are checked against the model's formula worked out independently of
/// the code (Python, the formulas of `PianoStretch`'s comment, to 0.01 ¢); its inharmonicity against a
/// measured B (7.5·10⁻⁴ at A4 on a Steinway B, daffy.uah.edu/piano "Inharmonicity") and the published
/// range of a piano's lowest strings (3·10⁻⁴ … 10⁻³); its ends against Railsback's averaged curve as
/// published (Fletcher & Rossing, *The Physics of Musical Instruments*, ch. 12: about 20–30 ¢ at the
/// keyboard's ends) and tuners' C8 figures (+35 ¢ Steinway B, +44 ¢ Steinway D: PTG list, CAUT,
/// February 2007).
@Suite struct StretchTests {
    /// (MIDI note, cents) from the formulas, computed apart from this code.
    static let expected: [(Int, Double)] = [
        (21, -17.33), (24, -13.77), (33, -3.09), (36, -2.67), (45, -1.40), (57, -0.59), (60, -0.44),
        (69, 0), (72, 0.41), (81, 1.64), (84, 2.81), (93, 6.32), (96, 9.64), (105, 19.61), (108, 28.91),
    ]

    @Test(arguments: expected) func curveMatchesTheModelsFormula(midi: Int, cents: Double) {
        #expect(abs(PianoStretch.cents(atMIDI: midi) - cents) < 0.01, "MIDI \(midi): \(PianoStretch.cents(atMIDI: midi))")
    }

    @Test func inharmonicityModelAgreesWithMeasuredFigures() {
        let a4 = PianoStretch.inharmonicity(atMIDI: 69)
        #expect(abs(a4 / 7.5e-4 - 1) < 0.2, "B(A4) = \(a4)")
        let a0 = PianoStretch.inharmonicity(atMIDI: 21)
        #expect(a0 >= 3e-4 && a0 <= 1e-3, "B(A0) = \(a0)")
        // The minimum lies in the low tenor, where the wound strings end.
        let lowest = (21...108).min { PianoStretch.inharmonicity(atMIDI: Double($0)) < PianoStretch.inharmonicity(atMIDI: Double($1)) }!
        #expect((36...52).contains(lowest), "minimum at MIDI \(lowest)")
    }

    @Test func curveHasTheShapeOfRailsbacksAndItsEndsAreInThePublishedRange() {
        let keys = Array(PianoStretch.keys)
        for (a, b) in zip(keys, keys.dropFirst()) {
            #expect(PianoStretch.cents(atMIDI: b) > PianoStretch.cents(atMIDI: a), "not rising from MIDI \(a) to \(b)")
        }
        for midi in 60...72 { #expect(abs(PianoStretch.cents(atMIDI: midi)) < 1, "MIDI \(midi)") }
        #expect((-35.0 ... -10.0).contains(PianoStretch.cents(atMIDI: 21)))
        #expect((20.0...45.0).contains(PianoStretch.cents(atMIDI: 108)))
        // Beyond the keyboard the ends hold.
        #expect(PianoStretch.cents(atMIDI: 12) == PianoStretch.cents(atMIDI: 21))
        #expect(PianoStretch.cents(atMIDI: 127) == PianoStretch.cents(atMIDI: 108))
    }

    @Test func targetsFollowTheStretchAndA4KeepsItsFrequency() {
        let piano = TargetSystem(stretch: .piano)
        let a0 = Note(midi: 21), c8 = Note(midi: 108), a4 = Note(midi: 69)
        #expect(abs(piano.frequency(of: a4, a4: Hertz(442)).value - 442) < 1e-9)
        let stretchedA0 = 27.5 * exp2(-17.33 / 1200)
        #expect(abs(piano.frequency(of: a0).value / stretchedA0 - 1) < 1e-5)
        let nearest = piano.nearest(to: Hertz(stretchedA0))!
        #expect(nearest.note == a0 && abs(nearest.cents.value) < 0.01, "\(nearest)")
        let plain = TargetSystem.standard.nearest(to: Hertz(stretchedA0))!
        #expect(plain.note == a0 && abs(plain.cents.value + 17.33) < 0.01, "\(plain)")
        // C8 + 28.9 ¢ is C8 stretched; equal temperament would still name it C8, 28.9 ¢ sharp.
        let c8Stretched = piano.frequency(of: c8)
        #expect(piano.nearest(to: c8Stretched)!.note == c8 && abs(piano.nearest(to: c8Stretched)!.cents.value) < 1e-6)
        #expect(piano.summary == ["piano stretch"])
        // With a temperament, both add: meantone's E4 plus the stretch at E4.
        let meantone = TargetSystem(temperament: .named("meantone")!, stretch: .piano)
        let e4 = Note(midi: 64)
        let expected = 440 * exp2((386.314 - 889.735 + PianoStretch.cents(atMIDI: 64)) / 1200)
        #expect(abs(meantone.frequency(of: e4).value / expected - 1) < 1e-6)
        // Scales of other than twelve notes are not stretched.
        let edo = TargetSystem(temperament: .edo(19), stretch: .piano)
        #expect(edo.frequency(of: Note(midi: 60 + 19)) == TargetSystem(temperament: .edo(19)).frequency(of: Note(midi: 60 + 19)))
    }
}
