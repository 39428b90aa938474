import Foundation

/// The text of `tuner --help` and the usage line of errors, made from the flag definitions and the
/// defaults of `TunerOptions()`.
enum HelpText {
    static let name = "tuner"
    static let version = "0.1.0"
    /// `tuner --version`: the version and the commit the binary was built from (`buildCommit`, written
    /// before each build by the CommitStamp plugin; empty outside a git checkout).
    static var versionLine: String {
        "\(name) \(version) (commit \(buildCommit.isEmpty ? "unknown" : buildCommit))"
    }
    static let width = 80

    static func usage(_ definitions: [OptionDefinition] = TunerFlags.all) -> String {
        let parts = definitions.map { "[\($0.label)]" }
        return wrap(["Usage:", name] + parts, width: width, indent: "       ").joined(separator: "\n")
    }

    static func render(_ definitions: [OptionDefinition] = TunerFlags.all, defaults: TunerOptions = TunerOptions()) -> String {
        var lines: [String] = []
        lines += wrapText("OVERVIEW: " + overview, indent: "")
        lines.append("")
        lines += wrap(["USAGE:", name] + definitions.map { "[\($0.label)]" }, width: width, indent: "       ")
        lines.append("")
        lines.append("OPTIONS:")
        let rows = definitions.map { d -> (String, String) in
            let shown = d.defaultText?(defaults).map { " (default:\(nonBreakingSpace)\($0))" } ?? ""
            return (d.helpLabel, d.help + shown)
        } + builtins.map { ($0.label, $0.help) }
        let column = 26
        for (label, text) in rows {
            let padded = "  " + label
            var body = wrapText(text, indent: String(repeating: " ", count: column))
            if padded.count + 2 <= column {
                body[0] = padded + String(repeating: " ", count: column - padded.count) + body[0].dropFirst(column)
                lines += body
            } else {
                lines.append(padded)
                lines += body
            }
        }
        lines.append("")
        lines.append("OUTPUT (--output jsonl): one JSON object per reading, in order, e.g.")
        lines.append("  {\"time\":1.23,\"frequency\":109.536,\"note\":\"A2\",\"cents\":-7.3,\"in_tune\":false,\"level_db\":-12.5}")
        lines += wrapText("time: seconds of input consumed; frequency (Hz, unrounded), note and cents (clamped "
                          + "to ±50) are null when there is no pitch; in_tune: |cents| ≤ tolerance; level_db: "
                          + "input level in dBFS.", indent: "  ")
        lines += wrapText("With --tuning, each line adds \"string\" (1 = first), \"target\" (its note), "
                          + "\"target_cents\" (cents from it, unclamped) and \"target_in_tune\"; after the "
                          + "reading at which a note settled (held steady for 0.5 s) comes a line "
                          + "{\"event\":\"settled\",…} with time, start, string, target, frequency, cents (from "
                          + "the target, the median of the steady time), in_tune and target_frequency.", indent: "  ")
        lines += wrapText("Notes are named by --names and --transpose (the written note); with --temperament, "
                          + "cents are from the tempered target.", indent: "  ")
        lines.append("")
        lines += wrapText("SCREEN: " + screen, indent: "")
        lines.append("")
        lines.append("EXIT CODES:")
        for (code, text) in ExitCode.documented {
            let label = "  \(code.rawValue)"
            var body = wrapText(text, indent: String(repeating: " ", count: 8))
            body[0] = label + String(repeating: " ", count: 8 - label.count) + body[0].dropFirst(8)
            lines += body
        }
        lines.append("")
        lines.append("EXAMPLES:")
        lines += examples.map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    static let overview = "A tuner for the terminal: play a note and read its name, frequency and how many cents "
        + "it is sharp or flat."

    /// `--version` and `--help`, which the parser handles before the flag table.
    static let builtins: [(label: String, long: String, short: Character?, help: String)] = [
        ("--version", "version", nil, "Show the version and the commit it was built from."),
        ("-h, --help", "help", "h", "Show help information."),
    ]

    /// What the screen shows and its keys (the help's SCREEN paragraph, the man page's KEYS).
    static let screen = "the note, its frequency and cents on a needle over ±50 ¢ with the tolerance "
        + "zone; keys: q or Esc quit, + and - change the tolerance, [ and ] move A4 by 1 Hz, "
        + "s shows the strobe band (it drifts left when flat, right when sharp), t plays the "
        + "target note (input is ignored while it sounds), h shows the last 10 s as a graph "
        + "of cents. With --tuning, "
        + "a row of the strings shows the target one as [A2] and ✓ on strings that settled in "
        + "tune; 1…9 lock a string, 0 returns to automatic. The status line names the "
        + "temperament, capo, transposition and names in force (and the config file read). With no capture "
        + "device, 'tuner' shows a built-in demo. NO_COLOR turns colours off."

    /// Command lines for the help's and the man page's EXAMPLES.
    static let examples: [String] = [
        "tuner",
        "tuner --device hw:1 --rate 44100",
        "tuner --file guitar.wav",
        "tuner -f bass.flac --channel 1 --a4 442 -t 2",
        "tuner --file guitar.wav --output jsonl | head -3",
        "tuner --tuning drop-d",
        "tuner --tuning \"D2 G2 D3 G3 B3 D4\" --announce",
        "tuner --file a2.wav --expect A2 -t 2 && echo in tune",
        "tuner --temperament meantone --root D",
        "tuner --file e4.wav --expect E4 --temperament werck3.scl",
        "tuner --transpose Bb --names german",
        "tuner --tuning guitar --capo 2 --offsets \"0 -2 0 0 -1.5 0\"",
        "arecord -q -f S16_LE -r 48000 -c 1 -t wav | tuner --file - --output jsonl",
        "sox song.mp3 -t wav - | tuner --file -",
        "tuner --config ~/bass.conf",
    ]

    /// Words joined into lines of at most `width` characters; lines after the first start with `indent`.
    static func wrap(_ words: [String], width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = (lines.isEmpty ? "" : indent) + word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = indent + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A paragraph wrapped to the help width, every line starting with `indent`.
    static func wrapText(_ text: String, indent: String) -> [String] {
        let words = text.split(separator: " ").map(String.init)
        guard let first = words.first else { return [indent] }
        return wrap([indent + first] + words.dropFirst(), width: width, indent: indent)
            .map { $0.replacingOccurrences(of: nonBreakingSpace, with: " ") }
    }

    /// Joins words that must stay on one line, such as "(default: text)"; printed as a plain space.
    static let nonBreakingSpace = "\u{00A0}"
}
