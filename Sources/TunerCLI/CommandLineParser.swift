/// What the command line asks for.
public enum ParsedCommand: Sendable, Equatable {
    case run(TunerOptions)
    case help
    case version
}

/// Parses `tuner`'s arguments the way swift-argument-parser tools do: `--flag value`, `--flag=value`,
/// `-f value`, `-fvalue`, `-f=value`; `--help`/`-h` and `--version` anywhere win; the last of a
/// repeated flag wins; `--` ends the flags (nothing may follow, as `tuner` takes no arguments).
public struct CommandLineParser: Sendable {
    let definitions: [OptionDefinition]

    init(definitions: [OptionDefinition] = TunerFlags.all) {
        self.definitions = definitions
    }

    public init() { self.init(definitions: TunerFlags.all) }

    /// Parses `arguments` over `base` (the config file's settings; flags given here win).
    public func parse(_ arguments: [String], base: TunerOptions = TunerOptions()) throws(UsageError) -> ParsedCommand {
        let flags = arguments.prefix { $0 != "--" }
        // `-h` may head a cluster of short flags (`-hf`), as in swift-argument-parser: help still wins.
        if flags.contains(where: { $0 == "--help" || ($0.hasPrefix("-h") && !$0.hasPrefix("-h=")) }) { return .help }
        if flags.contains("--version") { return .version }
        // `--help=yes`, `--version=1`, `-h=x`: these flags take no value.
        for flag in flags {
            for (name, label) in [("--help", "--help"), ("--version", "--version"), ("-h", "-h")]
            where flag.hasPrefix(name + "=") {
                throw .valueNotAllowed(label: label, value: String(flag.dropFirst(name.count + 1)))
            }
        }

        var options = base
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                if index < arguments.count { throw .unexpectedArgument(arguments[index]) }
                break
            }
            guard Self.looksLikeFlag(argument) else { throw .unexpectedArgument(argument) }

