import TunerBridge
import TunerMusic

/// The flags of `tuner`, in the order the help lists them. Adding a flag is adding an entry here
/// (and a field with its default to `TunerOptions`).
enum TunerFlags {
    static let all: [OptionDefinition] = [
        OptionDefinition(
            long: "file", short: "f", valueName: "path", example: "guitar.wav",
            help: "Tune from an audio file: WAV, FLAC, AIFF, OGG… at \(Limits.sampleRate.lowerBound)…\(Limits.sampleRate.upperBound) Hz; several channels are mixed to mono.",
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
            long: "tuning", short: nil, valueName: "name|notes", example: "drop-d",
            help: "Tune an instrument: a preset (see --list-tunings) or the strings' notes, lowest-pitched "
                + "side first, e.g. \"D2 A2 D3 G3 B3 E4\". Cents are then measured from the target string, "
                + "picked automatically (on the screen keys 1…9 lock one); text and jsonl lines add it.",
            defaultText: { $0.tuning.map { $0.key ?? "custom" } ?? "chromatic" },
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                do throws(TuningError) {
                    options.tuning = try Tuning.resolve(value)
                } catch {
                    throw .init(UsageMessages.message(for: error))
                }
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
            help: "Say each settled note through espeak-ng (it must be installed); with live input the tuner "
                + "ignores the input while it speaks. Add --announce to print the lines too.",
            defaultText: nil,
            apply: { options, _ throws(OptionDefinition.InvalidValue) in options.speak = true }),
        OptionDefinition(
            long: "expect", short: nil, valueName: "note", example: "A2",
            help: "With --file: exit 0 when the file's settled pitch (its last settled note) is this note within "
                + "the tolerance, else 1, printing by how much.",
            defaultText: nil,
            apply: { options, value throws(OptionDefinition.InvalidValue) in
                do {
                    options.expect = try Expectation(parsing: value).note
                } catch {
                    throw .init("must be a note: \(UsageMessages.noteSyntax), e.g. A2, F#3 or Bb1")
                }
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

    /// Parses a finite number within `bounds`.
    static func parse(_ value: String, in bounds: ClosedRange<Double>) throws(OptionDefinition.InvalidValue) -> Double {
        guard let parsed = Double(value), parsed.isFinite else {
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
