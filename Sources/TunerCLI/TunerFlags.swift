import TunerAudio
import TunerBridge
import TunerMusic

/// The flags of `tuner`, in the order the help lists them. Adding a flag is adding an entry here
/// (and a field with its default to `TunerOptions`); the help, the man page, the shell completions and
/// the config file's keys all follow from this table.
enum TunerFlags {
    /// Every flag: what to tune and how, then the flags about tuner itself (config, man page, completions).
    static let all: [OptionDefinition] = tuningFlags + setupFlags

    static let tuningFlags: [OptionDefinition] = [
        OptionDefinition(
            long: "file", short: "f", valueName: "path", example: "guitar.wav",
            help: "Tune from an audio file: WAV, FLAC, AIFF, OGG… at \(Limits.sampleRate.lowerBound)…\(Limits.sampleRate.upperBound) Hz; several channels are mixed to mono. '--file -' reads standard input (a pipe).",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard !value.isEmpty else { throw .init("must be the path of an audio file") }
                options.file = value
            }),
        OptionDefinition(
            long: "channel", short: nil, valueName: "n", example: "1",
            help: "Analyse only channel n of the file (1 = first) instead of the mix of all channels.",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let n = Int(value), n >= 1 else { throw .init("must be a whole number, 1 or more") }
                options.channel = n
            }),
        OptionDefinition(
            long: "tolerance", short: "t", valueName: "cents", example: "5",
            help: "A note is in tune when it is within this many cents of the nearest note (with --tuning, "
                + "of the target string), \(range(Limits.tolerance)).",
            defaultText: { number($0.tolerance.value) },
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                options.tolerance = Cents(try parse(value, in: Limits.tolerance))
            }),
        OptionDefinition(
            long: "a4", short: nil, valueName: "hz", example: "442",
            help: "Reference pitch: the frequency of A4 in Hz, \(range(Limits.a4)).",
            defaultText: { number($0.a4.value) },
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                options.a4 = Hertz(try parse(value, in: Limits.a4))
            }),
        OptionDefinition(
            long: "output", short: nil, valueName: "format", example: "jsonl",
            help: "How readings are shown: screen (the live tuner; a file plays at real-time pace), text (one "
                + "line per reading) or jsonl (one JSON object per reading); text and jsonl run as fast as "
                + "they can. The default is screen when standard output is a terminal, else text.",
            defaultText: { $0.output?.rawValue ?? OutputFormat.automaticDescription },
            completion: .choices(OutputFormat.allCases.map(\.rawValue)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let format = OutputFormat(rawValue: value) else {
                    throw .init("must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.output = format
            }),
        OptionDefinition(
            long: "device", short: "d", valueName: "name", example: "hw:1",
            help: "ALSA capture device for live input, e.g. default, hw:1 or plughw:1,0 (see --list-devices).",
            defaultText: { $0.device },
            completion: .devices(.capture),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard !value.isEmpty else { throw .init("must be an ALSA device name, e.g. default or hw:1") }
                options.device = value
            }),
        OptionDefinition(
            long: "rate", short: nil, valueName: "hz", example: "44100",
            help: "Sample rate asked of the capture device, \(Limits.sampleRate.lowerBound)…"
                + "\(Limits.sampleRate.upperBound) Hz.",
            defaultText: { String($0.rate) },
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                let r = Limits.sampleRate
                guard let rate = Int(value), r.contains(rate) else {
                    throw .init("must be a whole number of Hz between \(r.lowerBound) and \(r.upperBound)")
                }
                options.rate = rate
            }),
        OptionDefinition(
            long: "list-devices", short: nil, valueName: nil, example: nil,
            help: "List the capture devices (name and description) and exit.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.listDevices = true }),
        OptionDefinition(
            long: "list-playback-devices", short: nil, valueName: nil, example: nil,
            help: "List the playback devices for --playback-device (name and description) and exit.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.listPlaybackDevices = true }),
        OptionDefinition(
            long: "tuning", short: nil, valueName: "name|notes", example: "drop-d",
            help: "Tune an instrument: a preset (see --list-tunings) or the strings' notes, lowest-pitched "
                + "side first, e.g. \"D2 A2 D3 G3 B3 E4\". Cents are then measured from the target string, "
                + "picked automatically (on the screen keys 1…9 lock one); text and jsonl lines add it.",
            defaultText: { $0.tuning.map { $0.key ?? "custom" } ?? "chromatic" },
            completion: .choices(Tuning.presets.compactMap(\.key)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                options.tuningText = value  // read with --names and --transpose, see `TunerFlags.finish`
            }),
        OptionDefinition(
            long: "list-tunings", short: nil, valueName: nil, example: nil,
            help: "List the built-in tunings (name, notes, instrument) and exit.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.listTunings = true }),
        OptionDefinition(
            long: "announce", short: nil, valueName: nil, example: nil,
            help: "Print one plain line per settled note (\"E2, 4 cents flat\", \"A2 in tune\") and nothing "
                + "else, for screen readers and braille displays: a file as fast as it can be analysed, live "
                + "input as the notes settle.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.announce = true }),
        OptionDefinition(
            long: "speak", short: nil, valueName: nil, example: nil,
            help: "Say each settled note (with --poly, each strum's line) through espeak-ng (it must be "
                + "installed), played through --playback-device; with live input the tuner ignores the input "
                + "while it speaks. Add --announce to print the lines too.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.speak = true }),
        OptionDefinition(
            long: "expect", short: nil, valueName: "note", example: "A2",
            help: "With --file: exit 0 when the file's settled pitch (its last settled note) is this note within "
                + "the tolerance, else 1, printing by how much.",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                options.expectText = value  // read with --names and --transpose, see `TunerFlags.finish`
            }),
    ] + tuningSystems

    /// The flags of tuning systems (issue 14), kept together.
    static let tuningSystems: [OptionDefinition] = [
        OptionDefinition(
            long: "temperament", short: nil, valueName: "name|file", example: "meantone",
            help: "The temperament targets are tuned in: \(Temperament.builtIns.map(\.name).joined(separator: ", ")), "
                + "NNedo (N equal divisions of the octave, \(Limits.edo.lowerBound)…\(Limits.edo.upperBound), e.g. "
                + "19edo), or a Scala scale file ending in .scl. The note A keeps --a4; the others follow the "
                + "temperament's intervals above --root.",
            defaultText: { $0.temperament },
            completion: .choicesAndFiles(Temperament.builtIns.map(\.name)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard value.lowercased().hasSuffix(".scl") || Temperament.named(value) != nil else {
                    throw .init("must be one of \(Temperament.builtIns.map(\.name).joined(separator: ", ")), NNedo "
                                + "(\(Limits.edo.lowerBound)…\(Limits.edo.upperBound), e.g. 19edo) or a Scala file "
                                + "ending in .scl; see --list-tunings")
                }
                options.temperament = value
            }),
        OptionDefinition(
            long: "root", short: nil, valueName: "note", example: "D",
            help: "The key the temperament is built on: a note name without octave, e.g. C, D, Eb, F#.",
            defaultText: { NoteNames.english.pitchClasses[$0.root] },
            completion: .choices(NoteNames.english.pitchClasses),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                options.rootText = value  // read with --names, see `TunerFlags.finish`
            }),
        OptionDefinition(
            long: "kbm", short: nil, valueName: "file", example: "a415.kbm",
            help: "A Scala keyboard mapping for a .scl temperament: the scale degree each MIDI key plays (keys "
                + "it leaves out are no target), and its reference note's frequency (instead of A4 at --a4).",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard !value.isEmpty else { throw .init("must be the path of a Scala .kbm file") }
                options.kbm = value
            }),
        OptionDefinition(
            long: "transpose", short: nil, valueName: "key", example: "Bb",
            help: "For a transposing instrument: \(Transposition.keys.map(\.name).joined(separator: ", ")), or the "
                + "signed semitones from written to sounding pitch (Bb is -2). Every note shown, printed, "
                + "announced or expected is then the written note; frequencies stay concert pitch.",
            defaultText: nil,
            completion: .choices(Transposition.keys.map(\.name)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let semitones = Transposition.parse(value) else {
                    throw .init("must be a key (\(Transposition.keys.map(\.name).joined(separator: ", "))) or a signed "
                                + "number of semitones, \(Limits.transposition.lowerBound)…"
                                + "\(Limits.transposition.upperBound), e.g. --transpose Bb or --transpose -2")
                }
                options.transposition = semitones
            }),
        OptionDefinition(
            long: "capo", short: nil, valueName: "fret", example: "2",
            help: "With --tuning: a capo on this fret (\(Limits.capo.lowerBound)…\(Limits.capo.upperBound)) raises "
                + "every string's target that many semitones.",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let fret = Int(value), Limits.capo.contains(fret) else {
                    throw .init("must be a whole number of frets, \(Limits.capo.lowerBound)…\(Limits.capo.upperBound)")
                }
                options.capo = fret
            }),
        OptionDefinition(
            long: "names", short: nil, valueName: "scheme", example: "german",
            help: "How notes are written: english (C D E F G A B), german (B♭ is B, B is H) or solfege (fixed do: "
                + "Do Re Mi Fa Sol La Si). --expect, --tuning and --root accept them as well as English names.",
            defaultText: { $0.names.rawValue },
            completion: .choices(NoteNames.allCases.map(\.rawValue)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let names = NoteNames(rawValue: value.lowercased()) else {
                    throw .init("must be one of \(NoteNames.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.names = names
            }),
        OptionDefinition(
            long: "stretch", short: nil, valueName: "curve", example: "piano",
            help: "Targets follow a stretch curve: none, or piano (octaves widened as a piano is tuned, from its "
                + "strings' inharmonicity: A0 \(PianoStretch.label(atMIDI: 21)) ¢, C8 \(PianoStretch.label(atMIDI: 108)) ¢; "
                + "A4 keeps --a4; see --list-tunings).",
            defaultText: { $0.stretch.rawValue },
            completion: .choices(Stretch.allCases.map(\.rawValue)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let stretch = Stretch(rawValue: value.lowercased()) else {
                    throw .init("must be one of \(Stretch.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.stretch = stretch
            }),
        OptionDefinition(
            long: "offsets", short: nil, valueName: "cents", example: "\"0 -2 0 0 -1.5 0\"",
            help: "With --tuning: cents added to each string's target, one per string in string order, "
                + "\(range(Limits.offset)) in steps of 0.1 (a sweetened tuning), e.g. \"0 -2 0 0 -1.5 0\".",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                let words = value.split(whereSeparator: { $0 == " " || $0 == "," })
                var offsets: [Cents] = []
                for word in words {
                    guard let cents = DecimalNumber.parse(word), Limits.offset.contains(cents),
                          abs(cents * 10 - (cents * 10).rounded()) < 1e-9 else {
                        throw .init("\"\(word)\" is not an offset: give one number of cents per string, "
                                    + "\(range(Limits.offset)) in steps of 0.1, e.g. --offsets \"0 -2 0 0 -1.5 0\"")
                    }
                    offsets.append(Cents(cents))
                }
                guard !offsets.isEmpty else {
                    throw .init("give one number of cents per string, e.g. --offsets \"0 -2 0 0 -1.5 0\"")
                }
                options.offsets = offsets
            }),
        // ---- Sound out and pictures (issue 17): the reference tone, the chimes, the history plot ----
        OptionDefinition(
            long: "tone", short: nil, valueName: "note", example: "A4",
            help: "Play this note (a pitch pipe) through --playback-device for --duration seconds and exit; "
                + "it follows --a4. On the screen, key t plays the target note instead.",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let note = Note(parsing: value) else {
                    throw .init("must be a note: a letter A to G, an optional sharp (# or ♯) or flat (b or ♭), "
                                + "and an octave from 0 to 9, e.g. A4, E2 or Bb3")
                }
                options.tone = note
            }),
        OptionDefinition(
            long: "duration", short: nil, valueName: "seconds", example: "3",
            help: "How long --tone (and key t on the screen) plays, \(range(TunerOptions.durationRange)) s.",
            defaultText: { number($0.duration) },
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                options.duration = try parse(value, in: TunerOptions.durationRange)
            }),
        OptionDefinition(
            long: "tone-timbre", short: nil, valueName: "timbre", example: "pluck",
            help: "How the reference tone sounds: sine (a plain sine) or pluck (a plucked string).",
            defaultText: { $0.toneTimbre.rawValue },
            completion: .choices(Sounds.Timbre.allCases.map(\.rawValue)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let timbre = Sounds.Timbre(rawValue: value) else {
                    throw .init("must be one of \(Sounds.Timbre.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.toneTimbre = timbre
            }),
        OptionDefinition(
            long: "playback-device", short: nil, valueName: "name", example: "hw:0",
            help: "ALSA playback device for the tone, the chimes and --speak, e.g. default, pulse or hw:0 "
                + "(see --list-playback-devices).",
            defaultText: { $0.playbackDevice },
            completion: .devices(.playback),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard !value.isEmpty else { throw .init("must be an ALSA device name, e.g. default or hw:0") }
                options.playbackDevice = value
            }),
        OptionDefinition(
            long: "chime", short: nil, valueName: nil, example: nil,
            help: "Sound a short, quiet click through --playback-device each time a note settles: two high "
                + "ticks in tune, one low knock out of tune (with --poly, each time a strum settles: in tune "
                + "when every string heard is). Input is ignored while it sounds. With the screen, --announce "
                + "or --speak.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.chime = true }),
        OptionDefinition(
            long: "plot", short: nil, valueName: "file.svg", example: "a2.svg",
            help: "With --file: analyse the whole file, then write an SVG graph of it to this path: cents from "
                + "the nearest note (with --tuning, the target string) against time, with the note names, the "
                + "tolerance band and gaps where there was no pitch.",
            defaultText: nil,
            completion: .files,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard !value.isEmpty else { throw .init("must be the path of the SVG file to write") }
                options.plot = value
            }),
        // --poly (polyphonic strums): one block.
        OptionDefinition(
            long: "poly", short: nil, valueName: nil, example: nil,
            help: "Strum all strings and read each one at once (needs --tuning): every string's cents from its "
                + "own target, or not heard; jsonl and text give a line per reading, --announce a line per "
                + "strum once its strings have settled; on the screen p switches between all strings and one.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.poly = true }),
    ]

    /// Reads the flags whose meaning depends on others (`--tuning`, `--expect` and `--root` are written in
    /// the `--names` scheme; `--expect` and `--tuning` in written pitch with `--transpose`) once every flag
    /// is known. Throws the error of the flag at fault.
    static func finish(_ options: inout TunerOptions) throws(UsageError) {
        func label(_ long: String) -> String { all.first { $0.long == long }!.label }
        let names = options.names
        if let text = options.rootText {
            guard let note = names.parse(text + "4") else {
                throw .invalidValue(value: text, label: label("root"), reason: "must be a note name without octave, "
                                    + "e.g. C, D, Eb or F#")
            }
            options.root = note.pitchClass
        }
        let builtIn = options.temperamentIsFile ? nil : Temperament.named(options.temperament)
        let system = options.system(temperament: builtIn ?? .equal)
        if let text = options.tuningText {
            do throws(TuningError) {
                var tuning = try Tuning.resolve(text, names: names)
                if options.transposition != 0 {
                    tuning.strings = tuning.strings.map { Note(midi: $0.midi + options.transposition) }
                }
                if options.capo != 0 { tuning = tuning.capo(options.capo) }
                if names != .english || options.transposition != 0 || options.capo != 0 {
                    tuning.labels = tuning.strings.map { system.name(of: $0) }
                }
                options.tuning = tuning
            } catch {
                throw .invalidValue(value: text, label: label("tuning"), reason: UsageMessages.message(for: error))
            }
        }
        if let text = options.expectText {
            do throws(ExpectationError) {
                options.expect = try Expectation(parsing: text, system: system).note
            } catch {
                throw .invalidValue(value: text, label: label("expect"), reason: error.outOfRange.map {
                    UsageMessages.outOfRange(text, $0)
                } ?? "must be a note: \(UsageMessages.noteSyntax), e.g. A2, F#3 or Bb1")
            }
        }
        if let builtIn, builtIn.count != 12, options.tuning != nil {
            throw .conflict("'--tuning' needs a temperament of 12 notes; '\(builtIn.name)' has \(builtIn.count): "
                            + "leave out one of them.")
        }
        if let builtIn, builtIn.count != 12, options.stretch != .none {
            throw .conflict("'--stretch' needs a temperament of 12 notes; '\(builtIn.name)' has \(builtIn.count): "
                            + "leave out one of them.")
        }
        for flag in ["capo", "offsets"] where options.given.contains(flag) && options.tuning == nil {
            throw .conflict("'--\(flag)' needs '--tuning': it changes the strings' targets; add e.g. '--tuning guitar'.")
        }
        if let offsets = options.offsets, let tuning = options.tuning {
            guard offsets.count == tuning.strings.count else {
                throw .invalidValue(value: offsets.map { TunerFlags.number($0.value) }.joined(separator: " "),
                                    label: label("offsets"),
                                    reason: "give one offset per string: the tuning has \(tuning.strings.count) "
                                        + "strings, the offsets are \(offsets.count)")
            }
            options.tuning?.offsets = offsets
        }
        if options.kbm != nil && !options.temperamentIsFile {
            throw .conflict("'--kbm' needs '--temperament' with a Scala .scl file; add e.g. '--temperament scale.scl'.")
        }
    }

    /// Parses a finite number within `bounds`.
    static func parse(_ value: String, in bounds: ClosedRange<Double>) throws(OptionDefinition.InvalidValue) -> Double {
        guard let parsed = DecimalNumber.parse(value) else {
            throw .init("must be a number between \(Self.number(bounds.lowerBound)) and \(Self.number(bounds.upperBound))")
        }
        guard bounds.contains(parsed) else {
            throw .init("must be between \(Self.number(bounds.lowerBound)) and \(Self.number(bounds.upperBound))")
        }
        return parsed
    }

    /// 3 → "3", 0.1 → "0.1", 442.5 → "442.5".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func range(_ bounds: ClosedRange<Double>) -> String {
        "\(number(bounds.lowerBound))…\(number(bounds.upperBound))"
    }
}

// MARK: - Config file, man page and completions (issue 16)
extension TunerFlags {
    /// `--config`, `--no-config`, `--generate-manual`, `--generate-completion-script`.
    static let setupFlags: [OptionDefinition] = [
        OptionDefinition(
            long: "config", short: nil, valueName: "path", example: "bass.conf",
            help: "Read settings from this file instead of $XDG_CONFIG_HOME/tuner/config (else "
                + "~/.config/tuner/config): lines 'key = value' with the long flag names as keys; flags on "
                + "the command line win.",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard !value.isEmpty else { throw .init("must be the path of a config file") }
                options.configFile = value
            }),
        OptionDefinition(
            long: "no-config", short: nil, valueName: nil, example: nil,
            help: "Read no config file.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.noConfig = true }),
        OptionDefinition(
            long: "generate-manual", short: nil, valueName: nil, example: nil,
            help: "Print the man page (roff) and exit; 'make install' installs it as tuner(1).",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.generate = .manual }),
        OptionDefinition(
            long: "generate-completion-script", short: nil, valueName: "shell", example: "bash",
            help: "Print the completion script for bash, zsh or fish and exit.",
            defaultText: nil,
            completion: .choices(CompletionShell.allCases.map(\.rawValue)),
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                guard let shell = CompletionShell(rawValue: value) else {
                    throw .init("must be one of \(CompletionShell.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.generate = .completion(shell)
            }),
    ]

    /// Flags that name the input or the action of one run rather than a standing preference: the config
    /// file refuses them as keys.
    static let commandLineOnly: Set<String> = [
        "file", "channel", "expect", "list-devices", "list-playback-devices", "list-tunings", "tone", "plot",
        "config", "no-config", "generate-manual", "generate-completion-script",
    ]
}