            let (definition, inlineValue) = try find(argument)
            var value = ""
            if definition.valueName == nil {
                if let inlineValue { throw .valueNotAllowed(label: definition.label, value: inlineValue) }
            } else if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !Self.looksLikeFlag(arguments[index]) {
                value = arguments[index]
                index += 1
            } else {
                throw .missingValue(label: definition.label, example: definition.example)
            }
            do {
                try definition.apply(&options, value)
            } catch {
                throw .invalidValue(value: value, label: definition.label, reason: error.reason)
            }
            options.given.insert(definition.long)
        }
        try TunerFlags.finish(&options)
        try validate(options)
        return .run(options)
    }

    /// Rules between flags.
    private func validate(_ options: TunerOptions) throws(UsageError) {
        if options.given.contains("config") && options.given.contains("no-config") {
            throw .conflict("'--config' and '--no-config' cannot be used together; leave out one of them.")
        }
        if options.listTunings {
            for other in ["file", "channel", "device", "rate", "list-devices", "list-playback-devices", "expect", "announce", "speak",
                          "output"]
            where options.given.contains(other) {
                throw .conflict("'--list-tunings' and '--\(other)' cannot be used together: '--list-tunings' only "
                    + "prints the tunings and exits; leave out one of them.")
            }
            return
        }
        if options.given.contains("channel") && options.file == nil {
            throw .conflict("'--channel' needs '--file': it picks a channel of a recording; add '--file <path>', "
                + "e.g. 'tuner --file stereo.wav --channel 1'.")
        }
        if options.given.contains("tone") {
            for other in ["file", "expect", "announce", "speak", "output", "device", "rate", "list-devices",
                          "list-playback-devices", "tuning", "chime", "plot"] where options.given.contains(other) {
                throw .conflict("'--tone' and '--\(other)' cannot be used together: '--tone' only plays a note and "
                    + "exits; leave out one of them.")
            }
        }
        if options.given.contains("expect") {
            guard options.file != nil else {
                throw .conflict("'--expect' needs '--file': it checks the settled pitch of a recording; "
                    + "add '--file <path>', e.g. 'tuner --file a2.wav --expect A2'.")
            }
            for other in ["announce", "speak", "output", "chime"] where options.given.contains(other) {
                throw .conflict("'--expect' and '--\(other)' cannot be used together: '--expect' prints only its "
                    + "verdict; leave out '--\(other)'.")
            }
        }
        if options.given.contains("plot") {
            guard options.file != nil else {
                throw .conflict("'--plot' needs '--file': it draws a recording after analysing it; add "
                    + "'--file <path>', e.g. 'tuner --file a2.wav --plot a2.svg'.")
            }
            for other in ["output", "announce", "speak", "expect", "chime"] where options.given.contains(other) {
                throw .conflict("'--plot' and '--\(other)' cannot be used together: '--plot' writes only the graph; "
                    + "leave out one of them.")
            }
        }
        if options.chime, let output = options.output, output != .screen {
            throw .conflict("'--chime' and '--output \(output.rawValue)' cannot be used together: the chimes sound "
                + "with the screen, --announce or --speak; leave out one of them.")
        }
        for mode in ["announce", "speak"] where options.given.contains(mode) && options.given.contains("output") {
            throw .conflict("'--\(mode)' and '--output' cannot be used together: '--\(mode)' replaces the output "
                + "with the settled notes; leave out one of them.")
        }
        if options.poly {
            guard options.tuning != nil else {
                throw .conflict("'--poly' needs '--tuning': each string is read near its own target; add the "
                    + "strings, e.g. 'tuner --poly --tuning guitar'.")
            }
            for other in Self.oneNoteFlags where options.given.contains(other) {
                throw .conflict("'--poly' and '--\(other)' cannot be used together: '--\(other)' works on one "
                    + "note at a time; leave out one of them.")
            }
        }
        if options.file == "-" && options.given.contains("output") && options.output == .screen {
            throw .conflict("'--file -' and '--output screen' cannot be used together: the screen reads its keys "
                + "from standard input, which then carries the audio; use '--output text' or 'jsonl'.")
        }
        if options.file != nil {
            for live in ["device", "rate", "list-devices"] where options.given.contains(live) {
                throw .conflict("'--file' and '--\(live)' cannot be used together: '--\(live)' is for live input; "
                    + "leave out one of them.")
            }
        }
    }

    /// Flags that work on one note at a time, so not with `--poly`.
    static let oneNoteFlags = ["expect", "plot", "tone"]

    /// The definition an argument names, and the value written into it (`--a4=442`, `-t5`), if any.
    private func find(_ argument: String) throws(UsageError) -> (OptionDefinition, String?) {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name = body.prefix { $0 != "=" }
            let value = body.count > name.count ? String(body.dropFirst(name.count + 1)) : nil
            guard let definition = definitions.first(where: { $0.long == name }) else {
                throw .unknownOption("--\(name)", suggestion: suggestion(for: String(name)))
            }
            return (definition, value)
        }
        let letter = argument.dropFirst().first!
        let word = String(argument.dropFirst())
        if word.count > 1, let long = definitions.first(where: { $0.long == word.prefix { $0 != "=" } }) {
            throw .unknownOption(argument, suggestion: "--\(long.long)")  // "-file": one dash too few
        }
        var rest = argument.dropFirst(2)
        if rest.hasPrefix("=") { rest = rest.dropFirst() }
        guard let definition = definitions.first(where: { $0.short == letter }) else {
            throw .unknownOption("-\(letter)", suggestion: nil)
        }
        return (definition, rest.isEmpty && !argument.hasSuffix("=") ? nil : String(rest))
    }

    /// A long flag within two edits of `name`, e.g. "--tolerence" → "--tolerance".
    private func suggestion(for name: String) -> String? {
        Self.closest(to: name, among: definitions.map(\.long) + ["help", "version"]).map { "--\($0)" }
    }

    /// The candidate within two edits of `name` (the nearest), e.g. "tolerence" → "tolerance".
    static func closest(to name: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, Self.editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= 2, distance < best.count else { return nil }
        return best
    }

    /// `-x…` or `--x…`, but not "-" alone and not a negative number such as "-5".
    static func looksLikeFlag(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        return Double(argument) == nil
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
