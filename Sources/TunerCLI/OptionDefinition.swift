/// One flag of the command line: its names, its value, its help, and how it changes the options.
/// The parser, the usage line and the help text are all made from a list of these.
struct OptionDefinition: Sendable {
    /// The long name without dashes: "tolerance" for `--tolerance`.
    var long: String
    /// The one-letter name without the dash: "t" for `-t`.
    var short: Character?
    /// The name of the value in help and errors ("cents" → `<cents>`); nil for a flag without a value.
    var valueName: String?
    /// An example value, used when an error says how to fix a missing value.
    var example: String?
    /// One or two sentences for `--help`.
    var help: String
    /// The default as the help shows it, read from `TunerOptions()`; nil when there is none to show.
    var defaultText: (@Sendable (TunerOptions) -> String?)?
    /// What shells complete after the flag (`--generate-completion-script`); nil: files for a value named
    /// "path" or "file", nothing for any other value (`valueCompletion`).
    var completion: ValueCompletion? = nil
    /// Parses `value` (empty for a flag without a value) into `options`, or says why it is invalid.
    var apply: @Sendable (inout TunerOptions, String) throws(InvalidValue) -> Void

    /// Why a value was refused, completing "Invalid value 'x' for '--flag <v>': …".
    struct InvalidValue: Error, Sendable, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `--tolerance <cents>`, as errors name the flag.
    var label: String { valueName.map { "--\(long) <\($0)>" } ?? "--\(long)" }
    /// `-t, --tolerance <cents>`, as the help lists it.
    var helpLabel: String { (short.map { "-\($0), " } ?? "") + label }
    /// What shells complete after the flag: `completion`, else files for a "path" or "file", else nothing.
    var valueCompletion: ValueCompletion {
        completion ?? (valueName == "path" || valueName == "file" ? .files : .anything)
    }
}
