import TunerBridge
import TunerMusic

/// Turns a reading into the text printed for it (one line, ending in a newline).
protocol ReadingFormatter: Sendable {
    func line(for reading: Reading) -> String
}

extension Reading {
    /// The pitch if every number in it is finite (anything else is printed as "no pitch").
    var printablePitch: Pitch? {
        guard let pitch, pitch.frequency.value.isFinite, pitch.frequency.value > 0, pitch.cents.value.isFinite
        else { return nil }
        return pitch
    }

    /// The level, with anything not finite shown as the −120 dBFS floor of digital silence.
    var printableLevel: Double { level.value.isFinite ? max(level.value, -120) : -120 }
}
