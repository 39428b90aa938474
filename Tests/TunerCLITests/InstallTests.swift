import Foundation
import Testing
import TunerTestSupport
@testable import TunerCLI
import TunerMusic

/// The man page and the bash, zsh and fish completions are generated from the flag table; these tests
/// pin that every flag (whoever adds it) reaches all of them, drive the completions in the real shells,
/// render the page with man, and install and uninstall into a temporary DESTDIR with make.
@Suite struct InstallTests {
    static let packageRoot = TunerBinary.packageRoot.path

    /// The output of `tuner arguments`, which must succeed.
    static func generated(_ arguments: [String]) throws -> String {
        let result = try TunerBinary.run(arguments)
        try #require(result.status == 0, "tuner \(arguments.joined(separator: " ")): \(result.stderr)")
        #expect(result.stderr == "")
        return result.stdout
    }

    /// A program the tests need; in CI a missing one fails the test rather than skipping it.
    static func program(_ name: String) throws -> String {
        let found = ChildProcess.which(name)
        try #require(found != nil, "\(name) is not installed: it is in the Makefile's TEST_DEPS ('make test-deps')")
        return found!
    }

    static let everyFlag: [(long: String, short: Character?)] = TunerFlags.all.map { ($0.long, $0.short) }
        + HelpText.builtins.map { ($0.long, $0.short) }

