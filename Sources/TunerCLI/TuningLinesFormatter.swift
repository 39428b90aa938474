import TunerBridge
import TunerMusic

/// `--output jsonl` with `--tuning`: each reading's line keeps the six keys of `JSONLinesFormatter`,
/// first and unchanged, and adds the target string:
///
///     {"time":1.23,…,"level_db":-12.5,"string":2,"target":"A2","target_cents":-4.2,"target_in_tune":false}
///
/// `string` is 1-based in string order (the key that locks it on the screen), `target` the string's
/// note as the tuning spells it, `target_cents` the cents from it, unclamped (a string a whole tone
/// low reads -200), `target_in_tune` |target_cents| ≤ tolerance; all four are null without a pitch.
/// When a note settles (held steady ~0.5 s), a line follows that reading's line:
///
///     {"event":"settled","time":2.02,"start":1.52,"string":2,"target":"A2","frequency":109.74,"cents":-4.1,"in_tune":false}
///
/// with `time` when it settled, `start` the start of the steady window, the median frequency and
/// cents (from the target string) over that window, and last `target_frequency`, the target string's
/// frequency (its note in the temperament, with its offset).
struct TuningLinesFormatter {
    let tuning: Tuning
    let system: TargetSystem
    /// A4 of the run, for the targets' frequencies.
    let a4: Hertz
    private let readings: JSONLinesFormatter

    init(tuning: Tuning, system: TargetSystem = .standard, a4: Hertz = Hertz(440)) {
        self.tuning = tuning
        self.system = system
        self.a4 = a4
        self.readings = JSONLinesFormatter(system: system)
    }

    /// The lines for one step of a `TuningTracker`: the reading, then the settled event if any.
    func lines(for step: TuningTracker.Step) -> String {
        var text = readings.fields(of: step.reading)
        if let target = step.target, step.reading.printablePitch != nil, target.rawCents.value.isFinite {
            text += ",\"string\":\(target.stringIndex + 1)"
            text += ",\"target\":\"" + label(target.stringIndex, target.note) + "\""
            text += ",\"target_cents\":" + JSONLinesFormatter.number(target.rawCents.value)
            text += ",\"target_in_tune\":" + (target.isInTune ? "true" : "false")
        } else {
            text += ",\"string\":null,\"target\":null,\"target_cents\":null,\"target_in_tune\":null"
        }
        text += "}\n"
        if let settled = step.settled { text += line(for: settled) }
        return text
    }

    /// The `{"event":"settled",…}` line of a settled note.
    func line(for settled: SettledNote) -> String {
        guard settled.frequency.value.isFinite, settled.cents.value.isFinite else { return "" }
        var text = "{\"event\":\"settled\""
        text += ",\"time\":" + JSONLinesFormatter.number(settled.time)
        text += ",\"start\":" + JSONLinesFormatter.number(settled.start)
        if let index = settled.stringIndex {
            text += ",\"string\":\(index + 1),\"target\":\"" + label(index, settled.note) + "\""
        } else {
            text += ",\"string\":null,\"target\":\"" + system.name(of: settled.note) + "\""
        }
        text += ",\"frequency\":" + JSONLinesFormatter.number(settled.frequency.value)
        text += ",\"cents\":" + JSONLinesFormatter.number(settled.cents.value)
        text += ",\"in_tune\":" + (settled.isInTune ? "true" : "false")
        var target = system.frequency(of: settled.note, a4: a4)
        if let index = settled.stringIndex { target = target.shifted(by: tuning.offset(ofString: index)) }
        text += ",\"target_frequency\":" + JSONLinesFormatter.number(target.value)
        return text + "}\n"
    }

    private func label(_ index: Int, _ note: Note) -> String {
        tuning.labels.indices.contains(index) ? tuning.labels[index] : system.name(of: note)
    }
}
