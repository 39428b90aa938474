import TunerBridge

/// The process exit codes of `tuner` (the numbers follow BSD sysexits.h, and 128 + signal number for a
/// screen ended by a signal), listed in `--help`.
public enum ExitCode: Int32, Sendable {
    /// Done; also when whoever reads the output stops early (e.g. `| head`), and after q on the screen.
    case success = 0
    /// A failure while running: the engine cannot be made, the screen cannot start, output fails;
    /// with `--expect`, the input did not settle on the note within the tolerance.
    case failure = 1
    /// The command line is wrong: unknown flag, missing or bad value (EX_USAGE).
    case usage = 64
    /// The input file cannot be read: missing, a directory, not audio, empty, unsupported rate; or a Scala
    /// scale or keyboard mapping that cannot be read or is not valid (EX_NOINPUT).
    case noInput = 66
    /// The capture or playback device cannot be used: missing, busy, unsupported, or gone mid-run; or
    /// `--speak` without a working espeak-ng (EX_UNAVAILABLE).
    case unavailable = 69
    /// The screen was ended by SIGHUP (the terminal went away).
    case hangup = 129
    /// The screen was ended by Ctrl-C (SIGINT).
    case interrupted = 130
    /// The screen was ended by SIGTERM.
    case terminated = 143

    static let documented: [(ExitCode, String)] = [
        (.success, "Success: q on the screen, or the input was analysed; also when the reader of the "
            + "output stops early (e.g. '| head')."),
        (.failure, "A runtime failure (e.g. the terminal type is unknown to the screen, or --plot cannot "
            + "write its file); with --expect: the input did not settle on the note within the tolerance."),
        (.usage, "A usage error: unknown flag, missing or bad value, or a --channel the file does not have."),
        (.noInput, "The input file cannot be read: missing, a directory, not audio, empty, or a sample "
            + "rate outside \(Limits.sampleRate.lowerBound)…\(Limits.sampleRate.upperBound) Hz; or a --temperament "
            + "or --kbm Scala file that is missing or not valid (the error names its line)."),
        (.unavailable, "The capture or playback device cannot be used: no such device, busy, no mono audio, "
            + "or it stopped; or --speak when espeak-ng is not installed or fails."),
        (.hangup, "The screen ended because the terminal hung up (SIGHUP)."),
        (.interrupted, "The screen ended with Ctrl-C (SIGINT)."),
        (.terminated, "The screen ended with SIGTERM."),
    ]
}
