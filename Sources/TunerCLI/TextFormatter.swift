import Foundation
import TunerBridge
import TunerMusic

/// `--output text`: one aligned line per reading, e.g.
///
///       1.230 s  A2    109.54 Hz   -7.3 ¢  ✗   -12.5 dBFS
///       1.240 s  A2    110.00 Hz   +0.4 ¢  ✓   -12.6 dBFS
///       1.250 s  no pitch                      -71.0 dBFS
///
/// ✓ means within the tolerance.
struct TextFormatter: ReadingFormatter {
    /// How notes are named (temperament, names, transposition).
    var system = TargetSystem.standard

    func line(for reading: Reading) -> String {
        let time = String(format: "%7.3f s", reading.time.isFinite ? reading.time : 0)
        let level = String(format: "%6.1f dBFS", reading.printableLevel)
        guard let pitch = reading.printablePitch else {
            return "\(time)  \("no pitch".padding(toLength: 27, withPad: " ", startingAt: 0))  \(level)\n"
        }
        let note = system.name(of: pitch.note).padding(toLength: 4, withPad: " ", startingAt: 0)
        let frequency = String(format: "%8.2f Hz", pitch.frequency.value)
        let tenths = (pitch.cents.value * 10).rounded() / 10
        let cents = String(format: "%+6.1f ¢", tenths == 0 ? 0 : tenths)  // never "-0.0"
        let mark = reading.isInTune ? "✓" : "✗"
        return "\(time)  \(note)\(frequency) \(cents)  \(mark)  \(level)\n"
    }
}

extension TextFormatter {
    /// `--output text` with `--tuning`: the reading's line, then the target string, its note as the
    /// tuning spells it, the cents from it (unclamped) and ✓/✗, e.g.
    ///
    ///       1.230 s  A2    109.54 Hz   -7.3 ¢  ✗   -12.5 dBFS   string 2 A2      -7.3 ¢  ✗
    ///       1.240 s  A2    109.54 Hz   -7.3 ¢  ✗   -12.5 dBFS   string 1 E2    +492.7 ¢  ✗
    ///
    /// and after the reading at which a note settled, its announcement: "  settled: A2, 7 cents flat".
    func lines(for step: TuningTracker.Step, tuning: Tuning) -> String {
        var text = line(for: step.reading)
        if let target = step.target, step.reading.printablePitch != nil, target.rawCents.value.isFinite {
            text.removeLast()  // the newline
            let label = tuning.labels.indices.contains(target.stringIndex) ? tuning.labels[target.stringIndex]
                : system.name(of: target.note)
            let tenths = (target.rawCents.value * 10).rounded() / 10
            text += "   string \(target.stringIndex + 1) " + label.padding(toLength: 4, withPad: " ", startingAt: 0)
                + String(format: "%+8.1f ¢", tenths == 0 ? 0 : tenths) + "  " + (target.isInTune ? "✓" : "✗") + "\n"
        }
        if let settled = step.settled {
            text += "  settled: " + Announcement.text(for: settled, tuning: tuning, system: system) + "\n"
        }
        return text
    }
}
