/// Finds the start of a new note (a pluck, a re-attack, a new bow stroke) in the readings' input
/// level: the level rising well above what it was a moment before.
///
/// A reading is an onset when its level is
/// - at least `rise` above the loudest reading between `lookback` and `riseTime` seconds before it
///   (a new pluck over a decayed one), or
/// - at least `jump` above the quietest reading of the last `jumpTime` seconds and at least
///   `overPrevious` above that loudest earlier reading (a string stopped and plucked again while
///   it still rang loud: a short dip, then a level above the one before).
///
/// Comparing with the loudest, not the quietest, earlier reading is what keeps a decaying note's
/// level from counting when it recovers from a dip (stereo phase cancellation, beating partials) or
/// flickers at the gate: it only gets back to where it was. After an onset no other is reported
/// until the level has stopped rising for `riseTime`, so one attack — whose level climbs while the
/// engine's window fills — is one onset.
///
/// The first reading it is given is not an onset (there is nothing to compare with); the caller
/// treats the start of the input as the start of a note.
public struct OnsetDetector: Sendable {
    /// How far (dB) the level must rise above the loudest reading of the lookback.
    ///
    /// 6 dB: on the public half of the real recordings (see `Benchmarks/settle_report.py`) the
    /// largest rise within one note after its attack was 3.5 dB (a pizzicato cello's level coming
    /// back from a dip), bowed notes 1.6 dB; a re-pluck of a string that has rung for 1.5 s (decay
    /// 0.8 s, `SettleBehaviourTests`) rises 9+ dB. Guards against a swell or a dip's recovery being
    /// taken for a new note (repeat announcements) and against re-plucks being missed.
    public var rise: Double
    /// The earliest of the earlier readings compared with (seconds before this one).
    ///
    /// 0.5 s: a dip narrower than `lookback − riseTime` (0.35 s) that comes back up is not an onset
    /// (the recovery is compared with the level before the dip); a longer silence is, so a note
    /// played again after 0.35 s of silence is a new note. The widest dip inside one note of the
    /// public real recordings: 0.3 s (a pizzicato cello C2, −47 dB between −24 and −30).
    public var lookback: Double
    /// The latest of the earlier readings compared with, and how long the level must stop rising
    /// before another onset can be reported: 0.15 s. An attack's level rises for as long as the
    /// engine's window takes to fill (64 ms; 0.29 s at 41 Hz) and a bow's may rise in steps: shorter
    /// would report one slow attack as several notes; longer would merge two plucks 0.2 s apart.
    public var riseTime: Double
    /// How far (dB) the level must jump within `jumpTime` for the second kind of onset: 8 dB. The
    /// public real recordings jump at most 2.4 dB in 0.1 s after their attack (8 dB only while
    /// recovering from a dip, which `overPrevious` rules out); a FluidR3 nylon guitar E2 stopped and
    /// plucked again while ringing jumps 9.8 dB from its dip.
    public var jump: Double
    /// The span of that jump: 0.1 s, as long as the dip of a string stopped and plucked again (the
    /// FluidR3 nylon E2 of `settle_report.py`: 0.1 s from its release to the next pluck); a dip that
    /// ended longer ago is a level the note already came back from.
    public var jumpTime: Double
    /// How far (dB) above the loudest reading of the lookback a jump must end: 2 dB. The public real
    /// recordings, after their attack, get at most 1.8 dB above it (a pizzicato cello C2); the
    /// re-plucked nylon E2 gets 3.8 dB above it.
    public var overPrevious: Double

    private var history: [(time: Double, level: Double)] = []
    /// While an attack is still rising: its loudest level and when.
    private var attack: (peak: Double, at: Double)?

    public init(rise: Double = 6, lookback: Double = 0.5, riseTime: Double = 0.15, jump: Double = 8,
                jumpTime: Double = 0.1, overPrevious: Double = 2) {
        self.rise = rise
        self.lookback = lookback
        self.riseTime = riseTime
        self.jump = jump
        self.jumpTime = jumpTime
        self.overPrevious = overPrevious
    }

    /// Takes the level of the next reading; true when a new note starts at it.
    public mutating func process(time: Double, level: Double) -> Bool {
        history.append((time, level))
        while let first = history.first, first.time < time - lookback - 1e-9 { history.removeFirst() }
        if let current = attack {
            if level > current.peak { attack = (level, time) }
            else if time - current.at >= riseTime - 1e-9 { attack = nil }
            if attack != nil { return false }
        }
        var loudest = -Double.infinity, quietest = Double.infinity
        for entry in history {
            if entry.time <= time - riseTime + 1e-9 { loudest = max(loudest, entry.level) }
            if entry.time >= time - jumpTime - 1e-9, entry.time < time { quietest = min(quietest, entry.level) }
        }
        guard loudest > -Double.infinity else { return false }
        let risen = level >= loudest + rise
        let jumped = level >= quietest + jump && level >= loudest + overPrevious
        guard risen || jumped else { return false }
        attack = (level, time)
        return true
    }

    /// Forgets the levels seen, as at the start of a new input.
    public mutating func reset() {
        history.removeAll(keepingCapacity: true)
        attack = nil
    }
}
