import Foundation
import TunerBridge

/// One string of a strum as the musician reads it: its target, the cents from it, in tune or not.
public struct StringReading: Sendable, Equatable {
    /// 0-based string index in the tuning's order (shown as 1…n).
    public var stringIndex: Int
    /// The string's note as the tuning spells it, e.g. "E2", "Eb2".
    public var label: String
    public var frequency: Hertz
    /// Cents from the string's target for A4 (not clamped: a string a semitone off reads ±100).
    public var cents: Cents
    /// |cents| ≤ the tolerance.
    public var isInTune: Bool
    public var level: Decibels
}

/// One hop of a strum: a reading per string of the tuning, in string order; nil for a string not heard.
public struct StrumReading: Sendable, Equatable {
    public var time: Double
    public var strings: [StringReading?]
}

/// Judges each string of a `PolyMeasurement` against its own target (`--poly`): the polyphonic
/// counterpart of `ReadingPipeline.reading(from:)`. The targets are the tuning's strings in the
/// target system (temperament, A4 of the settings); the analyser was made for `targets`.
public struct StrumJudge: Sendable {
    public var tuning: Tuning
    public var settings: ReadingPipeline.Settings
    public var system: TargetSystem

    public init(tuning: Tuning, settings: ReadingPipeline.Settings = .init(), system: TargetSystem = .standard) {
        self.tuning = tuning
        self.settings = settings
        self.system = system
    }

    /// The strings' target fundamentals, for the analyser.
    public var targets: [Hertz] { tuning.strings.map { system.frequency(of: $0, a4: settings.a4) } }

    public func reading(from measurement: PolyMeasurement) -> StrumReading {
        let targets = self.targets
        var strings: [StringReading?] = []
        strings.reserveCapacity(targets.count)
        for (index, target) in targets.enumerated() {
            guard index < measurement.strings.count, let frequency = measurement.strings[index].frequency,
                  frequency.value.isFinite, frequency.value > 0 else {
                strings.append(nil)
                continue
            }
            let cents = 1200 * log2(frequency.value / target.value)
            strings.append(StringReading(stringIndex: index, label: tuning.labels[index], frequency: frequency,
                                         cents: Cents(cents), isInTune: abs(cents) <= settings.tolerance.value,
                                         level: measurement.strings[index].level))
        }
        return StrumReading(time: measurement.time, strings: strings)
    }
}
