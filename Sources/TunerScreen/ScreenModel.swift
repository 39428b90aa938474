import TunerBridge
import TunerMusic

/// Rows × columns of a terminal.
public struct ScreenSize: Equatable, Sendable {
    public var rows: Int
    public var columns: Int
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
    /// The smallest terminal the tuner draws itself in.
    public static let minimum = ScreenSize(rows: 12, columns: 40)
    public var isTooSmall: Bool { rows < Self.minimum.rows || columns < Self.minimum.columns }
}

/// A key the screen acts on.
public enum ScreenKey: Equatable, Sendable {
    case quit, toleranceUp, toleranceDown, referenceDown, referenceUp
    /// 1…9 lock that string of the tuning, 0 returns to automatic choice.
    case digit(Int)
    /// Shows or hides the strobe band.
    case strobe
    /// Switches between one string and every string of a strum (key p; needs a tuning).
    case strums
    /// Plays the target note (the reference tone).
    case tone
    /// Shows or hides the history graph.
    case history
    case other
}

/// A sound the screen asks for: the reference tone of a note (at its frequency for the current A4
/// and temperament), or the chime of a settled note.
public enum ScreenSound: Sendable, Equatable {
    case tone(Note, frequency: Hertz)
    case chime(inTune: Bool)
}

/// What the tuner screen shows, as one value: settings, the reading on display, the input level, the
/// terminal size, and — through a `ReadingPipeline` run once per measurement — the note and cents, the
/// tuning row (target string, lock, checklist) and the strobe. Pure — it knows nothing of drawing; `ScreenRenderer`
/// draws it. The strobe moves by reading time, so no timer is needed.
///
/// It changes what it shows only when that would look different: a new note, cents that differ at
/// 0.1 ¢, the in-tune state, the level-meter bucket, the settings, the size, the tuning row or the
/// strobe band (see `display`).
public struct ScreenModel: Sendable {
    /// Settings a key can change: the pipeline's A4 and tolerance, changed in place.
    public typealias Settings = ReadingPipeline.Settings

    /// The pitch on display: kept when the string falls silent (then no longer `live`).
    /// With a tuning, `note` is the target string's note and the cents are measured from it.
    public struct Shown: Equatable, Sendable {
        public var note: Note
        public var frequency: Hertz
        /// Cents clamped to ±50 (the needle's range), rounded to 0.1.
        public var cents: Cents
        /// True while the latest reading has this pitch; false when it is held over silence.
        public var live: Bool
        /// The cents the numbers show and the in-tune cue judges, rounded to 0.1: the same as
        /// `cents` in chromatic mode; from the target string, unclamped, with a tuning (a string a
        /// whole tone low reads −200.0 ¢).
        public var offset: Cents
        /// The target string (0-based) with a tuning, else nil.
        public var stringIndex: Int?
        /// The nearest note heard (with a tuning it may differ from `note`).
        public var heard: Note
    }

    /// Everything that decides what is drawn. Two models with equal displays look the same.
    public struct Display: Equatable, Sendable {
        var note: Note?
        var centsTenths: Int?
        var live: Bool
        var inTune: Bool
        var levelBucket: Int
        var gateClosed: Bool
        var settings: Settings
        var size: ScreenSize
        var ended: Bool
        var offsetTenths: Int?
        var heard: Note?
        var strings: [StringStatus]
        var strobeBand: String?
        var readsStrums: Bool
        var strumLines: [StrumLine]
        var notice: String?
        var toneNote: Note?
        var historyOn: Bool
        /// The newest reading's time in graph dot columns (the graph scrolls one dot at a time).
        var historyTick: Int?
    }

    /// One string's line in strum mode, as drawn: cents to 0.1 (nil: not heard), in tune, and whether
    /// the string has settled in tune (the checklist's ✓).
    public struct StrumLine: Equatable, Sendable {
        public var label: String
        public var centsTenths: Int?
        public var inTune: Bool
        public var settledInTune: Bool
    }

    /// The tolerances `+`/`-` step through: 0.1, then 0.5 ¢ steps to 5 ¢, then 1 ¢ steps to 50 ¢.
    public static let toleranceSteps: [Double] =
        [Limits.tolerance.lowerBound] + stride(from: 0.5, through: 5, by: 0.5).map { $0 }
            + stride(from: 6.0, through: Limits.tolerance.upperBound, by: 1).map { $0 }
    /// Cells of the level meter; the level is shown in this many buckets from −80 to 0 dBFS.
    public static let levelBuckets = 20
    static let levelFloor = -80.0