    @Test func everyFlagIsInTheHelpTheManPageAndAllThreeCompletions() throws {
        let help = try Self.generated(["--help"])
        let manual = try Self.generated(["--generate-manual"])
        let bash = try Self.generated(["--generate-completion-script", "bash"])
        let zsh = try Self.generated(["--generate-completion-script", "zsh"])
        let fish = try Self.generated(["--generate-completion-script", "fish"])
        for flag in Self.everyFlag {
            let roffLong = "\\-\\-" + flag.long.replacingOccurrences(of: "-", with: "\\-")
            #expect(help.contains("--\(flag.long)"), "--\(flag.long) is not in --help")
            #expect(manual.contains("\\fB\(roffLong)\\fR"), "--\(flag.long) is not in the man page")
            #expect(bash.contains(" --\(flag.long) ") || bash.contains("--\(flag.long)|") || bash.contains(" --\(flag.long)'"),
                    "--\(flag.long) is not in the bash completion")
            #expect(["--\(flag.long)[", "--\(flag.long)=[", ",--\(flag.long)}", ",--\(flag.long)=}"].contains { zsh.contains($0) },
                    "--\(flag.long) is not in the zsh completion")
            #expect(fish.contains(" -l \(flag.long) "), "--\(flag.long) is not in the fish completion")
            if let short = flag.short {
                #expect(help.contains("-\(short), --\(flag.long)"))
                #expect(manual.contains("\\fB\\-\(short)\\fR, \\fB\(roffLong)\\fR"))
                #expect(bash.contains(" -\(short) ") || bash.contains(" -\(short)'") || bash.contains("|-\(short))"))
                #expect(zsh.contains("{-\(short)"))
                #expect(fish.contains(" -s \(short) -l \(flag.long) "))
            }
        }
    }

    /// The values come from the flag table: a "path" completes files, the rest what the flag names.
    @Test func theValuesToCompleteComeFromTheFlagTable() throws {
        func completion(_ long: String) throws -> ValueCompletion {
            try #require(TunerFlags.all.first { $0.long == long }).valueCompletion
        }
        #expect(try completion("file") == .files)
        #expect(try completion("config") == .files)
        #expect(try completion("tuning") == .choices(Tuning.presets.compactMap(\.key)))
        #expect(try completion("output") == .choices(["screen", "text", "jsonl"]))
        #expect(try completion("device") == .devices(.capture))
        #expect(try completion("playback-device") == .devices(.playback))
        #expect(try completion("a4") == .anything)
        #expect(try completion("kbm") == .files, "a value named \"file\" completes files")
        #expect(try completion("temperament") == .choicesAndFiles(Temperament.builtIns.map(\.name)))
        #expect(try completion("names") == .choices(NoteNames.allCases.map(\.rawValue)))
    }

    @Test func theManPageRendersWithEverySectionAndFlag() throws {
        let dir = try TemporaryDirectory()
        try Self.generated(["--generate-manual"]).write(toFile: dir.path("tuner.1"), atomically: true, encoding: .utf8)
        _ = try Self.program("man")
        let result = try TunerBinary.shell("MANWIDTH=100 LC_ALL=C.UTF-8 man --warnings -l '\(dir.path("tuner.1"))' 2>&1")
        #expect(result.status == 0)
        let page = result.stdout
        #expect(!page.contains("warning"), "groff warns: \(page)")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            #expect(page.contains("\n\(section)\n"), "no \(section) section")
        }
        for flag in Self.everyFlag {
            #expect(page.contains("--\(flag.long)"), "--\(flag.long) is not on the rendered page")
        }
        #expect(page.contains("~/.config/tuner/config"))
        #expect(page.contains("78"))
    }

    /// Runs bash's completion function for `line` (the cursor at its end) with the script loaded, as
    /// bash does on TAB: COMP_LINE, COMP_POINT, COMP_WORDS (split at ':' and '=' as bash splits them).
    static func bashCompletions(_ line: String, tuner: String = "tuner", in dir: TemporaryDirectory) throws -> [String] {
        let script = dir.path("tuner.bash")
        try Self.generated(["--generate-completion-script", "bash"]).write(toFile: script, atomically: true, encoding: .utf8)
        let driver = """
            source '\(script)'
            line=$1
            COMP_LINE=$line; COMP_POINT=${#line}
            words=${line//:/ : }; words=${words//=/ = }
            read -ra COMP_WORDS <<< "$words"
            [[ $line == *[[:space:]] ]] && COMP_WORDS+=("")
            COMP_WORDS[0]=$2
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _tuner
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        try driver.write(toFile: dir.path("drive.sh"), atomically: true, encoding: .utf8)
        let result = try TunerBinary.shell("cd '\(dir.url.path)' && bash drive.sh '\(line)' '\(tuner)'")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesPresetsFormatsFlagsAndFiles() throws {
        let dir = try TemporaryDirectory()
        #expect(try Self.bashCompletions("tuner --tuning bas", in: dir) == ["bass", "bass5", "bass6"])
        #expect(try Self.bashCompletions("tuner --tuning=bas", in: dir) == ["bass", "bass5", "bass6"])
        #expect(try Self.bashCompletions("tuner --output ", in: dir) == ["jsonl", "screen", "text"])
        #expect(try Self.bashCompletions("tuner --generate-completion-script ", in: dir) == ["bash", "fish", "zsh"])
        #expect(try Self.bashCompletions("tuner --no-c", in: dir) == ["--no-config"])
        #expect(try Self.bashCompletions("tuner --a4 ", in: dir) == [])
        #expect(try Self.bashCompletions("tuner --temperament mean", in: dir) == ["meantone"])
        #expect(try Self.bashCompletions("tuner --names g", in: dir) == ["german"])
        try Data().write(to: dir.url.appendingPathComponent("guitar.wav"))
        #expect(try Self.bashCompletions("tuner -f \(dir.url.path)/gui", in: dir) == ["\(dir.url.path)/guitar.wav"])
    }

    /// A stand-in for `tuner` in `dir` that lists three capture devices for `--list-devices`, two
    /// playback devices for `--list-playback-devices`, and fails on anything else.
    static func fakeDeviceLister(in dir: TemporaryDirectory) throws -> String {
        let fake = dir.path("tuner")
        try """
            #!/bin/sh
            case "$*" in
            "--no-config --list-devices")
                printf 'default       Default ALSA Output\\nhw:CARD=USB,DEV=0  USB Audio\\npulse         PulseAudio\\n' ;;
            "--no-config --list-playback-devices")
                printf 'default  Default ALSA Output\\nhdmi:CARD=HDMI,DEV=0  HDMI out\\n' ;;
            *) exit 64 ;;
            esac
            """.write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        return fake
    }

    /// Devices come from `tuner --list-devices` (capture) or `--list-playback-devices` run at completion
    /// time (here a stand-in), and a name with a colon completes in the part bash replaces (after the colon).
    @Test func bashCompletesDevicesFromTheirListings() throws {
        let dir = try TemporaryDirectory()
        let fake = try Self.fakeDeviceLister(in: dir)
        #expect(try Self.bashCompletions("tuner --device ", tuner: fake, in: dir) == ["default", "hw:CARD=USB,DEV=0", "pulse"])
        #expect(try Self.bashCompletions("tuner -d p", tuner: fake, in: dir) == ["pulse"])
        #expect(try Self.bashCompletions("tuner --device hw:C", tuner: fake, in: dir) == ["CARD=USB,DEV=0"])
        #expect(try Self.bashCompletions("tuner --playback-device ", tuner: fake, in: dir) == ["default", "hdmi:CARD=HDMI,DEV=0"])
        #expect(try Self.bashCompletions("tuner --playback-device h", tuner: fake, in: dir) == ["hdmi:CARD=HDMI,DEV=0"])
    }

    @Test func fishCompletesPresetsFormatsAndDevices() throws {
        let fish = try Self.program("fish")
        let dir = try TemporaryDirectory()
        _ = try Self.fakeDeviceLister(in: dir)
        try Self.generated(["--generate-completion-script", "fish"]).write(toFile: dir.path("tuner.fish"), atomically: true, encoding: .utf8)
        func complete(_ line: String) throws -> [String] {
            let result = try TunerBinary.shell("PATH='\(dir.url.path)':\"$PATH\" HOME='\(dir.url.path)' XDG_CONFIG_HOME='\(dir.url.path)' XDG_DATA_HOME='\(dir.url.path)' '\(fish)' --no-config -c \"source '\(dir.path("tuner.fish"))'; complete -C '\(line)'\"")
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try complete("tuner --tuning bas") == ["bass", "bass5", "bass6"])
        #expect(try complete("tuner --output j") == ["jsonl"])
        #expect(try complete("tuner --no-conf") == ["--no-config"])
        #expect(try complete("tuner --device p") == ["pulse"])
        #expect(try complete("tuner --playback-device ") == ["default", "hdmi:CARD=HDMI,DEV=0"])
    }

    @Test func zshCompletionParses() throws {
        let zsh = try Self.program("zsh")
        let dir = try TemporaryDirectory()
        try Self.generated(["--generate-completion-script", "zsh"]).write(toFile: dir.path("_tuner"), atomically: true, encoding: .utf8)
        let result = try TunerBinary.shell("'\(zsh)' -n '\(dir.path("_tuner"))'")
        #expect(result.status == 0, "zsh -n: \(result.stderr)")
        let bash = try TunerBinary.shell("\"$TUNER\" --generate-completion-script bash | bash -n")
        #expect(bash.status == 0, "bash -n: \(bash.stderr)")
    }

    /// `make install DESTDIR=… PREFIX=…` puts the five files in their places; `make uninstall` removes
    /// them all.
    @Test(arguments: ["/usr/local", "/usr"])
    func makeInstallThenUninstallLeavesNothing(prefix: String) throws {
        let dir = try TemporaryDirectory()
        let stage = dir.path("stage")
        let make = "make --no-print-directory -C '\(Self.packageRoot)' DESTDIR='\(stage)' PREFIX='\(prefix)' "
            + "TUNER_BIN=\"$TUNER\" GENERATED='\(dir.path("generated"))'"
        let installed = try TunerBinary.shell("\(make) install 2>&1", timeout: 300)
        #expect(installed.status == 0, "make install: \(installed.stdout)")
        let zsh = prefix == "/usr" ? "vendor-completions" : "site-functions"
        let expected = ["bin/tuner", "share/man/man1/tuner.1.gz", "share/bash-completion/completions/tuner",
                        "share/zsh/\(zsh)/_tuner", "share/fish/vendor_completions.d/tuner.fish"]
            .map { stage + prefix + "/" + $0 }
        for file in expected { #expect(FileManager.default.fileExists(atPath: file), "\(file) is missing") }
        let version = try TunerBinary.shell("'\(stage + prefix)/bin/tuner' --version")
        #expect(version.stdout.hasPrefix("tuner 0.1.0 (commit "))
        let page = try TunerBinary.shell("gzip -dc '\(stage + prefix)/share/man/man1/tuner.1.gz'")
        #expect(page.stdout == (try Self.generated(["--generate-manual"])))

        let removed = try TunerBinary.shell("\(make) uninstall 2>&1")
        #expect(removed.status == 0, "make uninstall: \(removed.stdout)")
        let left = try TunerBinary.shell("find '\(stage)' -type f -o -type l")
        #expect(left.stdout == "", "left behind: \(left.stdout)")
    }
}
