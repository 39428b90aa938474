import Testing

/// Misuse exits with 64 and says, on stderr, which flag and value are wrong, then the usage line and
/// where to find help — as swift-argument-parser tools do.
@Suite struct UsageErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["--tolerance", "99"],
             message: "Error: Invalid value '99' for '--tolerance <cents>': must be between 0.1 and 50."),
        Case(arguments: ["-t", "0.05"],
             message: "Error: Invalid value '0.05' for '--tolerance <cents>': must be between 0.1 and 50."),
        Case(arguments: ["--tolerance=abc"],
             message: "Error: Invalid value 'abc' for '--tolerance <cents>': must be a number between 0.1 and 50."),
        Case(arguments: ["-t", "nan"],
             message: "Error: Invalid value 'nan' for '--tolerance <cents>': must be a number between 0.1 and 50."),
        Case(arguments: ["--a4", "500"],
             message: "Error: Invalid value '500' for '--a4 <hz>': must be between 400 and 480."),
        Case(arguments: ["--a4", "-440"],
             message: "Error: Invalid value '-440' for '--a4 <hz>': must be between 400 and 480."),
        Case(arguments: ["--a4="],
             message: "Error: Invalid value '' for '--a4 <hz>': must be a number between 400 and 480."),
        Case(arguments: ["--output", "xml"],
             message: "Error: Invalid value 'xml' for '--output <format>': must be one of screen, text, jsonl."),
        Case(arguments: ["--channel", "0"],
             message: "Error: Invalid value '0' for '--channel <n>': must be a whole number, 1 or more."),
        Case(arguments: ["--channel", "1.5"],
             message: "Error: Invalid value '1.5' for '--channel <n>': must be a whole number, 1 or more."),
        Case(arguments: ["--rate", "4000"],
             message: "Error: Invalid value '4000' for '--rate <hz>': must be a whole number of Hz between 8000 and 192000."),
        Case(arguments: ["--tolerance"],
             message: "Error: Missing value for '--tolerance <cents>': give one, e.g. '--tolerance 5'."),
        Case(arguments: ["--file", "--output", "jsonl"],
             message: "Error: Missing value for '--file <path>': give one, e.g. '--file guitar.wav'."),
        Case(arguments: ["-f"],
             message: "Error: Missing value for '--file <path>': give one, e.g. '--file guitar.wav'."),
        Case(arguments: ["--bogus"],
             message: "Error: Unknown option '--bogus'."),
        Case(arguments: ["--tolerence", "5"],
             message: "Error: Unknown option '--tolerence'. Did you mean '--tolerance'?"),
        Case(arguments: ["-x"],
             message: "Error: Unknown option '-x'."),
        Case(arguments: ["-file", "a.wav"],
             message: "Error: Unknown option '-file'. Did you mean '--file'?"),
        Case(arguments: ["a.wav"],
             message: "Error: Unexpected argument 'a.wav'; to tune a file, write '--file a.wav'."),
        Case(arguments: ["--file", "a.wav", "--", "b.wav"],
             message: "Error: Unexpected argument 'b.wav'; to tune a file, write '--file b.wav'."),
        Case(arguments: ["--list-devices=yes"],
             message: "Error: The flag '--list-devices' takes no value (got 'yes'); write it alone."),
        Case(arguments: ["--file", "a.wav", "--device", "hw:1"],
             message: "Error: '--file' and '--device' cannot be used together: '--device' is for live input; leave out one of them."),
        Case(arguments: ["--tuning", "H9 A2"],
             message: "Error: Invalid value 'H9 A2' for '--tuning <name|notes>': \"H9\" is not a note: write a letter "
                + "A to G, an optional sharp (# or ♯) or flat (b or ♭), and an octave from 0 to 9, "
                + "e.g. --tuning \"D2 A2 D3 G3 B3 E4\"."),
        Case(arguments: ["--tuning", ""],
             message: "Error: Invalid value '' for '--tuning <name|notes>': the tuning is empty: give a preset name "
                + "(see --list-tunings) or the strings' notes, lowest string first, e.g. --tuning \"D2 A2 D3 G3 B3 E4\"."),
        Case(arguments: ["--tuning", "E2 A2 D3 G3 B3 E4 E2 A2 D3 G3 B3 E4 E5"],
             message: "Error: Invalid value 'E2 A2 D3 G3 B3 E4 E2 A2 D3 G3 B3 E4 E5' for '--tuning <name|notes>': "
                + "13 strings is too many: a tuning has at most 12 strings; list one note per string, "
                + "e.g. --tuning \"D2 A2 D3 G3 B3 E4\"."),
        Case(arguments: ["--tuning=drop-q"],
             message: "Error: Invalid value 'drop-q' for '--tuning <name|notes>': unknown tuning \"drop-q\": use a "
                + "preset name (see --list-tunings) or a list of notes, e.g. --tuning \"D2 A2 D3 G3 B3 E4\"."),
        Case(arguments: ["--expect", "A2"],
             message: "Error: '--expect' needs '--file': it checks the settled pitch of a recording; add "
                + "'--file <path>', e.g. 'tuner --file a2.wav --expect A2'."),
        Case(arguments: ["--file", "a.wav", "--expect", "H2"],
             message: "Error: Invalid value 'H2' for '--expect <note>': must be a note: a letter A to G, an optional "
                + "sharp (# or ♯) or flat (b or ♭), and an octave from 0 to 9, e.g. A2, F#3 or Bb1."),
        Case(arguments: ["--file", "a.wav", "--expect", "A2", "--announce"],
             message: "Error: '--expect' and '--announce' cannot be used together: '--expect' prints only its "
                + "verdict; leave out '--announce'."),
        Case(arguments: ["--announce", "--output", "jsonl"],
             message: "Error: '--announce' and '--output' cannot be used together: '--announce' replaces the output "
                + "with the settled notes; leave out one of them."),
    ]

    @Test(arguments: cases)
    func misuseExits64NamingTheFlag(_ c: Case) throws {
        let result = try TunerBinary.run(c.arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == c.message)
        #expect(lines.count >= 3)
        #expect(lines.dropFirst().first?.hasPrefix("Usage: tuner [--file <path>]") == true)
        #expect(result.stderr.hasSuffix("\n  See 'tuner --help' for more information.\n"))
    }
}
