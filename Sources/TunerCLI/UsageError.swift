/// A command line that cannot be run. Its `message` names the bad flag and value and says how to fix
/// it; `TunerCommand` prints it with the usage line and exits with `ExitCode.usage`.
public enum UsageError: Error, Sendable, Equatable {
    case unknownOption(String, suggestion: String?)
    case missingValue(label: String, example: String?)
    case invalidValue(value: String, label: String, reason: String)
    case valueNotAllowed(label: String, value: String)
    case unexpectedArgument(String)
    case conflict(String)

    public var message: String {
        switch self {
        case .unknownOption(let name, let suggestion):
            return "Unknown option '\(name)'" + (suggestion.map { ". Did you mean '\($0)'?" } ?? ".")
        case .missingValue(let label, let example):
            let flag = label.split(separator: " ").first.map(String.init) ?? label
            return "Missing value for '\(label)'" + (example.map { ": give one, e.g. '\(flag) \($0)'." } ?? ".")
        case .invalidValue(let value, let label, let reason):
            return "Invalid value '\(value)' for '\(label)': \(reason)."
        case .valueNotAllowed(let label, let value):
            return "The flag '\(label)' takes no value (got '\(value)'); write it alone."
        case .unexpectedArgument(let argument):
            let hint = argument.hasPrefix("-") ? "" : "; to tune a file, write '--file \(argument)'"
            return "Unexpected argument '\(argument)'\(hint)."
        case .conflict(let text):
            return text
        }
    }
}