    public var sourceLabel: String
    /// The config file the settings were read from, shown on the status line; nil when none was read.
    public var configFile: String?
    public var sampleRate: Double
    /// The noise gate of the engine: quieter input gives no pitch.
    public var gate: Decibels
    public private(set) var size: ScreenSize
    public private(set) var shown: Shown?
    public private(set) var level: Decibels = Decibels(-120)
    /// True once the input has ended (a file played to its end).
    public private(set) var ended = false
    /// Note and cents for A4 and the tolerance, then target string, settled notes, checklist and
    /// strobe, stepped once per measurement.
    public private(set) var pipeline: ReadingPipeline
    /// A4 and the tolerance in force (keys `[ ]` and `+ -`).
    public var settings: Settings { pipeline.settings }
    /// Target string, settled notes, checklist and strobe.
    public var tracker: TuningTracker { pipeline.tracker }
    /// True while the strobe band is shown (key s).
    public private(set) var strobeOn = false
    /// True in strum mode (key p, `--poly`): every string of the tuning read at once.
    public private(set) var readsStrums = false
    /// The latest strum reading, judged against the tuning (strum mode).
    public private(set) var strum: StrumReading?
    /// Which strings of the strum have settled (for the ✓ of strings settled in tune).
    private var settler = StrumSettler(tolerance: Cents(3))

    /// The sound playing now, if any; while one plays (and `InputMute.tail` after) the input is ignored.
    public private(set) var soundPlaying: ScreenSound?
    /// Ignores the input while the tuner's own sound plays.
    public private(set) var mute = InputMute()
    /// The note that settled at the latest reading (nil at most readings).
    public private(set) var settledNow: SettledNote?
    /// The strum that settled at the latest strum reading (nil at most readings; strum mode).
    public private(set) var strumSettledNow: StrumSettler.Settled?
    /// One line shown in place of the key help until the next key (e.g. why a sound could not play).
    public private(set) var notice: String?
    /// True while the history graph is shown (key h).
    public private(set) var historyOn = false
    /// The cents shown over the last `HistoryGraph.span` seconds of readings, oldest first (kept
    /// while the graph is hidden too, so h shows the recent past at once).
    public private(set) var history: [HistoryGraph.Point] = []

    /// `tuning` nil is chromatic mode (the nearest note).
    public init(settings: Settings = Settings(), sourceLabel: String, sampleRate: Double,
                gate: Decibels = TunerConfiguration.defaultGate, size: ScreenSize, tuning: Tuning? = nil,
                system: TargetSystem = .standard, readsStrums: Bool = false) {
        self.pipeline = ReadingPipeline(
            settings: Settings(a4: Hertz(settings.a4.value.clamped(to: Limits.a4)),
                               tolerance: Cents(settings.tolerance.value.clamped(to: Limits.tolerance))),
            system: system, tuning: tuning)
        self.sourceLabel = sourceLabel
        self.sampleRate = sampleRate
        self.gate = gate
        self.size = size
        self.readsStrums = readsStrums && tuning != nil
    }

    // MARK: What is shown

    public var isInTune: Bool {
        guard let shown, shown.live else { return false }
        return shown.offset.magnitude <= settings.tolerance
    }
    /// The tuning, or nil in chromatic mode.
    public var tuning: Tuning? { tracker.tuning }
    /// The tuning row: each string, the active (target) one, locked, done (✓); empty when chromatic.
    public var strings: [StringStatus] { tracker.strings }
    /// True when the player locked a string (keys 1…9).
    public var isLocked: Bool { tracker.selector?.locked != nil }
    /// Cells of the needle's scale (and of the strobe band under it) for the current width.
    public var scaleWidth: Int {
        var width = min(101, size.columns - 8)
        if width % 2 == 0 { width -= 1 }
        return max(1, width)
    }
    /// The strobe band as drawn now, or nil while it is hidden.
    public var strobeBand: String? { strobeOn ? tracker.strobe.render(width: scaleWidth) : nil }
    public var gateClosed: Bool { level < gate }
    public var levelBucket: Int {
        let fraction = (level.value - Self.levelFloor) / -Self.levelFloor
        return Int((fraction * Double(Self.levelBuckets)).rounded(.down)).clamped(to: 0...Self.levelBuckets)
    }
    public var gateBucket: Int {
        Int(((gate.value - Self.levelFloor) / -Self.levelFloor * Double(Self.levelBuckets)).rounded())
            .clamped(to: 0...Self.levelBuckets)
    }

