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
    /// The config file is wrong (unknown key, bad value, not 'key = value', or unreadable), or, for
    /// `--list-devices`, ALSA's configuration cannot be read (EX_CONFIG).
    case config = 78
    /// The screen was ended by SIGHUP (the terminal went away).
    case hangup = 129
    /// The screen was ended by Ctrl-C (SIGINT).
    case interrupted = 130
    /// The screen was ended by SIGTERM.
    case terminated = 143
    /// The screen was ended by SIGQUIT (Ctrl-\\): the terminal is restored, no core dump, no backtrace.
    case quitSignal = 131
    /// The system refused a resource the tuner needs: memory (`ulimit -v`), file descriptors
    /// (`ulimit -n`) or a thread (EX_OSERR).
    case resources = 71

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
        (.resources, "The system refused memory, file descriptors or a thread (e.g. a low 'ulimit -v' or "
            + "'ulimit -n')."),
        (.config, "The config file is wrong: an unknown key, a bad value or a line that is not 'key = value' "
            + "(the message names the file and line), or the file given to --config cannot be read; "
            + "or --list-devices or --list-playback-devices finds ALSA's configuration unreadable."),
        (.hangup, "The screen ended because the terminal hung up (SIGHUP)."),
        (.interrupted, "The screen ended with Ctrl-C (SIGINT)."),
        (.quitSignal, "The screen ended with Ctrl-\\ (SIGQUIT)."),
        (.terminated, "The screen ended with SIGTERM."),
    ]
}
