#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// `tuner`: parses the command line, opens the input, runs a `TunerSession` and prints its readings.
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

    private static func print(_ text: String, io: SystemIO) -> Int32 {
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
                                  io: io)
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

    /// `--poly`: every string of the tuning read at once, printed a line per reading (text, jsonl) or
    /// a line per settled strum (`--announce`, chimed with `--chime`), or shown on the screen.
    static func tunePoly(_ options: TunerOptions, tuning: Tuning, system: TargetSystem, mode: Mode,
                         source: sending any AudioSource, sounds: PlaybackSounds, io: SystemIO) async -> ExitCode {
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
        case .announce where options.chime:
            outcome = await SettledOutput.announceStrums(
                session.measurements, judge: judge, tolerance: options.tolerance,
                chime: { @Sendable inTune in await sounds.play(.chime(inTune: inTune)) },
                ignoreWhileSounding: live, stop: { session.stop() }, io: io)
        case .announce:
            var strums = StrumSettler(tolerance: options.tolerance)
            outcome = await printLines(of: session, live: live, io: io) { measurement in
                strums.process(judge.reading(from: measurement)).map { $0 + "\n" } ?? ""
            }
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

    /// `--tone`: plays `note` (at `--a4`, in the temperament asked for) for `--duration` seconds and
    /// returns when it has been heard.
    static func playTone(_ note: Note, system: TargetSystem, options: TunerOptions, io: SystemIO) async -> ExitCode {
        let frequency = system.frequency(of: note, a4: options.a4)
        let sound = Sounds.tone(frequency, seconds: options.duration, timbre: options.toneTimbre,
                                rate: TunerOptions.playbackRate)
        let player = SoundPlayer(device: options.playbackDevice)
        defer { player.close() }
        do {
            try player.open(rate: sound.rate)
        } catch {
            io.printError("Error: \(error)\n")
            return .unavailable
        }
        let line = "Playing \(note) (\(String(format: "%.2f", frequency.value)) Hz, A4 = "
            + "\(TunerFlags.number(options.a4.value)) Hz) for \(TunerFlags.number(options.duration)) s.\n"
        if print(line, io: io) != ExitCode.success.rawValue { return .failure }
        do {
            try await player.play(sound)
        } catch {
            io.printError("Error: \(error)\n")
            return .unavailable
        }
        return .success
    }

    /// `--plot`: every measurement of the file through a `ReadingPipeline` (as the screen takes them), then
    /// the SVG, and one line saying what was written.
    static func writePlot(of session: TunerSession, options: TunerOptions, system: TargetSystem,
                          io: SystemIO) async -> ExitCode {
        guard let path = options.plot, let file = options.file else { return .usage }
        let name = URL(fileURLWithPath: file).lastPathComponent
        var plot = PlotSVG(title: "\(name) — A4 \(TunerFlags.number(options.a4.value)) Hz, tolerance ±"
                           + "\(TunerFlags.number(options.tolerance.value)) ¢",
                           tolerance: options.tolerance.value,
                           reference: options.tuning == nil ? "nearest note" : "target string")
        var pipeline = ReadingPipeline(settings: options.settings, system: system, tuning: options.tuning)
        for await measurement in session.measurements { plot.add(pipeline.process(measurement), tuning: options.tuning) }
        if let failed = reportFailure(of: session, io: io) { return failed }
        do {
            try plot.render().write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            io.printError("Error: cannot write the plot to '\(path)': \(error.localizedDescription)\n")
            return .failure
        }
        let pitched = plot.points.filter { $0.cents != nil }.count
        let seconds = String(format: "%.1f", plot.points.last?.time ?? 0)
        let line = "Wrote \(path): \(pitched) pitched readings of \(plot.points.count) over \(seconds) s.\n"
        return print(line, io: io) == ExitCode.success.rawValue ? .success : .failure
    }

    /// The process environment (`PATH` when looking for espeak-ng, where the config file is).
    public static func currentEnvironment() -> [String: String] { ProcessInfo.processInfo.environment }

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

    /// `--list-devices` / `--list-playback-devices`: one capture or playback PCM per line, "name — description".
    static func listDevices(_ direction: ALSAError.Direction, io: SystemIO) -> ExitCode {
        let devices: [ALSADeviceHint]
        do {
            devices = try ALSACaptureSource.devices(direction)
        } catch {
            io.printError("Error: \(error)\n")
            return error.kind == .listing ? .config : .unavailable
        }
        let width = devices.map(\.name.count).max() ?? 0
        let lines = devices.map { device in
            device.description.isEmpty ? device.name
                : device.name + String(repeating: " ", count: width - device.name.count) + "  " + device.description
        }
        return ExitCode(rawValue: print(lines.map { $0 + "\n" }.joined(), io: io)) ?? .failure
    }

    /// An exit code carried as an error (the message is already printed).
    struct Exit: Error { var code: ExitCode }

    /// The input the options ask for: the file (at real-time pace when `paced`, for the screen), or the
    /// capture device. With no capture device and `demo` (the screen), the built-in demo instead, saying so
    /// in one line — unless a device was named. Prints why when there is no input.
    static func openSource(_ options: TunerOptions, paced: Bool, demo: Bool, io: SystemIO) -> Result<any AudioSource, Exit> {
        if let path = options.file {
            do {
                let file = try AudioFileSource(path: path, channel: options.channel)
                return .success(paced ? PacedSource(file) : file)
            } catch {
                return .failure(Exit(code: report(error, io: io)))
            }
        }
        do {
            return .success(try ALSACaptureSource(device: options.device, rate: options.rate))
        } catch {
            if demo && error.kind == .noDevice && !options.given.contains("device")
                && !options.configured.contains("device") {
                io.printError("No capture device (ALSA: \(error.reason)); showing the built-in demo.\n")
                return .success(DemoSource(sampleRate: Double(options.rate), a4: options.a4))
            }
            io.printError("Error: \(error)\n")
            return .failure(Exit(code: .unavailable))
        }
    }

    /// `--output text`/`jsonl`: each measurement through `pipeline` on this task, in order (as the
    /// screen does), and the `lines` of each step (the reading; with a tuning, its target string and
    /// the settled notes) to standard output through one buffer, until the stream ends. For `live`
    /// input the buffer is written as soon as no further measurement is ready (one `write(2)` per
    /// capture block, whose readings arrive together, instead of one per reading): a file is done in a
    /// moment, but a capture runs on, and its readings must not wait for 64 KiB to pile up.
    static func printLines(of session: TunerSession, through pipeline: ReadingPipeline, live: Bool = false,
                           io: SystemIO, _ lines: (TuningTracker.Step) -> String) async -> ExitCode {
        var pipeline = pipeline
        return await printLines(of: session, live: live, io: io) { lines(pipeline.process($0)) }
    }

    /// The lines `text` makes of each measurement of `session`, in order, as above (`--poly` too).
    static func printLines<Measurement>(of session: AnalysisSession<Measurement>, live: Bool, io: SystemIO,
                                        _ text: (Measurement) -> String) async -> ExitCode {
        let output = BufferedOutput(descriptor: SystemIO.standardOutput, io: io)
        // One iterator to the end of the stream: after the reader has gone (e.g. `| head -1`) the session
        // is told to stop and the few readings still coming are dropped, so the analysis thread has
        // finished (and released the engine and the file) before the process exits.
        var measurements = session.measurements.makeAsyncIterator()
        var warned = false
        while let measurement = await measurements.next() {
            if output.isOpen && !output.write(text(measurement)) { session.stop() }
            if live && output.isOpen && !session.hasReadyMeasurement && !output.flush() { session.stop() }
            if live && !warned && session.dropped > 0 { warned = reportDropped(by: session, io: io, soFar: true) }
        }
        output.flush()
        if let code = output.failure {
            io.printError("Error: cannot write the readings: \(String(cString: strerror(code)))\n")
            return .failure
        }
        return .success
    }

    /// One line on stderr when a live source's readings were dropped because the output fell more than
    /// `TunerSession.queueCapacity` behind (`soFar`: as soon as it happens, since a live run may never end;
    /// else the total at the end). Returns whether it printed.
    @discardableResult
    static func reportDropped<Measurement>(by session: AnalysisSession<Measurement>, io: SystemIO,
                                           soFar: Bool) -> Bool {
        let dropped = session.dropped
        guard dropped > 0 else { return false }
        io.printError("Warning: \(dropped) reading\(dropped == 1 ? "" : "s") dropped\(soFar ? " so far" : ""): the "
            + "output fell more than \(TunerSession.queueCapacity) readings behind the capture device\n")
        return true
    }

    /// The table of targets the options ask for: a built-in temperament, or a Scala `.scl` (and `.kbm`)
    /// file read now. A file that cannot be read or is not a valid scale is one line naming the file
    /// (and line) and exit 66; a scale that does not fit the other flags is a usage error (64).
    static func loadSystem(_ options: inout TunerOptions, io: SystemIO) -> Result<TargetSystem, Exit> {
        guard options.temperamentIsFile else {
            return .success(options.system(temperament: Temperament.named(options.temperament) ?? .equal))
        }
        func read(_ path: String) -> String? {
            guard let data = FileManager.default.contents(atPath: path),
                  let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                io.printError("Error: cannot read '\(path)': "
                              + (!exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "not readable")
                              + "\n")
                return nil
            }
            return text
        }
        let path = options.temperament
        guard let text = read(path) else { return .failure(Exit(code: .noInput)) }
        // Scala keeps a scale's keyboard mapping beside it under the same name (song.scl, song.kbm): that
        // one is used when --kbm names none.
        if options.kbm == nil, path.hasSuffix(".scl") {
            let beside = String(path.dropLast(4)) + ".kbm"
            if FileManager.default.fileExists(atPath: beside) { options.kbm = beside }
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let temperament: Temperament
        var mapping: Scala.KeyboardMapping?
        do throws(ScalaError) {
            temperament = try Scala.scale(text: text, file: path, name: name)
            if let kbm = options.kbm {
                guard let text = read(kbm) else { return .failure(Exit(code: .noInput)) }
                mapping = try Scala.mapping(text: text, file: kbm, scale: temperament)
            }
        } catch {
            io.printError("Error: \(UsageMessages.message(for: error))\n")
            return .failure(Exit(code: .noInput))
        }
        let system = options.system(temperament: temperament, mapping: mapping)
        if temperament.count != 12, options.tuning != nil {
            io.printError("Error: '--tuning' needs a temperament of 12 notes; '\(name)' has \(temperament.count): "
                          + "leave out one of them.\n")
            return .failure(Exit(code: .usage))
        }
        // A keyboard mapping may leave keys unmapped: a tone or a string there has no frequency.
        if let kbm = options.kbm, system.namesKeys,
           let (flag, note) = ([options.tone.map { ("--tone <note>", $0) }]
                               + (options.tuning?.strings ?? []).map { Optional(("--tuning <notes>", $0)) })
               .compactMap({ $0 }).first(where: { !system.isTarget($0.1) }) {
            io.printError("Error: Invalid value for '\(flag)': \(system.name(of: note)) is not a key that '\(kbm)' maps; "
                          + "use keys it maps to a degree.\n")
            return .failure(Exit(code: .usage))
        }
        if let text = options.expectText {
            guard let expected = try? Expectation(parsing: text, system: system) else {
                if let keyboard = system.keyboard, let kbm = options.kbm, system.namesKeys {
                    io.printError("Error: Invalid value '\(text)' for '--expect <note>': not a key that '\(kbm)' maps; "
                                  + "name a key it maps to a degree (MIDI \(keyboard.first)…\(keyboard.last), not 'x').\n")
                    return .failure(Exit(code: .usage))
                }
                io.printError("Error: Invalid value '\(text)' for '--expect <note>': not a note of '\(name)'; write "
                              + "the root of a period and the degree above it, e.g. C4 or C4+3.\n")
                return .failure(Exit(code: .usage))
            }
            options.expect = expected.note
        }
        return .success(system)
    }

    /// Prints a file error as one line and returns its exit code.
    private static func report(_ error: AudioFileError, io: SystemIO) -> ExitCode {
        if case .channelOutOfRange(let requested, let available) = error.reason {
            let label = TunerFlags.all.first { $0.long == "channel" }!.label
            let fix = available == 1 ? "it has one channel; leave --channel out"
                : "'\(FileName.display(error.path))' has \(available) channels; use 1…\(available), or leave --channel out to mix them"
            io.printError("Error: Invalid value '\(requested)' for '\(label)': \(fix).\n")
            return .usage
        }
        io.printError("Error: \(error)\n")
        return .noInput
    }
}