    public var display: Display {
        Display(note: shown?.note, centsTenths: shown.map { Int(($0.cents.value * 10).rounded()) },
                live: shown?.live ?? false, inTune: isInTune, levelBucket: levelBucket, gateClosed: gateClosed,
                settings: settings, size: size, ended: ended,
                offsetTenths: shown.map { Int(($0.offset.value * 10).rounded()) }, heard: shown?.heard,
                strings: strings, strobeBand: readsStrums ? nil : strobeBand, readsStrums: readsStrums,
                strumLines: readsStrums ? strumLines : [], notice: notice, toneNote: toneNote, historyOn: historyOn,
                historyTick: historyOn ? history.last.map { Int(($0.time / historyDot).rounded(.down)) } : nil)
    }

    /// The lines of strum mode: one per string of the tuning.
    public var strumLines: [StrumLine] {
        guard let tuning else { return [] }
        return tuning.labels.indices.map { index in
            let reading = strum.flatMap { index < $0.strings.count ? $0.strings[index] : nil }
            let settledCents = index < settler.settled.count ? settler.settled[index] : nil
            return StrumLine(label: tuning.labels[index],
                             centsTenths: reading.map { Int(($0.cents.value * 10).rounded()) },
                             inTune: reading.map { abs($0.cents.value) <= settings.tolerance.value } ?? false,
                             settledInTune: settledCents.map { abs($0) <= settings.tolerance.value } ?? false)
        }
    }

    // MARK: Updates (each returns true when what is shown changed)

    /// Takes a measurement from the engine.
    @discardableResult
    public mutating func apply(_ measurement: PitchMeasurement) -> Bool {
        let before = display
        level = measurement.level.value.isFinite ? measurement.level : Decibels(-120)
        let step = pipeline.process(measurement, ignored: mute.ignores(at: measurement.time))
        settledNow = step.settled
        record(HistoryGraph.Point(time: step.reading.time, cents: step.rawCents?.value))
        if let pitch = step.reading.pitch {
            let tenths = { (c: Cents) in Cents((c.value * 10).rounded() / 10) }
            let next: Shown
            if let target = step.target {
                next = Shown(note: target.note, frequency: pitch.frequency, cents: tenths(target.cents), live: true,
                             offset: tenths(target.rawCents), stringIndex: target.stringIndex, heard: pitch.note)
            } else {
                let cents = tenths(pitch.cents)
                next = Shown(note: pitch.note, frequency: pitch.frequency, cents: cents, live: true,
                             offset: cents, stringIndex: nil, heard: pitch.note)
            }
            // Keep the frequency of the reading that last changed the picture, so the numbers agree.
            if shown.map({ $0.note != next.note || $0.offset != next.offset || $0.stringIndex != next.stringIndex
                            || $0.heard != next.heard || !$0.live }) ?? true {
                shown = next
            }
        } else if shown?.live == true {
            shown?.live = false
        }
        return display != before
    }

    /// Takes a strum measurement (strum mode): every string judged against the tuning.
    @discardableResult
    public mutating func apply(strum measurement: PolyMeasurement) -> Bool {
        strumSettledNow = nil
        guard let tuning, readsStrums else { return false }
        // The tuner's own sound (a chime, the tone) is not read. The hop is skipped rather than read as
        // silence: the strings still ringing after the chime are the strum already settled, not a new
        // one to chime again.
        guard !mute.ignores(at: measurement.time) else { return false }
        let before = display
        let loudest = measurement.strings.map(\.level.value).filter(\.isFinite).max() ?? -120
        level = Decibels(loudest)
        let reading = StrumJudge(tuning: tuning, settings: settings, system: pipeline.system).reading(from: measurement)
        settler.tolerance = settings.tolerance  // keys + and - change it
        strumSettledNow = settler.settle(reading)
        strum = reading
        return display != before
    }

