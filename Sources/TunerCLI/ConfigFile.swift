import Foundation

/// The config file: standing settings under the long flag names, one `key = value` a line.
///
///     # ~/.config/tuner/config
///     a4 = 442
///     tolerance = 1        # cents
///     tuning = bass5
///     announce = true      # a flag without a value: true or false
///
/// `#` starts a comment at the start of a line or after a space (so `tuning = C#2 F#2 B2` keeps its
/// sharps); blank lines are skipped; a value may be written in double quotes. The keys are the long
/// flag names of `TunerFlags.all` except those in `TunerFlags.commandLineOnly`; each value is checked by
/// the flag's own parser. Flags on the command line win over the file.
enum ConfigFile {
    /// One setting: the line it is on (1-based), the key and the value as written (quotes removed).
    struct Entry: Equatable {
        var line: Int
        var key: String
        var value: String
    }

    /// Why a config file cannot be used: the line (nil for the whole file) and a sentence. Printed as
    /// "Error: PATH:LINE: message" and exits with `ExitCode.config`.
    struct Problem: Error, Equatable {
        var line: Int?
        var message: String
        func text(path: String) -> String { "Error: \(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
    }

    /// The file read when neither `--config` nor `--no-config` is given: `$XDG_CONFIG_HOME/tuner/config`
    /// when that variable is an absolute path (the XDG rule), else `$HOME/.config/tuner/config`; nil when
    /// neither variable is usable.
    static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/tuner/config" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/tuner/config" }
        return nil
    }

    /// The entries of `text`, or the first line that is not a setting.
    static func parse(_ text: String) throws(Problem) -> [Entry] {
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = withoutComment(raw).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(line: number, message: "expected 'key = value' (e.g. 'a4 = 442'), got '\(line)'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else {
                throw Problem(line: number, message: "a setting needs a key before '=' (e.g. 'a4 = 442')")
            }
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            entries.append(Entry(line: number, key: key, value: value))
        }
        return entries
    }

    /// The line up to a `#` that starts it or follows a blank (outside double quotes).
    private static func withoutComment(_ line: Substring) -> Substring {
        var quoted = false
        var previous: Character = " "
        for index in line.indices {
            let c = line[index]
            if c == "\"" { quoted.toggle() }
            if c == "#", !quoted, previous == " " || previous == "\t" { return line[..<index] }
            previous = c
        }
        return line
    }

    /// Applies `entries` to `options` through the flags' own parsers; records the keys in `configured`.
    static func apply(_ entries: [Entry], to options: inout TunerOptions,
                      definitions: [OptionDefinition] = TunerFlags.all) throws(Problem) {
        let settable = definitions.filter { !TunerFlags.commandLineOnly.contains($0.long) }
        for entry in entries {
            let key = entry.key.hasPrefix("--") ? String(entry.key.dropFirst(2)) : entry.key
            guard let definition = settable.first(where: { $0.long == key }) else {
                if TunerFlags.commandLineOnly.contains(key) {
                    throw Problem(line: entry.line, message: "'\(key)' cannot be set in a config file: it is "
                        + "about one run, not a standing setting; give '--\(key)' on the command line")
                }
                let hint = CommandLineParser.closest(to: key, among: settable.map(\.long))
                    .map { "; did you mean '\($0)'?" } ?? " (the keys are the long flag names, see 'tuner --help')"
                throw Problem(line: entry.line, message: "unknown key '\(key)'\(hint)")
            }
            var value = entry.value
            if definition.valueName == nil {
                switch value {
                case "true", "yes", "on": value = ""
                case "false", "no", "off": continue
                default:
                    throw Problem(line: entry.line,
                                  message: "invalid value '\(value)' for '\(key)': must be true or false")
                }
            }
            do {
                try definition.apply(&options, value)
            } catch {
                throw Problem(line: entry.line, message: "invalid value '\(entry.value)' for '\(key)': \(error.reason)")
            }
            options.configured.insert(definition.long)
        }
    }

    /// The options of a run: the config file (unless `--no-config`), then the command line over it.
    /// `commandLine` is what the command line alone gave; `arguments` are parsed again over the file's
    /// settings, so that the command line wins. Missing the usual file is not an error; missing the file
    /// named by `--config` is.
    static func resolve(_ commandLine: TunerOptions, arguments: [String], environment: [String: String],
                        parser: CommandLineParser = CommandLineParser()) throws(ResolveError) -> TunerOptions {
        if commandLine.noConfig { return commandLine }
        let named = commandLine.configFile
        guard let path = named ?? defaultPath(environment: environment) else { return commandLine }
        let text: String
        switch read(path, mustExist: named != nil) {
        case .success(nil): return commandLine
        case .success(let contents?): text = contents
        case .failure(let problem): throw .config(path: path, problem)
        }
        var base = TunerOptions()
        var entries: [Entry] = []
        do throws(Problem) {
            entries = try parse(text)
            // How the readings are shown is one choice: one made on the command line replaces the file's.
            if !commandLine.given.isDisjoint(with: modeFlags.union(["expect"])) {
                entries.removeAll { modeFlags.contains($0.key) }
            }
            // A file's standing `poly` gives way to a one-note action asked for on the command line.
            if !commandLine.given.isDisjoint(with: CommandLineParser.oneNoteFlags) {
                entries.removeAll { $0.key == "poly" || $0.key == "--poly" }
            }
            try apply(entries, to: &base)
        } catch {
            throw .config(path: path, error)
        }
        let command: ParsedCommand
        do {
            command = try parser.parse(arguments, base: base)
        } catch {
            // Some values are read only once all flags are known (a tuning with --names): a bad one from
            // the file is still the file's error, at its line.
            if case .invalidValue(let value, let label, let reason) = error {
                let key = String(label.dropFirst(2).prefix { $0 != " " })
                if !commandLine.given.contains(key),
                   let entry = entries.last(where: { $0.key == key || $0.key == "--" + key }) {
                    throw .config(path: path, Problem(line: entry.line,
                                                      message: "invalid value '\(value)' for '\(key)': \(reason)"))
                }
            }
            throw .usage(error)
        }
        guard case .run(var options) = command else { return commandLine }
        options.configRead = path
        return options
    }

    /// The flags that choose how readings are shown (`TunerCommand.Mode`).
    static let modeFlags: Set<String> = ["output", "announce", "speak"]

    enum ResolveError: Error {
        case config(path: String, Problem)
        case usage(UsageError)
    }

    /// The text of the file at `path`; nil when it does not exist and need not.
    private static func read(_ path: String, mustExist: Bool) -> Result<String?, Problem> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return mustExist ? .failure(Problem(line: nil, message: "cannot read the config file: no such file")) : .success(nil)
        }
        if isDirectory.boolValue {
            return .failure(Problem(line: nil, message: "cannot read the config file: it is a directory"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(Problem(line: nil, message: "cannot read the config file: permission denied or I/O error"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(Problem(line: nil, message: "cannot read the config file: it is not UTF-8 text"))
        }
        return .success(text)
    }
}
