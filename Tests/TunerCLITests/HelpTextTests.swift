import Foundation
import Testing
import TunerTestSupport
@testable import TunerCLI

/// `tuner --help` is part of the interface: this pins it word for word. A change to a flag, a default
/// or an exit code shows up here and must be made on purpose.
@Suite struct HelpTextTests {
    static let expected = """
    OVERVIEW: A tuner for the terminal: play a note and read its name, frequency and
    how many cents it is sharp or flat.

    USAGE: tuner [--file <path>] [--channel <n>] [--tolerance <cents>] [--a4 <hz>]
           [--output <format>] [--device <name>] [--rate <hz>] [--list-devices]
           [--list-playback-devices] [--tuning <name|notes>] [--list-tunings]
           [--announce] [--speak] [--expect <note>] [--temperament <name|file>]
           [--root <note>] [--kbm <file>] [--transpose <key>] [--capo <fret>]
           [--names <scheme>] [--stretch <curve>] [--offsets <cents>]
           [--tone <note>] [--duration <seconds>] [--tone-timbre <timbre>]
           [--playback-device <name>] [--chime] [--plot <file.svg>] [--poly]
           [--config <path>] [--no-config] [--generate-manual]
           [--generate-completion-script <shell>]

    OPTIONS:
      -f, --file <path>       Tune from an audio file: WAV, FLAC, AIFF, OGG… at
                              8000…192000 Hz; several channels are mixed to mono.
                              '--file -' reads standard input (a pipe).
      --channel <n>           Analyse only channel n of the file (1 = first) instead
                              of the mix of all channels.
      -t, --tolerance <cents>
                              A note is in tune when it is within this many cents of
                              the nearest note (with --tuning, of the target
                              string), 0.1…50. (default: 3)
      --a4 <hz>               Reference pitch: the frequency of A4 in Hz, 400…480.
                              (default: 440)
      --output <format>       How readings are shown: screen (the live tuner; a file
                              plays at real-time pace), text (one line per reading)
                              or jsonl (one JSON object per reading); text and jsonl
                              run as fast as they can. The default is screen when
                              standard output is a terminal, else text.
                              (default: screen/text)
      -d, --device <name>     ALSA capture device for live input, e.g. default, hw:1
                              or plughw:1,0 (see --list-devices). (default: default)
      --rate <hz>             Sample rate asked of the capture device, 8000…192000
                              Hz. (default: 48000)
      --list-devices          List the capture devices (name and description) and
                              exit.
      --list-playback-devices
                              List the playback devices for --playback-device (name
                              and description) and exit.
      --tuning <name|notes>   Tune an instrument: a preset (see --list-tunings) or
                              the strings' notes, lowest-pitched side first, e.g.
                              "D2 A2 D3 G3 B3 E4". Cents are then measured from the
                              target string, picked automatically (on the screen
                              keys 1…9 lock one); text and jsonl lines add it.
                              (default: chromatic)
      --list-tunings          List the built-in tunings (name, notes, instrument)
                              and exit.
      --announce              Print one plain line per settled note ("E2, 4 cents
                              flat", "A2 in tune") and nothing else, for screen
                              readers and braille displays: a file as fast as it can
                              be analysed, live input as the notes settle.
      --speak                 Say each settled note (with --poly, each strum's line)
                              through espeak-ng (it must be installed), played
                              through --playback-device; with live input the tuner
                              ignores the input while it speaks. Add --announce to
                              print the lines too.
      --expect <note>         With --file: exit 0 when the file's settled pitch (its
                              last settled note) is this note within the tolerance,
                              else 1, printing by how much.
      --temperament <name|file>
                              The temperament targets are tuned in: equal,
                              pythagorean, meantone, sixth-comma-meantone,
                              werckmeister3, kirnberger3, vallotti, young, just,
                              NNedo (N equal divisions of the octave, 5…96, e.g.
                              19edo), or a Scala scale file ending in .scl. The note
                              A keeps --a4; the others follow the temperament's
                              intervals above --root. (default: equal)
      --root <note>           The key the temperament is built on: a note name
                              without octave, e.g. C, D, Eb, F#. (default: C)
      --kbm <file>            A Scala keyboard mapping for a .scl temperament: the
                              scale degree each MIDI key plays (keys it leaves out
                              are no target), and its reference note's frequency
                              (instead of A4 at --a4).
      --transpose <key>       For a transposing instrument: Bb, Eb, F, A, G, or the
                              signed semitones from written to sounding pitch (Bb is
                              -2). Every note shown, printed, announced or expected
                              is then the written note; frequencies stay concert
                              pitch.
      --capo <fret>           With --tuning: a capo on this fret (0…12) raises every
                              string's target that many semitones.
      --names <scheme>        How notes are written: english (C D E F G A B), german
                              (B♭ is B, B is H) or solfege (fixed do: Do Re Mi Fa
                              Sol La Si). --expect, --tuning and --root accept them
                              as well as English names. (default: english)
      --stretch <curve>       Targets follow a stretch curve: none, or piano
                              (octaves widened as a piano is tuned, from its
                              strings' inharmonicity: A0 −17.3 ¢, C8 +28.9 ¢; A4
                              keeps --a4; see --list-tunings). (default: none)
      --offsets <cents>       With --tuning: cents added to each string's target,
                              one per string in string order, -50…50 in steps of 0.1
                              (a sweetened tuning), e.g. "0 -2 0 0 -1.5 0".
      --tone <note>           Play this note (a pitch pipe) through
                              --playback-device for --duration seconds and exit; it
                              follows --a4. On the screen, key t plays the target
                              note instead.
      --duration <seconds>    How long --tone (and key t on the screen) plays,
                              0.1…60 s. (default: 2)
      --tone-timbre <timbre>  How the reference tone sounds: sine (a plain sine) or
                              pluck (a plucked string). (default: sine)
      --playback-device <name>
                              ALSA playback device for the tone, the chimes and
                              --speak, e.g. default, pulse or hw:0 (see
                              --list-playback-devices). (default: default)
      --chime                 Sound a short, quiet click through --playback-device
                              each time a note settles: two high ticks in tune, one
                              low knock out of tune (with --poly, each time a strum
                              settles: in tune when every string heard is). Input is
                              ignored while it sounds. With the screen, --announce
                              or --speak.
      --plot <file.svg>       With --file: analyse the whole file, then write an SVG
                              graph of it to this path: cents from the nearest note
                              (with --tuning, the target string) against time, with
                              the note names, the tolerance band and gaps where
                              there was no pitch.
      --poly                  Strum all strings and read each one at once (needs
                              --tuning): every string's cents from its own target,
                              or not heard; jsonl and text give a line per reading,
                              --announce a line per strum once its strings have
                              settled; on the screen p switches between all strings
                              and one.
      --config <path>         Read settings from this file instead of
                              $XDG_CONFIG_HOME/tuner/config (else
                              ~/.config/tuner/config): lines 'key = value' with the
                              long flag names as keys; flags on the command line
                              win.
      --no-config             Read no config file.
      --generate-manual       Print the man page (roff) and exit; 'make install'
                              installs it as tuner(1).
      --generate-completion-script <shell>
                              Print the completion script for bash, zsh or fish and
                              exit.
      --version               Show the version and the commit it was built from.
      -h, --help              Show help information.

    OUTPUT (--output jsonl): one JSON object per reading, in order, e.g.
      {"time":1.23,"frequency":109.536,"note":"A2","cents":-7.3,"in_tune":false,"level_db":-12.5}
      time: seconds of input consumed; frequency (Hz, unrounded), note and cents
      (clamped to ±50) are null when there is no pitch; in_tune: |cents| ≤
      tolerance; level_db: input level in dBFS.
      With --tuning, each line adds "string" (1 = first), "target" (its note),
      "target_cents" (cents from it, unclamped) and "target_in_tune"; after the
      reading at which a note settled (held steady for 0.5 s) comes a line
      {"event":"settled",…} with time, start, string, target, frequency, cents (from
      the target, the median of the steady time), in_tune and target_frequency.
      Notes are named by --names and --transpose (the written note); with
      --temperament, cents are from the tempered target.

    SCREEN: the note, its frequency and cents on a needle over ±50 ¢ with the
    tolerance zone; keys: q or Esc quit, + and - change the tolerance, [ and ] move
    A4 by 1 Hz, s shows the strobe band (it drifts left when flat, right when
    sharp), t plays the target note (input is ignored while it sounds), h shows the
    last 10 s as a graph of cents. With --tuning, a row of the strings shows the
    target one as [A2] and ✓ on strings that settled in tune; 1…9 lock a string, 0
    returns to automatic. The status line names the temperament, capo, transposition
    and names in force (and the config file read). With no capture device, 'tuner'
    shows a built-in demo. NO_COLOR turns colours off.

    EXIT CODES:
      0     Success: q on the screen, or the input was analysed; also when the
            reader of the output stops early (e.g. '| head').
      1     A runtime failure (e.g. the terminal type is unknown to the screen, or
            --plot cannot write its file); with --expect: the input did not settle
            on the note within the tolerance.
      64    A usage error: unknown flag, missing or bad value, or a --channel the
            file does not have.
      66    The input file cannot be read: missing, a directory, not audio, empty,
            or a sample rate outside 8000…192000 Hz; or a --temperament or --kbm
            Scala file that is missing or not valid (the error names its line).
      69    The capture or playback device cannot be used: no such device, busy, no
            mono audio, or it stopped; or --speak when espeak-ng is not installed or
            fails.
      71    The system refused memory, file descriptors or a thread (e.g. a low
            'ulimit -v' or 'ulimit -n').
      78    The config file is wrong: an unknown key, a bad value or a line that is
            not 'key = value' (the message names the file and line), or the file
            given to --config cannot be read; or --list-devices or
            --list-playback-devices finds ALSA's configuration unreadable.
      129   The screen ended because the terminal hung up (SIGHUP).
      130   The screen ended with Ctrl-C (SIGINT).
      131   The screen ended with Ctrl-\\ (SIGQUIT).
      143   The screen ended with SIGTERM.

    EXAMPLES:
      tuner
      tuner --device hw:1 --rate 44100
      tuner --file guitar.wav
      tuner -f bass.flac --channel 1 --a4 442 -t 2
      tuner --file guitar.wav --output jsonl | head -3
      tuner --tuning drop-d
      tuner --tuning "D2 G2 D3 G3 B3 D4" --announce
      tuner --file a2.wav --expect A2 -t 2 && echo in tune
      tuner --temperament meantone --root D
      tuner --file e4.wav --expect E4 --temperament werck3.scl
      tuner --transpose Bb --names german
      tuner --tuning guitar --capo 2 --offsets "0 -2 0 0 -1.5 0"
      tuner --file a0.wav --expect A0 --stretch piano
      arecord -q -f S16_LE -r 48000 -c 1 -t wav | tuner --file - --output jsonl
      sox song.mp3 -t wav - | tuner --file -
      tuner --config ~/bass.conf

    """

