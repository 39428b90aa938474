import TunerAudio
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
    /// List the playback devices and exit.
    public var listPlaybackDevices = false
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
    /// Play this note through the playback device and exit (`--tone`).
    public var tone: Note?
    /// Seconds the reference tone plays.
    public var duration: Double
    /// How the reference tone sounds.
    public var toneTimbre: Sounds.Timbre
    /// ALSA playback device for the tone, the chimes and speech.
    public var playbackDevice: String
    /// A chime through the playback device each time a note settles.
    public var chime: Bool
    /// With a file: write an SVG graph of the recording to this path.
    public var plot: String?
    /// Long names of the flags given on the command line (to tell a default from an explicit choice).
    public var given: Set<String>
    /// `--config`: the config file to read instead of the usual one.
    public var configFile: String?
    /// `--no-config`: read no config file.
    public var noConfig = false
    /// The config file that was read (for the screen's status line); nil when none was.
    public var configRead: String?
    /// Long names of the flags the config file set.
    public var configured: Set<String> = []
    /// `--generate-manual` / `--generate-completion-script`: print that instead of tuning.
    public var generate: Generated?

    // Tuning systems (issue 14): what the table of targets is built from.
    /// `--temperament`: a built-in name ("meantone", "19edo") or the path of a Scala `.scl` file.
    public var temperament = "equal"
    /// `--root`: the pitch class (0 = C … 11 = B) the temperament is built on.
    public var root = 0
    /// `--kbm`: a Scala keyboard mapping (what each key plays, the reference note and frequency).
    public var kbm: String?
    /// `--transpose`: sounding minus written semitones (−2 for a B♭ instrument).
    public var transposition = 0
    /// `--capo`: frets the capo raises every string by (with `--tuning`).
    public var capo = 0
    /// `--names`: how notes are written and read.
    public var names = NoteNames.english
    /// `--offsets`: cents added to each string's target (with `--tuning`).
    public var offsets: [Cents]?
    /// `--stretch`: a stretch curve added to every target (a piano's).
    public var stretch = Stretch.none
    /// The text of `--tuning`, `--expect` and `--root`, read once every flag is known (they are written in
    /// the `--names` scheme, and `--expect` in written pitch).
    var tuningText: String?
    var expectText: String?
    var rootText: String?

    public init(file: String? = nil, channel: Int? = nil, tolerance: Cents = Cents(3), a4: Hertz = Hertz(440),
                output: OutputFormat? = nil, device: String = "default", rate: Int = 48_000,
                listDevices: Bool = false, tuning: Tuning? = nil, listTunings: Bool = false, announce: Bool = false,
                speak: Bool = false, expect: Note? = nil, tone: Note? = nil, duration: Double = 2,
                toneTimbre: Sounds.Timbre = .sine, playbackDevice: String = "default", chime: Bool = false,
                plot: String? = nil, poly: Bool = false, given: Set<String> = []) {
        self.plot = plot
        self.chime = chime
        self.tone = tone
        self.duration = duration
        self.toneTimbre = toneTimbre
        self.playbackDevice = playbackDevice
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

    /// Seconds `--tone` and key t may play.
    public static let durationRange = 0.1...60.0
    /// The rate the tuner's own sounds (tone, chimes) are made and played at.
    public static let playbackRate = 48_000

    /// The `--expect` check in `system`, judged with the tolerance; nil without `--expect`.
    public func expectation(in system: TargetSystem) -> Expectation? {
        expect.map { Expectation(note: $0, tolerance: tolerance, system: system) }
    }

    /// The table of targets, for a temperament read already (a built-in, or a Scala file's).
    public func system(temperament: Temperament, mapping: Scala.KeyboardMapping? = nil) -> TargetSystem {
        if let mapping {
            return TargetSystem(temperament: temperament, keyboard: mapping, names: names, transposition: transposition,
                                stretch: stretch)
        }
        return TargetSystem(temperament: temperament, root: 60 + self.root,  // the root in octave 4
                            names: names, transposition: transposition, stretch: stretch)
    }

    /// True when `--temperament` names a Scala file rather than a built-in.
    public var temperamentIsFile: Bool { temperament.lowercased().hasSuffix(".scl") }

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

/// What `tuner` can print about itself instead of tuning.
public enum Generated: Sendable, Equatable {
    case manual
    case completion(CompletionShell)
}

