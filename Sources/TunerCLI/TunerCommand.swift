#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// `tuner`: parses the command line, opens the input, runs a `TunerSession` and prints its readings.
/// This file is the run from the command line to the end; its rooms are beside it: `+Input` (the file or
/// device), `+Output` (lines, dropped readings, `--plot`), `+Screen`, `+Strums` (`--poly`) and `+Targets`
/// (temperaments, Scala files, `--tone`).
public enum TunerCommand {
    /// Runs the command with `arguments` (without the program name) and returns the exit code.
    public static func run(arguments: [String], io: SystemIO = .system,
                           environment: [String: String] = currentEnvironment()) async -> Int32 {
        guard case .run(let commandLine) = try? CommandLineParser().parse(arguments), commandLine.generate == nil else {
            return runSynchronously(arguments: arguments, io: io)
        }
        io.ignoreBrokenPipe()
        let options: TunerOptions
        do {
            options = try ConfigFile.resolve(commandLine, arguments: arguments, environment: environment)
        } catch {
            switch error {
            case .config(let path, let problem):
                io.printError(problem.text(path: path) + "\n")
                return ExitCode.config.rawValue
            case .usage(let usage):
                io.printError("Error: \(usage.message)\n")
                return ExitCode.usage.rawValue
            }
        }
        return await tune(options, io: io, environment: environment).rawValue
    }

    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }

    /// What can be done before any thread, task or dispatch queue exists: `--help`, `--version` and
    /// usage errors, and refusing a run under too low resource limits (exit 71, one line). Returns the
    /// exit code when that settled it, nil when the run must go on (`run`). Under `ulimit -n 4`
    /// libdispatch cannot start at all, so this is what lets `--version` and the error line through.
    public static func runBeforeConcurrency(arguments: [String], io: SystemIO = .system) -> Int32? {
        installSignalActions()
        occupyClosedStandardDescriptors()
        guard case .run(let commandLine) = try? CommandLineParser().parse(arguments), commandLine.generate == nil else {
            return runSynchronously(arguments: arguments, io: io)
        }
        if let problem = ResourceLimits.problem() {
            io.printError("Error: \(problem)\n")
            return ExitCode.resources.rawValue
        }
        return nil
    }

    /// The process's signal actions, before any thread exists: fatal signals as `CursesTerminal` handles
    /// them, and SIGQUIT (Ctrl-\\) back to its default action — it ends the process — where Swift's
    /// backtracer would print a report and let the tuner run on. The screen catches SIGQUIT itself
    /// (exit 131, terminal restored).
    static func installSignalActions() {
        CursesTerminal.installFatalSignalHandlers()
        signal(SIGQUIT, SIG_DFL)
    }

    /// A standard descriptor the parent closed (`tuner >&-`) would be the next one the tuner opens — the
    /// audio file, an eventfd — and readings would be written into it. Each closed one is taken by
    /// /dev/null opened read-only, so writing to it fails plainly (EBADF) and reading finds nothing.
    static func occupyClosedStandardDescriptors() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Help, version, usage errors and the generated manual and completions, which need no concurrency.
    private static func runSynchronously(arguments: [String], io: SystemIO) -> Int32 {
        io.ignoreBrokenPipe()
        switch Result(catching: { () throws(UsageError) in try CommandLineParser().parse(arguments) }) {
        case .failure(let error):
            io.printError("Error: \(FileName.display(error.message))\n\(HelpText.usage())\n"
                          + "  See '\(HelpText.name) --help' for more information.\n")
            return ExitCode.usage.rawValue
        case .success(.help): return print(HelpText.render(), io: io)
        case .success(.version): return print(HelpText.versionLine + "\n", io: io)
        case .success(.run(let commandLine)):
            switch commandLine.generate {
            case .manual: return print(ManualPage.render(), io: io)
            case .completion(let shell): return print(CompletionScript.render(for: shell), io: io)
            case nil: return ExitCode.failure.rawValue  // not reached: runs go through `run`
            }
        }
    }

    /// The process's arguments without the program name, from argv's bytes: a file name that is not
    /// UTF-8 is kept byte for byte (`FileName`), where `CommandLine.arguments` would replace its bytes.
    public static func processArguments() -> [String] { FileName.processArguments() }

    /// The text of `tuner --help`.
    public static var helpText: String { HelpText.render() }

    /// Writes `text` to standard output; the exit code, with one line on stderr if it could not be written.
    static func print(_ text: String, io: SystemIO) -> Int32 {
        let output = BufferedOutput(descriptor: SystemIO.standardOutput, io: io)
        output.write(text)
        output.flush()
        guard let code = output.failure else { return ExitCode.success.rawValue }
        io.printError("Error: cannot write to standard output: \(String(cString: strerror(code)))\n")
        return ExitCode.failure.rawValue
    }

    /// What a run does with the readings.
    enum Mode: Equatable {
        case screen
        case text
        case jsonl
        /// `--announce` and/or `--speak`.
        case announce
        /// `--expect`.
        case expect
        /// `--plot`.
        case plot
    }

    /// The mode the options ask for.
    static func mode(_ options: TunerOptions, io: SystemIO) -> Mode {
        if options.expect != nil { return .expect }
        if options.plot != nil { return .plot }
        if options.announce || options.speak { return .announce }
        // With `--file -` there is no screen (not even one a config file asks for): it reads its keys
        // from standard input, which carries the audio.
        let reading = options.file == AudioFileSource.standardInputPath
        switch options.output ?? .automatic(outputIsTerminal: io.isTerminal(SystemIO.standardOutput)) {
        case .screen: return reading ? .text : .screen
        case .text: return .text
        case .jsonl: return .jsonl
        }
    }

    /// Tunes the input the options name and shows the readings in the chosen format.
    static func tune(_ options: TunerOptions, io: SystemIO, environment: [String: String] = currentEnvironment()) async -> ExitCode {
        if options.listTunings { return ExitCode(rawValue: print(Tuning.listing, io: io)) ?? .failure }
        if options.listDevices { return listDevices(.capture, io: io) }
        if options.listPlaybackDevices { return listDevices(.playback, io: io) }
        if let path = options.plot, let problem = PlotSVG.unwritable(path) {
            io.printError("Error: cannot write the plot to '\(path)': \(problem).\n")
            return .failure
        }
        var mode = mode(options, io: io)
        if mode == .screen && !CursesTerminal.terminalCanDraw() {
            // TERM=dumb: what an Emacs shell buffer can show is lines, so the readings come as lines.
            let term = environment["TERM"] ?? "(unset)"
            io.printError("Note: TERM=\(term) cannot show the screen (no cursor movement); printing one line "
                + "per reading instead (--output text).\n")
            mode = .text
        }
        let system: TargetSystem
        var options = options
        switch loadSystem(&options, io: io) {
        case .success(let loaded): system = loaded
        case .failure(let exit): return exit.code
        }
        if let note = options.tone { return await playTone(note, system: system, options: options, io: io) }
        if options.chime && (mode == .text || mode == .jsonl) {
            io.printError("Error: '--chime' sounds with the screen, --announce or --speak, and standard output is "
                          + "not a terminal here; add '--announce' or '--output screen'.\n")
            return .usage
        }
        // One player for every sound of the run; speech comes at espeak-ng's rate, so the chimes are
        // made at it too and the device is not reopened between them.
        let player = SoundPlayer(device: options.playbackDevice)
        defer { player.close() }
        let soundRate = options.speak ? Speaker.speechRate : TunerOptions.playbackRate
        var speaker: Speaker?
        if options.speak {
            switch Speaker.find(path: environment["PATH"]) {
            case .success(let executable): speaker = Speaker(executable: executable, player: player)
            case .failure(let failure):
                io.printError("Error: \(failure)\n")
                return .unavailable
            }
        }
        if options.speak || options.chime {
            // Opened now, so that a missing device is reported before the tuner starts.
            do {
                try player.open(rate: soundRate)
            } catch {
                io.printError("Error: \(error)\n")
                return .unavailable
            }
        }
        let sounds = PlaybackSounds(player: player, options: options, rate: soundRate)
        let source: any AudioSource
        switch openSource(options, paced: mode == .screen, demo: mode == .screen, io: io) {
        case .success(let opened): source = opened
        case .failure(let exit): return exit.code
        }
        if mode == .screen, let tuning = options.tuning {
            // Both engines when the strum analyser can read the tuning (made once here to ask it, and
            // dropped); else one string at a time, or with --poly a one-line refusal.
            do {
                let judge = StrumJudge(tuning: tuning, settings: options.settings, system: system)
                _ = try PolyEngine(sampleRate: source.sampleRate, targets: judge.targets,
                                   configuration: options.configuration) { _ in }
                return await showSwitchableScreen(options, judge: judge, sounds: sounds, source: source, io: io)
            } catch {
                if options.poly { return refusePoly(tuning, error, io: io) }
            }
        }
        if options.poly, let tuning = options.tuning {
            return await tunePoly(options, tuning: tuning, system: system, mode: mode, source: source, sounds: sounds,
                                  speaker: speaker, io: io)
        }
        let session: TunerSession
        do {
            // Printed output is a record of every reading; the screen only ever wants the newest.
            // A file not played at real-time pace is read in large blocks: the readings of a block
            // reach the printing task together, which then wakes once per block, not per reading.
            // A file waits for its reader (nothing dropped); a live source cannot, so a reader more
            // than `TunerSession.queueCapacity` readings behind loses the oldest, and is told.
            let unpacedFile = options.file != nil && mode != .screen
            session = try TunerSession(source: source, configuration: options.configuration,
                                       delivery: .forOutput(screen: mode == .screen, file: options.file != nil),
                                       blockSize: unpacedFile ? 1 << 14 : 1024)
        } catch {
            io.printError("Error: cannot start the pitch engine: \(error)\n")
            return .failure
        }
        // Live input is written a capture block at a time, as soon as the block is analysed, so a reader
        // sees each reading within one block of when it is made (see printLines).
        let live = options.file == nil
        switch mode {
        case .screen:
            return await showScreen(session, options: options, system: system, sounds: sounds, io: io)
        case .text, .jsonl:
            let lines: (TuningTracker.Step) -> String
            switch (mode, options.tuning) {
            case (.text, let tuning?): lines = { TextFormatter(system: system).lines(for: $0, tuning: tuning) }
            case (.text, nil): lines = { TextFormatter(system: system).line(for: $0.reading) }
            case (_, let tuning?):
                lines = TuningLinesFormatter(tuning: tuning, system: system, a4: options.a4).lines(for:)
            case (_, nil): lines = { JSONLinesFormatter(system: system).line(for: $0.reading) }
            }
            let pipeline = ReadingPipeline(settings: options.settings, system: system, tuning: options.tuning)
            let printed = await printLines(of: session, through: pipeline, live: live, io: io, lines)
            guard printed == .success else { return printed }
            return reportFailure(of: session, io: io) ?? .success
        case .announce:
            let notes = SettledNotes(measurements: session.measurements, settings: options.settings,
                                     system: system, tuning: options.tuning)
            var chime: (@Sendable (Bool) async -> String?)?
            if options.chime {
                chime = { @Sendable inTune in await sounds.play(.chime(inTune: inTune)) }
            }
            let announced = await SettledOutput.announce(
                notes, tuning: options.tuning, system: system, printing: options.announce, speaker: speaker,
                chime: chime,
                ignoreWhileSpeaking: options.file == nil, stop: { session.stop() }, io: io)
            guard announced == .success else { return announced }
            return reportFailure(of: session, io: io) ?? .success
        case .plot:
            return await writePlot(of: session, options: options, system: system, io: io)
        case .expect:
            // The verdict is on the note itself, so the notes settle chromatically (no target string).
            let settled = await SettledOutput.settledNotes(
                of: SettledNotes(measurements: session.measurements, settings: options.settings, system: system))
            if let failed = reportFailure(of: session, io: io) { return failed }
            guard let verdict = options.expectation(in: system)?.verdict(for: settled) else { return .usage }
            if print(verdict.message + "\n", io: io) != ExitCode.success.rawValue { return .failure }
            return verdict.passed ? .success : .failure
        }
    }

    /// The process environment (`PATH` when looking for espeak-ng, where the config file is).
    public static func currentEnvironment() -> [String: String] { ProcessInfo.processInfo.environment }
}
