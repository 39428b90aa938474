#if canImport(Glibc)
import Glibc
#endif
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

    /// `--expect`: every settled note of the input, then the verdict on the last one. Returns the
    /// verdict's line and exit code (0 pass, 1 fail); the caller checks the input did not fail first.
    static func settledNotes(of notes: SettledNotes) async -> [SettledNote] {
        var all: [SettledNote] = []
        for await note in notes { all.append(note) }
        return all
    }
}