    @Test func helpIsPinned() throws {
        let result = try TunerBinary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == Self.expected)
    }

    @Test(arguments: [["-h"], ["--tolerance", "99", "--help"], ["--bogus", "-h"]])
    func helpWinsAnywhere(_ arguments: [String]) throws {
        let result = try TunerBinary.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == Self.expected)
    }

    @Test func versionPrintsNameAndVersion() throws {
        let result = try TunerBinary.run(["--version"])
        #expect(result.status == 0)
        // The commit comes from the CommitStamp plugin: git's HEAD when built in a checkout.
        let commit = Shell.output("git -C '\(Self.packageRoot)' rev-parse --short=12 HEAD 2>/dev/null")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Outside a git checkout (a tarball) the commit is "unknown".
        let pattern = #/tuner 0\.1\.0 \(commit (?<commit>[0-9a-f]{12}(-dirty)?|unknown)\)\n/#
        let match = try #require(result.stdout.wholeMatch(of: pattern), "got \(result.stdout)")
        #expect(match.commit.hasPrefix(commit.isEmpty ? "unknown" : commit))
        #expect(result.stderr == "")
    }

    static let packageRoot = TunerBinary.packageRoot.path

    /// The help is made from the flag table and `TunerOptions()`: every flag and its default appear.
    @Test func everyFlagAndDefaultIsListed() {
        let help = TunerCommand.helpText
        let defaults = TunerOptions()
        for flag in TunerFlags.all {
            #expect(help.contains("  " + flag.helpLabel), "\(flag.long) is missing")
            if let shown = flag.defaultText?(defaults) {
                #expect(help.contains("(default: \(shown))"), "default of \(flag.long) is missing")
            }
        }
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 || $0.hasPrefix("  {") })
    }
}
