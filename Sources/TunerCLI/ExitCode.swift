/// The process exit codes of `tuner` (the numbers follow BSD sysexits.h), listed in `--help`.
public enum ExitCode: Int32, Sendable {
    /// Done; also when whoever reads the output stops early (e.g. `| head`).
    case success = 0
    /// A failure while running: the engine cannot be made, live input is not available, output fails.
    case failure = 1
    /// The command line is wrong: unknown flag, missing or bad value (EX_USAGE).
    case usage = 64
    /// The input file cannot be read: missing, a directory, not audio, empty, unsupported rate (EX_NOINPUT).
    case noInput = 66

    static let documented: [(ExitCode, String)] = [
        (.success, "Success, also when the reader of the output stops early (e.g. '| head')."),
        (.failure, "A runtime failure (e.g. live input is not available yet)."),
        (.usage, "A usage error: unknown flag, missing or bad value, or a --channel the file does not have."),
        (.noInput, "The input file cannot be read: missing, a directory, not audio, empty, or a sample "
            + "rate outside 8000…192000 Hz."),
    ]
}
