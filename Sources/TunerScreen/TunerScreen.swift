import Foundation
import TunerBridge
import TunerMusic

/// The tuner screen for a running `TunerSession`: starts curses, runs the event loop, and always puts
/// the terminal back — on q/Esc, on SIGINT/SIGTERM/SIGHUP (as events, restored by this one path, not in
/// a signal handler), when the input fails, and best-effort on a crash (fatal signals, see
/// `CursesTerminal`).
///
/// Exit codes (`ScreenOutcome.exitCode`): 0 after q/Esc, 130 SIGINT, 143 SIGTERM, 129 SIGHUP; a failed
/// input is for the caller to report (its message is in `.sourceFailed`).
public enum TunerScreen {
    /// True when `NO_COLOR` is set to anything non-empty (https://no-color.org).
    public static var noColorRequested: Bool {
        !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Shows `session` until the user quits. Throws before drawing anything when the terminal cannot be
    /// used (unknown `TERM`). Stops the session before returning.
    /// With a `tuning`, the readings are measured against its strings (the tuning row and keys 1…9).
    /// With `sounds`, key t plays the target note and, with `chime`, each settled note is chimed; the
    /// input is ignored while they sound.
    public static func run(session: TunerSession, settings: ScreenModel.Settings, gate: Decibels = TunerConfiguration.defaultGate,
                           tuning: Tuning? = nil, system: TargetSystem = .standard,
                           sounds: (any ScreenSounds)? = nil, chime: Bool = false,
                           configFile: String? = nil,
                           noColor: Bool = noColorRequested) async throws(ScreenError) -> ScreenOutcome {
        try await run(label: session.sourceLabel, sampleRate: session.sampleRate, stop: { session.stop() },
                      settings: settings, gate: gate, tuning: tuning, system: system, sounds: sounds, chime: chime,
                      configFile: configFile, readsStrums: false, noColor: noColor,
                      start: { events, _ in events.forward(session) })
    }

    /// As above for a session that runs either engine (the screen with a tuning): key p switches
    /// `engineSwitch` and the screen between one string and every string of a strum; `--poly` starts
    /// with every string.
    public static func run(session: SwitchableSession, engineSwitch: EngineSwitch, settings: ScreenModel.Settings,
                           gate: Decibels = TunerConfiguration.defaultGate, tuning: Tuning, system: TargetSystem = .standard,
                           sounds: (any ScreenSounds)? = nil, chime: Bool = false, configFile: String? = nil,
                           noColor: Bool = noColorRequested) async throws(ScreenError) -> ScreenOutcome {
        try await run(label: session.sourceLabel, sampleRate: session.sampleRate, stop: { session.stop() },
                      settings: settings, gate: gate, tuning: tuning, system: system, sounds: sounds, chime: chime,
                      configFile: configFile, readsStrums: engineSwitch.readsStrums, noColor: noColor, start: { events, loop in
                          loop.onStrumsChanged = { engineSwitch.readsStrums = $0 }
                          events.forward(session)
                      })
    }

    private static func run(label: String, sampleRate: Double, stop: () -> Void, settings: ScreenModel.Settings,
                            gate: Decibels, tuning: Tuning?, system: TargetSystem, sounds: (any ScreenSounds)?,
                            chime: Bool, configFile: String?, readsStrums: Bool, noColor: Bool,
                            start: (TerminalEvents, ScreenLoop) -> Void) async throws(ScreenError) -> ScreenOutcome {
        let events = TerminalEvents()
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(noColor: noColor)
        } catch {
            events.cancel()
            stop()
            throw error
        }
        terminal.resumeInput = { events.resumeInput() }
        var model = ScreenModel(settings: settings, sourceLabel: label, sampleRate: sampleRate, gate: gate,
                                size: terminal.size, tuning: tuning, system: system, readsStrums: readsStrums)
        model.configFile = configFile
        let loop = ScreenLoop(model: model, canvas: terminal, input: terminal, sounds: sounds, chime: chime,
                              post: { events.post($0) })
        start(events, loop)
        let outcome = await loop.run(events.stream)
        terminal.restore()
        events.cancel()
        stop()
        return outcome
    }
}
