import TunerBridge
import TunerMusic

/// Everything the command line can set. The defaults live here, in the initialiser, and nowhere else:
/// the help text reads them from an instance made with `TunerOptions()`.
public struct TunerOptions: Sendable, Equatable {
    /// Tune from this audio file; nil means live input.
    public var file: String?
    /// Analyse only this channel of the file (1-based); nil mixes all channels to mono.
    public var channel: Int?
    /// A reading is in tune when |cents| ≤ tolerance.
    public var tolerance: Cents
    /// Reference pitch: the frequency of A4.
    public var a4: Hertz
    /// How readings are printed; nil chooses `OutputFormat.automatic`.
    public var output: OutputFormat?
    /// ALSA capture device for live input.
    public var device: String
    /// Sample rate asked of the capture device, in Hz.
    public var rate: Int
    /// List the capture devices and exit.
    public var listDevices: Bool
    /// The instrument's tuning; nil is chromatic (cents from the nearest note).
    public var tuning: Tuning?
    /// Print the built-in tunings and exit.
    public var listTunings: Bool
    /// Print one plain line per settled note, and nothing else.
    public var announce: Bool
    /// Say each settled note through espeak-ng.
    public var speak: Bool
    /// With a file: check that its settled pitch is this note within the tolerance (exit 0 or 1).
    public var expect: Note?
    /// Read every string of the tuning at once from a strum (needs `tuning`).
    public var poly: Bool
    /// Long names of the flags given on the command line (to tell a default from an explicit choice).
    public var given: Set<String>

    public init(file: String? = nil, channel: Int? = nil, tolerance: Cents = Cents(3), a4: Hertz = Hertz(440),
                output: OutputFormat? = nil, device: String = "default", rate: Int = 48_000,
                listDevices: Bool = false, tuning: Tuning? = nil, listTunings: Bool = false, announce: Bool = false,
                speak: Bool = false, expect: Note? = nil, poly: Bool = false, given: Set<String> = []) {
        self.file = file
        self.channel = channel
        self.tolerance = tolerance
        self.a4 = a4
        self.output = output
        self.device = device
        self.rate = rate
        self.listDevices = listDevices
        self.tuning = tuning
        self.listTunings = listTunings
        self.announce = announce
        self.speak = speak
        self.expect = expect
        self.poly = poly
        self.given = given
    }

    /// The `--expect` check, judged with the tolerance; nil without `--expect`.
    public var expectation: Expectation? { expect.map { Expectation(note: $0, tolerance: tolerance) } }

    /// The engine settings these options ask for (the defaults: nothing on the command line changes them).
    public var configuration: TunerConfiguration { TunerConfiguration() }

    /// The musical settings these options ask for: A4 and the tolerance, for a `ReadingPipeline`.
    public var settings: ReadingPipeline.Settings { ReadingPipeline.Settings(a4: a4, tolerance: tolerance) }
}

/// How readings are shown.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// The full-screen tuner (ncurses): a file plays at real-time pace, live input as it comes.
    case screen
    /// One human-readable line per reading, as fast as the input can be analysed.
    case text
    /// One JSON object per reading (JSON Lines), as fast as the input can be analysed.
    case jsonl

    /// The format used when `--output` is not given: the screen on a terminal, text otherwise.
    public static func automatic(outputIsTerminal: Bool) -> OutputFormat { outputIsTerminal ? .screen : .text }

    /// How the default is described in the help text.
    static let automaticDescription = "screen/text"
}