    /// Seconds per dot column of the graph at this width (about 65 ms on 80 columns).
    var historyDot: Double { HistoryGraph.span / Double(max(2, 2 * (size.columns - ScreenRenderer.graphGutter))) }

    /// Adds a point to the history and forgets what has scrolled out of the graph.
    private mutating func record(_ point: HistoryGraph.Point) {
        if let last = history.last, point.time < last.time { history.removeAll() }  // the input restarted
        history.append(point)
        let cutoff = point.time - HistoryGraph.span - HistoryGraph.joinGap
        if let first = history.first, first.time < cutoff {
            history.removeFirst(history.firstIndex { $0.time >= cutoff } ?? history.count)
        }
    }

    /// The note key t plays: the target string with a tuning (the one shown, else the active one),
    /// else the note shown; nil when there is none yet.
    public var targetNote: Note? {
        shown?.note ?? strings.first(where: \.isActive)?.note
    }

    /// The note of the tone playing now, if one is.
    public var toneNote: Note? {
        if case .tone(let note, _) = soundPlaying { return note }
        return nil
    }

    /// A sound started: the input is ignored from now until it ends (and the mute's tail after).
    @discardableResult
    public mutating func soundStarted(_ sound: ScreenSound) -> Bool {
        let before = display
        soundPlaying = sound
        mute.isOn = true
        return display != before
    }

    /// The sound ended; `failure` (one line) is shown when it could not be played.
    @discardableResult
    public mutating func soundEnded(failure: String?) -> Bool {
        let before = display
        soundPlaying = nil
        mute.isOn = false
        if let failure { notice = failure }
        return display != before
    }

    /// The input has ended; the last reading stays on screen as it was, cue and all.
    @discardableResult
    public mutating func inputEnded() -> Bool {
        let before = display
        ended = true
        return display != before
    }

    @discardableResult
    public mutating func resize(to size: ScreenSize) -> Bool {
        let before = display
        self.size = size
        return display != before
    }

    /// What a key press asks for.
    public enum KeyOutcome: Equatable, Sendable {
        case quit
        /// The settings changed (the pipeline uses them from the next measurement).
        case settingsChanged(Settings)
        /// Only the view changed (a string locked, the strobe shown or hidden).
        case viewChanged
        /// Strum mode was switched on (true) or off: the session's engine must follow.
        case strumsChanged(Bool)
        /// Play this sound (key t).
        case play(ScreenSound)
        case ignored
    }

    public mutating func handle(_ key: ScreenKey) -> KeyOutcome {
        var next = settings
        notice = nil
        switch key {
        case .quit: return .quit
        case .other: return .ignored
        case .digit(let digit):
            guard tuning != nil else { return .ignored }
            let before = display
            pipeline.tracker.press(digit: digit)
            return display != before ? .viewChanged : .ignored
        case .strobe:
            strobeOn.toggle()
            return .viewChanged
        case .strums:
            guard tuning != nil else { return .ignored }
            readsStrums.toggle()
            strum = nil
            settler = StrumSettler(tolerance: Cents(3))
            return .strumsChanged(readsStrums)
        case .history:
            historyOn.toggle()
            return .viewChanged
        case .tone:
            guard soundPlaying == nil else { return .ignored }
            guard let note = targetNote else {
                notice = "t: no note to play yet; play a string first"
                return .viewChanged
            }
            return .play(.tone(note, frequency: pipeline.system.frequency(of: note, a4: settings.a4)))
        case .toleranceUp:
            next.tolerance = Cents(Self.toleranceSteps.first { $0 > settings.tolerance.value + 1e-9 }
                                   ?? Limits.tolerance.upperBound)
        case .toleranceDown:
            next.tolerance = Cents(Self.toleranceSteps.last { $0 < settings.tolerance.value - 1e-9 }
                                   ?? Limits.tolerance.lowerBound)
        case .referenceDown:
            next.a4 = Hertz((settings.a4.value - 1).clamped(to: Limits.a4))
        case .referenceUp:
            next.a4 = Hertz((settings.a4.value + 1).clamped(to: Limits.a4))
        }
        guard next != settings else { return .ignored }
        pipeline.settings = next
        return .settingsChanged(next)
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
