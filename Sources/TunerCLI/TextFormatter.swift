import Foundation
import TunerKit

/// `--output text`: one aligned line per reading, e.g.
///
///       1.230 s  A2    109.54 Hz   -7.3 ¢  ✗   -12.5 dBFS
///       1.240 s  A2    110.00 Hz   +0.4 ¢  ✓   -12.6 dBFS
///       1.250 s  no pitch                      -71.0 dBFS
///
/// ✓ means within the tolerance.
struct TextFormatter: ReadingFormatter {
    func line(for reading: Reading) -> String {
        let time = String(format: "%7.3f s", reading.time.isFinite ? reading.time : 0)
        let level = String(format: "%6.1f dBFS", reading.printableLevel)
        guard let pitch = reading.printablePitch else {
            return "\(time)  \("no pitch".padding(toLength: 27, withPad: " ", startingAt: 0))  \(level)\n"
        }
        let note = pitch.note.description.padding(toLength: 4, withPad: " ", startingAt: 0)
        let frequency = String(format: "%8.2f Hz", pitch.frequency.value)
        let tenths = (pitch.cents.value * 10).rounded() / 10
        let cents = String(format: "%+6.1f ¢", tenths == 0 ? 0 : tenths)  // never "-0.0"
        let mark = reading.isInTune ? "✓" : "✗"
        return "\(time)  \(note)\(frequency) \(cents)  \(mark)  \(level)\n"
    }
}
