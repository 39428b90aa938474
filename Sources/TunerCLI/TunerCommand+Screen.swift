#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// The screen's run and how its end becomes an exit code.
extension TunerCommand {
    /// Runs the screen until q or a signal; the terminal is restored before anything is printed.
    static func showScreen(_ session: TunerSession, options: TunerOptions, system: TargetSystem,
                           sounds: PlaybackSounds,
                           io: SystemIO) async -> ExitCode {
        let outcome: ScreenOutcome
        do {
            outcome = try await TunerScreen.run(
                session: session, settings: ScreenModel.Settings(a4: options.a4, tolerance: options.tolerance),
                gate: options.configuration.gate, tuning: options.tuning, system: system, sounds: sounds,
                chime: options.chime, configFile: options.configRead)
        } catch {
            io.printError("Error: \(error)\n")
            return .failure
        }
        return exitCode(for: outcome, session: session, io: io)
    }

    /// The exit code of a screen session's end; a failed input is reported in one line.
    static func exitCode<Measurement>(for outcome: ScreenOutcome, session: AnalysisSession<Measurement>,
                                      io: SystemIO) -> ExitCode {
        switch outcome {
        case .quit: return .success
        case .signal(SIGINT): return .interrupted
        case .signal(SIGHUP): return .hangup
        case .signal(SIGQUIT): return .quitSignal
        case .signal: return .terminated
        case .sourceFailed(let message):
            return reportFailure(of: session, io: io) ?? {
                io.printError("Error: the input failed: \(message)\n")
                return .failure
            }()
        }
    }

    /// Prints why the input ended early, if it did, and returns the exit code for it.
    static func reportFailure<Measurement>(of session: AnalysisSession<Measurement>, io: SystemIO) -> ExitCode? {
        reportDropped(by: session, io: io, soFar: false)
        guard let failure = session.failure else { return nil }
        if let error = failure as? AudioFileError { return report(error, io: io) }
        if let error = failure as? ALSAError {
            io.printError("Error: \(error)\n")
            return .unavailable
        }
        io.printError("Error: the input failed: \(failure)\n")
        return .failure
    }
}
