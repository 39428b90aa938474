#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TunerBridge
import TunerMusic

/// The modes built on settled-note events (`SettledNotes`): `--announce`, `--speak` and `--expect`.
enum SettledOutput {
    /// `--announce` / `--speak` / `--chime`: for each settled note, prints its line (when `printing`),
    /// sounds its chime (when there is a `chime`: it plays the in-tune or out-of-tune chime and returns
    /// nil, or why it could not) and says it (when there is a `speaker`), in order, until the readings
    /// end. With `ignoreWhileSpeaking` (live input) the analysis ignores the input from the start of
    /// each chime or announcement until `SettledNotes`' tail after it, so the tuner does not tune its
    /// own voice or chime.
    ///
    /// Returns `.success`, `.failure` when the output cannot be written, or `.unavailable` when
    /// espeak-ng fails (the message is printed).
    static func announce(_ notes: SettledNotes, tuning: Tuning?, system: TargetSystem = .standard, printing: Bool,
                         speaker: Speaker?, chime: (@Sendable (_ inTune: Bool) async -> String?)? = nil,
                         ignoreWhileSpeaking: Bool, stop: @Sendable () -> Void, io: SystemIO) async -> ExitCode {
        let output = BufferedOutput(descriptor: SystemIO.standardOutput, io: io, capacity: 0)
        var result = ExitCode.success
        for await note in notes {
            if printing {
                // One write per line, so a screen reader or a pipe gets each note as it settles.
                if output.isOpen && !output.write(Announcement.text(for: note, tuning: tuning, system: system) + "\n") {
                    if speaker == nil && chime == nil { stop() }
                }
            }
            guard speaker != nil || chime != nil, result == .success else { continue }
            if ignoreWhileSpeaking { notes.setIgnoringInput(true) }
            if let chime, let failure = await chime(note.isInTune) {
                io.printError("Error: \(failure)\n")
                result = .unavailable
                stop()
            }
            if let speaker, result == .success {
                do {
                    try await speaker.say(Announcement.spoken(for: note, tuning: tuning, system: system))
                } catch {
                    io.printError("Error: \(error)\n")
                    result = .unavailable
                    stop()
                }
            }
            if ignoreWhileSpeaking { notes.setIgnoringInput(false) }
        }
        if result == .success, let code = output.failure {
            io.printError("Error: cannot write the notes: \(String(cString: strerror(code)))\n")
            return .failure
        }
        return result
    }

    /// `--poly --announce` / `--speak` / `--chime`: a line per settled strum (`StrumSettler`), printed
    /// (when `printing`) and sounded (when there is a `sound`: it plays the in-tune chime when every heard
    /// string is in tune, else the out-of-tune one, and/or says the line, and returns nil or why it could
    /// not). The sound plays on a task of its own while the readings go on being taken; with
    /// `ignoreWhileSounding` (live input) the hops from its start until `InputMute`'s tail after its end
    /// are skipped, so the tuner neither reads its own chime or voice nor takes the strings still ringing
    /// for a new strum. A strum settling while a sound plays is printed and not sounded, but with
    /// `waitForSound` (a file's speech, seconds long, while its analysis runs far ahead): it waits for the
    /// sound, so none goes unsaid, and the file's analysis waits with it. With `finishAtEnd` (a file) a
    /// strum not said when the readings end is said then (`StrumSettler.finish`).
    ///
    /// Returns `.success`, `.failure` when the output cannot be written, or `.unavailable` when the
    /// sound cannot be played or espeak-ng fails (the message is printed and the session stopped).
    static func announceStrums(_ measurements: AsyncStream<PolyMeasurement>, judge: StrumJudge, tolerance: Cents,
                               printing: Bool = true,
                               sound: (@Sendable (_ settled: StrumSettler.Settled) async -> String?)?,
                               ignoreWhileSounding: Bool, waitForSound: Bool = false, finishAtEnd: Bool = false,
                               stop: @escaping @Sendable () -> Void, io: SystemIO) async -> ExitCode {
        let output = BufferedOutput(descriptor: SystemIO.standardOutput, io: io, capacity: 0)
        var settler = StrumSettler(tolerance: tolerance)
        var mute = InputMute()
        let chiming = Chiming()
        var playing: Task<Void, Never>?
        for await measurement in measurements {
            mute.isOn = chiming.sounding.load(ordering: .acquiring)
            if ignoreWhileSounding && mute.ignores(at: measurement.time) { continue }
            guard let settled = settler.settle(judge.reading(from: measurement)) else { continue }
            if printing && output.isOpen && !output.write(settled.line + "\n") && sound == nil { stop() }
            guard let sound, waitForSound || !chiming.sounding.load(ordering: .acquiring),
                  chiming.failure.withLock({ $0 == nil }) else {
                continue
            }
            await playing?.value
            chiming.sounding.store(true, ordering: .releasing)
            mute.isOn = true
            _ = mute.ignores(at: measurement.time)
            playing = Task {
                if let why = await sound(settled) {
                    chiming.failure.withLock { $0 = why }
                    stop()
                }
                chiming.sounding.store(false, ordering: .releasing)
            }
        }
        await playing?.value
        if finishAtEnd, let settled = settler.finish() {
            if printing && output.isOpen { output.write(settled.line + "\n") }
            if let sound, chiming.failure.withLock({ $0 == nil }), let why = await sound(settled) {
                chiming.failure.withLock { $0 = why }
            }
        }
        if let why = chiming.failure.withLock({ $0 }) {
            io.printError("Error: \(why)\n")
            return .unavailable
        }
        if let code = output.failure {
            io.printError("Error: cannot write the strums: \(String(cString: strerror(code)))\n")
            return .failure
        }
        return .success
    }

    /// Shared between `announceStrums`' loop and the task playing its chime or speech.
    private final class Chiming: Sendable {
        let sounding = Atomic<Bool>(false)
        /// Why the sound could not play (then no more are tried).
        let failure = Mutex<String?>(nil)
    }

    /// `--expect`: every settled note of the input, then the verdict on the last one. Returns the
    /// verdict's line and exit code (0 pass, 1 fail); the caller checks the input did not fail first.
    static func settledNotes(of notes: SettledNotes) async -> [SettledNote] {
        var all: [SettledNote] = []
        for await note in notes { all.append(note) }
        return all
    }
}
