#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// `--poly`: the strum analyser's session, printed or on the screen, and the screen that switches
/// between one string and every string.
extension TunerCommand {
    /// `--poly`: every string of the tuning read at once, printed a line per reading (text, jsonl) or
    /// a line per settled strum (`--announce`, chimed with `--chime`, said with `--speak`), or shown on
    /// the screen.
    static func tunePoly(_ options: TunerOptions, tuning: Tuning, system: TargetSystem, mode: Mode,
                         source: sending any AudioSource, sounds: PlaybackSounds, speaker: Speaker?,
                         io: SystemIO) async -> ExitCode {
        let judge = StrumJudge(tuning: tuning, settings: options.settings, system: system)
        let session: PolySession
        do {
            let unpacedFile = options.file != nil && mode != .screen
            session = try PolySession(source: source, targets: judge.targets, configuration: options.configuration,
                                      delivery: .forOutput(screen: mode == .screen, file: options.file != nil),
                                      blockSize: unpacedFile ? 1 << 14 : 1024)
        } catch {
            return refusePoly(tuning, error, io: io)
        }
        let live = options.file == nil
        let outcome: ExitCode
        switch mode {
        case .text, .jsonl:
            let formatter = StrumLinesFormatter(format: mode == .text ? .text : .jsonl, tuning: tuning)
            outcome = await printLines(of: session, live: live, io: io) { formatter.line(for: judge.reading(from: $0)) }
        case .announce where options.chime || speaker != nil:
            // The chime, then the line said (`--speak`: "E flat 2 in tune, …").
            let chime = options.chime
            outcome = await SettledOutput.announceStrums(
                session.measurements, judge: judge, tolerance: options.tolerance, printing: options.announce,
                sound: { @Sendable settled in
                    if chime, let why = await sounds.play(.chime(inTune: settled.isInTune)) { return why }
                    guard let speaker else { return nil }
                    do {
                        try await speaker.say(Announcement.spoken(line: settled.line))
                        return nil
                    } catch {
                        return "\(error)"
                    }
                },
                ignoreWhileSounding: live, waitForSound: !live && speaker != nil, finishAtEnd: !live,
                stop: { session.stop() }, io: io)
        case .announce:
            // A file that ends while its strings ring is said from what settled (`StrumSettler.finish`).
            var strums = StrumSettler(tolerance: options.tolerance)
            outcome = await printLines(of: session, live: live, io: io, { measurement in
                strums.process(judge.reading(from: measurement)).map { $0 + "\n" } ?? ""
            }, end: { live ? "" : strums.finish().map { $0.line + "\n" } ?? "" })
        case .screen:
            return .usage  // the screen runs a switchable session (showScreen), never this one
        case .expect, .plot:
            return .usage  // refused by the parser
        }
        guard outcome == .success else { return outcome }
        return reportFailure(of: session, io: io) ?? .success
    }

    /// `--poly` with a tuning the strum analyser refuses (strings closer than it can tell apart): one line, 64.
    static func refusePoly(_ tuning: Tuning, _ error: any Error, io: SystemIO) -> ExitCode {
        let reason = (error as? EngineError)?.reason ?? "\(error)"
        io.printError("Error: '--poly' cannot read the tuning '\(tuning)': \(reason); "
                      + "choose a tuning whose strings are at least three semitones apart.\n")
        return .usage
    }

    /// The screen with a tuning: both engines made, key p switches between one string and every string
    /// (`--poly` starts with every string).
    static func showSwitchableScreen(_ options: TunerOptions, judge: StrumJudge, sounds: PlaybackSounds,
                                     source: sending any AudioSource, io: SystemIO) async -> ExitCode {
        let engineSwitch = EngineSwitch(strums: options.poly)
        let settings = ScreenModel.Settings(a4: options.a4, tolerance: options.tolerance)
        let session: SwitchableSession
        do {
            session = try SwitchableSession(source: source, targets: judge.targets,
                                            engineSwitch: engineSwitch, configuration: options.configuration)
        } catch {
            io.printError("Error: cannot start the pitch engine: \(error)\n")
            return .failure
        }
        let outcome: ScreenOutcome
        do {
            outcome = try await TunerScreen.run(session: session, engineSwitch: engineSwitch, settings: settings,
                                                gate: options.configuration.gate, tuning: judge.tuning,
                                                system: judge.system, sounds: sounds, chime: options.chime,
                                                configFile: options.configRead)
        } catch {
            io.printError("Error: \(error)\n")
            return .failure
        }
        return exitCode(for: outcome, session: session, io: io)
    }
}
