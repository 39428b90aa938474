import TunerBridge
import TunerMusic

/// Everything the screen reacts to, merged into one stream that one `for await` loop consumes.
public enum ScreenEvent: Sendable {
    /// A measurement from the session.
    case measurement(PitchMeasurement)
    /// A strum measurement (every string at once) from a switchable session in strum mode.
    case strum(PolyMeasurement)
    /// The measurements ended: nil at the normal end of the input, else why it failed (one line).
    case readingsEnded(failure: String?)
    /// Keys are waiting on the terminal (read them with `ScreenInput.readKeys`).
    case input
    /// The terminal changed size (SIGWINCH).
    case resize
    /// A sound the screen asked for has ended: nil when it played, else why not (one line).
    case soundEnded(failure: String?)
    /// SIGINT, SIGTERM or SIGHUP arrived.
    case signal(Int32)
}

/// How a screen session ended.
public enum ScreenOutcome: Equatable, Sendable {
    /// The user pressed q or Esc.
    case quit
    /// A termination signal arrived.
    case signal(Int32)
    /// The input failed mid-run (e.g. the capture device vanished); the message names it.
    case sourceFailed(String)

    /// Exit status by shell convention: 0 for q, 128 + the signal number (130 SIGINT, 143 SIGTERM,
    /// 129 SIGHUP); `sourceFailed` is for the caller to map (nil here).
    public var exitCode: Int32? {
        switch self {
        case .quit: return 0
        case .signal(let s): return 128 + s
        case .sourceFailed: return nil
        }
    }
}
