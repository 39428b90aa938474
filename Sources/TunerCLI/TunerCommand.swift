#if canImport(Glibc)
import Glibc
#endif
import TunerAudio
import TunerKit

/// `tuner`: parses the command line, opens the input, runs a `TunerSession` and prints its readings.
public enum TunerCommand {
    /// Runs the command with `arguments` (without the program name) and returns the exit code.
    public static func run(arguments: [String], io: SystemIO = .system) async -> Int32 {
        io.ignoreBrokenPipe()
        let command: ParsedCommand
        do {
            command = try CommandLineParser().parse(arguments)
        } catch {
            io.printError("Error: \(error.message)\n\(HelpText.usage())\n"
                          + "  See '\(HelpText.name) --help' for more information.\n")
            return ExitCode.usage.rawValue
        }
        switch command {
        case .help:
            return print(HelpText.render(), io: io)
        case .version:
            return print("\(HelpText.name) \(HelpText.version)\n", io: io)
        case .run(let options):
            return await tune(options, io: io).rawValue
        }
    }

    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }

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

    /// Tunes the input the options name and shows the readings in the chosen format.
    static func tune(_ options: TunerOptions, io: SystemIO) async -> ExitCode {
        let source: any AudioSource
        switch openSource(options, io: io) {
        case .success(let opened): source = opened
        case .failure(let exit): return exit.code
        }
        let format = options.output ?? .automatic(outputIsTerminal: io.isTerminal(SystemIO.standardOutput))
        let session: TunerSession
        do {
            // Every reading, in order: printed output is a record of the whole input.
            session = try TunerSession(source: source, configuration: options.configuration, delivery: .everyReading)
        } catch {
            io.printError("Error: cannot start the pitch engine: \(error)\n")
            return .failure
        }
        let printed: ExitCode
        switch format {
        case .text: printed = await printLines(of: session, with: TextFormatter(), io: io)
        case .jsonl: printed = await printLines(of: session, with: JSONLinesFormatter(), io: io)
        }
        guard printed == .success else { return printed }
        if let failure = session.failure {
            if let error = failure as? AudioFileError { return report(error, io: io) }
            io.printError("Error: the input failed: \(failure)\n")
            return .failure
        }
        return .success
    }

    /// An exit code carried as an error (the message is already printed).
    struct Exit: Error { var code: ExitCode }

    /// The input the options ask for: the file, or (not yet) live input. Prints why when it cannot.
    static func openSource(_ options: TunerOptions, io: SystemIO) -> Result<any AudioSource, Exit> {
        guard let path = options.file, !options.listDevices else {
            io.printError("Error: live input is not available yet; tune an audio file with '--file <path>' "
                          + "(see '\(HelpText.name) --help').\n")
            return .failure(Exit(code: .failure))
        }
        do {
            return .success(try AudioFileSource(path: path, channel: options.channel))
        } catch {
            return .failure(Exit(code: report(error, io: io)))
        }
    }

    /// Prints one line per reading to standard output through one buffer, until the stream ends.
    static func printLines(of session: TunerSession, with formatter: some ReadingFormatter, io: SystemIO) async -> ExitCode {
        let output = BufferedOutput(descriptor: SystemIO.standardOutput, io: io)
        // One iterator to the end of the stream: after the reader has gone (e.g. `| head -1`) the session
        // is told to stop and the few readings still coming are dropped, so the analysis thread has
        // finished (and released the engine and the file) before the process exits.
        var readings = session.readings.makeAsyncIterator()
        while let reading = await readings.next() {
            if output.isOpen && !output.write(formatter.line(for: reading)) { session.stop() }
        }
        output.flush()
        if let code = output.failure {
            io.printError("Error: cannot write the readings: \(String(cString: strerror(code)))\n")
            return .failure
        }
        return .success
    }

    /// Prints a file error as one line and returns its exit code.
    private static func report(_ error: AudioFileError, io: SystemIO) -> ExitCode {
        if case .channelOutOfRange(let requested, let available) = error.reason {
            let label = TunerFlags.all.first { $0.long == "channel" }!.label
            let fix = available == 1 ? "it has one channel; leave --channel out"
                : "'\(error.path)' has \(available) channels; use 1…\(available), or leave --channel out to mix them"
            io.printError("Error: Invalid value '\(requested)' for '\(label)': \(fix).\n")
            return .usage
        }
        io.printError("Error: \(error)\n")
        return .noInput
    }
}
