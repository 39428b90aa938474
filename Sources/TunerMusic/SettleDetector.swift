import TunerBridge
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the per-hop readings into settled-note events: one event per note the player makes (a
/// pluck, a bow stroke, a held tone), the way a player hears it, whatever its pitch does while it
/// sounds.
///
/// **Notes.** A note starts at the start of the input and at each onset: a reading whose `onset` is
/// set, i.e. where the engine heard an attack (a pluck breaking the periodicity of the string that
/// rings, also at the same level, or the level jumping up as a pluck, a re-attack or a bow stroke
/// after a rest does; `CTuner/src/OnsetGuard.hpp` and `LevelRise.hpp`). Onsets are found once, there. Within one note there is at most one event,
/// however its pitch sinks while it decays, wavers under a bow or a vibrato, drops out at the gate
/// or slips to a partial as the fundamental fades: a reading at the 2nd, 3rd or 4th partial of the
/// pitch the note started on (or at the note an octave or two below it) is folded back onto it, so
/// the octave comes from the note's start, not its tail. Only a real
/// change of pitch gives a second event in the same note: the median of the last `window` moving
/// `rearmDistance` or more from the settled value (a peg turned while the string rings, a slur to
/// another note), or, with a tuning, the readings going to another string (a string locked with
/// keys 1…9). The next event then needs the new pitch to settle again.
///
/// **Settling.** A note settles at the first reading where, over the last `window` seconds (a
/// plucked or steady note) or, failing that, the last `waverWindow` seconds (a bowed or sung note
/// with a waver or vibrato, whose centre takes longer to find):
/// - it has been sounding that long, and at least `coverage` of the readings are pitched;
/// - 90 % of them lie within ±`spread` (resp. ±`waverSpread`) of their median; and
/// - the medians of the window's two halves differ by at most `drift` (resp. `waverDrift`), so a
///   pluck still sinking from its sharp attack, or a peg still turning, is not steady yet; for the
///   waver window the median of its last `window` seconds must also be within `waverDrift` of the
///   whole window's, so a pitch that went up and came back down (a peg turned past and back) is
///   not taken for a centre.
///
/// A short note that ends (no pitch for `releaseGap`, or a new onset) without having settled, after
/// at least `window` seconds of pitch, settles then on its readings — from its first pitch to its last
/// reading within `releaseRange` of its loudest — if 90 % of them lie within ±`waverSpread` of their
/// median and its halves differ by at most `releaseDrift`: a quick pizzicato is announced once it has
/// died away.
///
/// The event's value is the median over that window: the pitch of the steady part, or the centre
/// of the waver, which is what the player should act on.
///
/// An echo is not announced: a note started by an onset that came within `echoGap` of the onset before
/// it (a repeat of an echo pedal, or the next repeat of one), whose loudest reading stays `echoDrop` or
/// more under the loudest of the note last announced, and which settles on the same note within
/// `rearmDistance` of that announcement, settles silently — it says nothing the player has not just
/// heard. A re-pluck as strong as the note before is announced however soon it comes.
///
/// Synchronous and deterministic: feed it readings in order (`SettledNotes` does this for a stream).
public struct SettleDetector: Sendable {
    /// How long a plucked or steady note must be steady: 0.4 s, so that a note with 0.4 s of steady
    /// sound settles (issue 19; the 0.5 s steel guitar and violin renders of
    /// `Benchmarks/settle_report.py` do, and the 1 s electric guitar E4 of the public recordings).
    /// Shorter would announce a pluck before its steady part; longer misses short notes.
    public var window: Double
    /// How far 90 % of a steady window's readings may lie from its median: ±6 ¢. The public half of
    /// the real recordings: a bowed contrabass A2 wanders ±4 ¢ (no event with the old ±2 ¢); a
    /// cello C5 with vibrato spreads ±8…23 ¢ and so needs the waver window, whose longer median finds
    /// its centre.
    public var spread: Cents
    /// How far the medians of a steady window's halves may differ: 3 ¢. Guards against settling on
    /// a pluck still sinking from its sharp attack (a pizzicato cello C2 sinks 20 ¢ in its first
    /// 0.5 s, public recordings) while letting a bowed contrabass (halves within ±2.4 ¢) settle.
    public var drift: Cents
    /// The longer window for a note with a waver or vibrato: 1 s, about four cycles of a 4 Hz
    /// vibrato, so the median is the centre, not a peak.
    public var waverWindow: Double
    /// How far 90 % of a waver window's readings may lie from its median: ±30 ¢, a wide vibrato;
    /// beyond that the readings are not one pitch (a glide, a change of note). The cello C5 with
    /// vibrato of the public recordings: at most ±15.6 ¢ over any 1 s; a FluidR3 pizzicato G3 as it
    /// dies (judged on release, below): ±22.7 ¢.
    public var waverSpread: Cents
    /// How far the medians of the waver window's halves may differ: 6 ¢. The cello C5 with
    /// vibrato (public recordings): its 1 s centre moves ±5 ¢, halves differ up to 10 ¢.
    public var waverDrift: Cents
    /// The share of a window's readings that must have a pitch: 0.5, so brief gate dropouts and
    /// lost readings do not stop a note from settling, while a pitch heard now and then does not.
    public var coverage: Double
    /// How far the pitch must move from the settled value, within one note, to count as a new
    /// pitch: 20 ¢. Guards against a note being announced again while it sinks or wavers: within one
    /// bow stroke a cello C3 of the public real recordings moves 8 ¢ and holds there (announced
    /// twice by the old 5 ¢), a cello C5's vibrato centre over 0.4 s swings ±10 ¢; the peg turns of
    /// the renders (30–40 ¢) are found. A smaller turn needs a new pluck (an onset) to be announced.
    public var rearmDistance: Cents
    /// How long a note must have had no pitch to count as ended, for a short note to settle on its
    /// release: 0.2 s. The longest dropout inside a note of the public real recordings is 0.12 s (a
    /// bowed cello C2); a shorter gap would settle a note on its first part at such a dropout.
    public var releaseGap: Double
    /// How far the halves of a short note may differ to settle on its release: 12 ¢. A FluidR3
    /// pizzicato G3 (0.7 s of pitch, never steady) differs 10.2 ¢; a slide of 25 ¢ or more across
    /// the note does not settle (its halves differ by half of it).
    public var releaseDrift: Cents
    /// How far under its loudest reading a short note's readings still count when it is judged on its
    /// release: 26 dB. Guards against a note's faint tail deciding it: since the engine reads down to
    /// 26.5 Hz, the FluidR3 pizzicato G3 of `Benchmarks/settle_report.py` is read 26–38 dB under its
    /// loudest until 0.73 s, where its ensemble's ±35 ¢ wobble is no longer averaged, and its halves
    /// differed by 17 ¢ (never announced). Measured on that render: within 24–30 dB its halves differ
    /// by 2–5 ¢; at 22 dB only 0.30 s is left (under `window`, so no event); from 32 dB on, 16–17 ¢.
    public var releaseRange: Decibels
    /// How soon after the onset before it an onset may be an echo's repeat: 0.75 s. Echo pedals repeat
    /// every 0.05–0.7 s; the `echoes` set of `Benchmarks/settle_report.py` every 0.25–0.6 s, and the
    /// public tape-echo recording 0.5 s after its pluck. Longer would take for an echo a softer re-pluck
    /// of a string whose last onset was that long ago; the re-plucks of the renders' sequences come 2 s
    /// apart (and as strong as the note before: see `echoDrop`).
    public var echoGap: Double
    /// How much quieter than the note last announced an echo's repeat stays: 3 dB. A repeat is its
    /// source times the pedal's feedback (under 1: the `echoes` set 0.35–0.6, −4.4…−9 dB) plus what is
    /// left of the note; the public tape-echo recording's repeat peaks 4.3 dB under its pluck. A
    /// re-pluck as strong as the one before peaks within about 1 dB of it (the renders' sequences and
    /// the `echoes` set's pairs); smaller would take such re-plucks for echoes.
    public var echoDrop: Decibels
    /// What a reading is measured from: the target string with a tuning, else the nearest note.
    private struct Key: Equatable {
        var note: Note
        var stringIndex: Int?
        /// The reading's cents from it minus its absolute pitch: the same for every reading of one
        /// key (it carries A4, the temperament and the string's offset).
        var offset: Double

        static func == (a: Key, b: Key) -> Bool { a.note == b.note && a.stringIndex == b.stringIndex }
    }

    private struct Sample {
        var time: Double
        /// Absolute pitch in cents (1200·log2(f / 440 Hz) + 6900), folded into the note's octave; nil
        /// without a pitch.
        var pitch: Double?
        /// How many cents the reading was folded by (0: the note's own pitch, not a partial).
        var fold: Double
        var frequency: Double
        var key: Key?
        /// The reading's input level (dBFS).
        var level: Double
    }

    /// The readings of the current note within the last `waverWindow`, oldest first (times never
    /// decrease, so every window below is a contiguous suffix of it and needs no copy). Old readings
    /// are dropped from the front in place: the storage, about `waverWindow` of readings, is kept.
    private var recent: [Sample] = []
    /// Scratch for medians and deviations, reused for every reading so that judging a window makes no
    /// new array (its capacity grows to a window's readings once).
    private var scratch: [Double] = []
    /// The pitch the note's octave is taken from (absolute cents): its first reading, then its settled value.
    private var reference: Double?
    /// When the current note first had a pitch.
    private var pitchedSince: Double?
    /// The target string of the note's latest reading in its own octave.
    private var noteKey: Key?
    /// The last event of this note (its value in absolute cents and its key), until re-armed.
    private var lastEvent: (value: Double, key: Key?)?
    /// When the note last had a pitch, and whether its release has been looked at since.
    private var lastPitched: Double?
    private var releaseTried = false
    /// The loudest reading of the current note (dBFS).
    private var loudest = -Double.infinity
    /// The last onset, and whether the current note started at one within `echoGap` of the one before.
    private var lastOnset: Double?
    private var startedAsRepeat = false
    /// The note last announced: its latest event (absolute cents, key) and its loudest reading; kept while
    /// onsets follow each other within `echoGap` (the echoes of it), forgotten at the first that does not.
    private var announced: (value: Double, key: Key?, loudest: Double)?

    /// The intervals (cents) from a note to the partials the engine may slip to as its fundamental
    /// fades, and back: 2nd, 3rd and 4th partial, and the note 1, 2 octaves or a twelfth below. A
    /// reading within `rearmDistance` of one is folded back (no peg or slide moves a ringing note by
    /// an octave); one further off is a new pitch either way.
    static let partialIntervals: [Double] = [1200, 1901.955, 2400, -1200, -1901.955, -2400]

    public init(window: Double = 0.4, spread: Cents = Cents(6), drift: Cents = Cents(3),
                waverWindow: Double = 1.0, waverSpread: Cents = Cents(30), waverDrift: Cents = Cents(6),
                coverage: Double = 0.5, rearmDistance: Cents = Cents(20), releaseGap: Double = 0.2,
                releaseDrift: Cents = Cents(12), releaseRange: Decibels = Decibels(26),
                echoGap: Double = 0.75, echoDrop: Decibels = Decibels(3)) {
        self.window = window
        self.spread = spread
        self.drift = drift
        self.waverWindow = waverWindow
        self.waverSpread = waverSpread
        self.waverDrift = waverDrift
        self.coverage = coverage
        self.rearmDistance = rearmDistance
        self.releaseGap = releaseGap
        self.releaseDrift = releaseDrift
        self.releaseRange = releaseRange
        self.echoGap = echoGap
        self.echoDrop = echoDrop
    }

    /// Takes the next reading (with its target string when a tuning is set) and returns the event
    /// when a note settles at this reading, else nil. An `ignored` reading (the tuner is speaking)
    /// counts as having no pitch and its onset is not looked at, so the tuner's own voice neither
    /// settles nor starts a note.
    public mutating func process(_ reading: Reading, target: TargetReading? = nil, ignored: Bool = false) -> SettledNote? {
        let time = reading.time
        var released: SettledNote?
        if !ignored, reading.onset {
            released = release(at: time, tolerance: reading.tolerance)
            startNote()
            startedAsRepeat = lastOnset.map { time - $0 <= echoGap + 1e-9 } ?? false
            if !startedAsRepeat { announced = nil }
            lastOnset = time
        }
        if !ignored { loudest = max(loudest, reading.level.value) }
        var sample = Sample(time: time, pitch: nil, fold: 0, frequency: 0, key: nil, level: reading.level.value)
        if !ignored, let pitch = reading.pitch {
            var value = 1200 * log2(pitch.frequency.value / 440) + 6900
            let reference = self.reference ?? value
            self.reference = reference
            let fold = Self.partialIntervals.first { abs(value - reference - $0) < rearmDistance.value } ?? 0
            value -= fold
            sample.pitch = value
            sample.fold = fold
            sample.frequency = pitch.frequency.value * exp2(-fold / 1200)
            sample.key = target.map { Key(note: $0.note, stringIndex: $0.stringIndex, offset: $0.rawCents.value - value) }
                ?? Key(note: pitch.note, stringIndex: nil, offset: pitch.rawCents.value - value)
            if fold == 0 { noteKey = sample.key }
            if pitchedSince == nil { pitchedSince = time }
            lastPitched = time
            releaseTried = false
        }
        recent.append(sample)
        let expired = recent.firstIndex { $0.time >= time - waverWindow - 1e-9 } ?? recent.endIndex
        if expired > 0 { recent.removeFirst(expired) }
        if let released { return released }

        if let last = lastEvent {
            guard changed(from: last, at: time) else { return nil }
            lastEvent = nil
        }
        guard let since = pitchedSince else { return nil }
        if let last = lastPitched, time - last >= releaseGap - 1e-9 {
            return release(at: time, tolerance: reading.tolerance)
        }
        for waver in 0..<2 {  // the steady window first, then the waver window
            let (length, spread, drift) = waver == 1 ? (waverWindow, waverSpread, waverDrift) : (window, spread, drift)
            guard time - since >= length - 1e-9 else { continue }
            let inWindow = Self.since(time - length - 1e-9, in: recent)
            guard let median = Self.steadyMedian(inWindow, at: time, length: length, coverage: coverage,
                                                 spread: spread.value, drift: drift.value,
                                                 latest: length > window ? window : nil,
                                                 scratch: &scratch) else { continue }
            return event(median, over: inWindow, at: time, tolerance: reading.tolerance)
        }
        return nil
    }

    /// The readings of `samples` (oldest first) at or after `start`: a suffix, not a copy.
    private static func since(_ start: Double, in samples: ArraySlice<Sample>) -> ArraySlice<Sample> {
        samples[(samples.firstIndex { $0.time >= start } ?? samples.endIndex)...]
    }

    private static func since(_ start: Double, in samples: [Sample]) -> ArraySlice<Sample> {
        since(start, in: samples[...])
    }

    /// The event of a note that settled on `median` over `window`; nil when it is an echo of the note
    /// last announced (see the type's description), which settles silently.
    private mutating func event(_ median: Double, over window: ArraySlice<Sample>, at time: Double,
                                tolerance: Cents) -> SettledNote? {
        let pitched = window.filter { $0.pitch != nil }
        // A note's key is known from its first reading on (never folded), so there is always one.
        let key = Self.mostCommon(pitched.filter { $0.fold == 0 }.compactMap(\.key)) ?? noteKey
            ?? Key(note: Note(midi: Int((median / 100).rounded())), stringIndex: nil, offset: 0)
        lastEvent = (median, key)
        reference = median
        if startedAsRepeat, let source = announced, source.key?.note == key.note,
           abs(median - source.value) < rearmDistance.value, loudest <= source.loudest - echoDrop.value + 1e-9 {
            return nil
        }
        announced = (median, key, loudest)
        return SettledNote(time: time, start: window[window.startIndex].time, note: key.note, stringIndex: key.stringIndex,
                           frequency: Hertz(Self.median(pitched.map(\.frequency))),
                           cents: Cents(median + key.offset), tolerance: tolerance)
    }

    /// A short note that ended without settling: its event, when its readings are one pitch.
    private mutating func release(at time: Double, tolerance: Cents) -> SettledNote? {
        guard lastEvent == nil, !releaseTried, let last = lastPitched else { return nil }
        releaseTried = true
        var peak = -Double.infinity  // the loudest pitched reading of the note
        for sample in recent where sample.pitch != nil && sample.time <= last + 1e-9 { peak = max(peak, sample.level) }
        // The note as it sounded: up to its last pitched reading within releaseRange of its peak.
        guard let end = recent.lastIndex(where: {
            $0.pitch != nil && $0.time <= last + 1e-9 && $0.level >= peak - releaseRange.value - 1e-9
        }) else { return nil }
        let heard = recent[...end]
        let loudEnd = recent[end].time
        guard let first = heard.first(where: { $0.pitch != nil }), loudEnd - first.time >= window - 1e-9 else { return nil }
        let span = Self.since(first.time - 1e-9, in: heard)
        guard let median = Self.steadyMedian(span, at: loudEnd, length: loudEnd - first.time, coverage: coverage,
                                             spread: waverSpread.value, drift: releaseDrift.value,
                                             scratch: &scratch) else { return nil }
        return event(median, over: span, at: time, tolerance: tolerance)
    }

    /// Forgets everything, as at the start of a new input.
    public mutating func reset() {
        startNote()
        lastOnset = nil
        announced = nil
    }

    /// A new note: what was heard before belongs to the last one.
    private mutating func startNote() {
        recent.removeAll(keepingCapacity: true)
        reference = nil
        pitchedSince = nil
        noteKey = nil
        lastEvent = nil
        lastPitched = nil
        releaseTried = false
        loudest = -Double.infinity
        startedAsRepeat = false
    }

    /// True when the note has moved on from its last event: over the last `window`, the median pitch
    /// is `rearmDistance` or more from it, or (with a tuning) the readings in the note's own octave
    /// have gone to another string.
    private mutating func changed(from last: (value: Double, key: Key?), at time: Double) -> Bool {
        let inWindow = Self.since(time - window - 1e-9, in: recent)
        let pitched = Self.pitches(of: inWindow, into: &scratch)
        guard !inWindow.isEmpty, Double(pitched) >= coverage * Double(inWindow.count) else { return false }
        if abs(Self.medianInPlace(&scratch) - last.value) >= rearmDistance.value { return true }
        guard let string = last.key?.stringIndex else { return false }
        var elsewhere = 0
        for sample in inWindow where sample.fold == 0 && sample.key != nil && sample.key?.stringIndex != string {
            elsewhere += 1
        }
        return Double(elsewhere) >= coverage * Double(inWindow.count)
    }

    /// Puts the pitches of `samples` (those that have one), in order, into `values`; returns how many.
    @discardableResult
    private static func pitches(of samples: ArraySlice<Sample>, into values: inout [Double]) -> Int {
        values.removeAll(keepingCapacity: true)
        for sample in samples { if let pitch = sample.pitch { values.append(pitch) } }
        return values.count
    }

    /// The median pitch of a window that is steady (see the type's description), else nil.
    /// (`scratch` holds the values being sorted, so nothing is allocated per call.)
    private static func steadyMedian(_ window: ArraySlice<Sample>, at time: Double, length: Double, coverage: Double,
                                     spread: Double, drift: Double, latest: Double? = nil,
                                     scratch: inout [Double]) -> Double? {
        let pitched = pitches(of: window, into: &scratch)
        guard !window.isEmpty, Double(pitched) >= coverage * Double(window.count) else { return nil }
        let median = medianInPlace(&scratch)
        // `scratch` is sorted now; its distances from the median, sorted, are the deviations.
        for index in scratch.indices { scratch[index] = abs(scratch[index] - median) }
        scratch.sort()
        guard scratch[Int(0.9 * Double(scratch.count - 1))] <= spread + 1e-9 else { return nil }
        let middle = time - length / 2
        let secondHalf = window[(window.firstIndex { $0.time >= middle } ?? window.endIndex)...]
        let firstHalf = window[..<secondHalf.startIndex]
        guard pitches(of: firstHalf, into: &scratch) > 0 else { return nil }
        let firstMedian = medianInPlace(&scratch)
        guard pitches(of: secondHalf, into: &scratch) > 0,
              abs(medianInPlace(&scratch) - firstMedian) <= drift + 1e-9 else { return nil }
        if let latest {
            guard pitches(of: since(time - latest - 1e-9, in: window), into: &scratch) > 0,
                  abs(medianInPlace(&scratch) - median) <= drift + 1e-9 else { return nil }
        }
        return median
    }

    /// The median of `values`, which it sorts in place (no copy).
    static func medianInPlace(_ values: inout [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        values.sort()
        let mid = values.count / 2
        return values.count % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2
    }

    private static func mostCommon(_ keys: [Key]) -> Key? {
        var best: (key: Key, count: Int)?
        for key in keys {
            let count = keys.filter { $0 == key }.count
            if count > (best?.count ?? 0) { best = (key, count) }
        }
        return best?.key
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
