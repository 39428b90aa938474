import Testing
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// The words of the errors the music domain reports as data: only the CLI phrases them.
@Suite struct UsageMessagesTests {
    @Test func tuningErrorsSayHowToFixTheInput() {
        #expect(UsageMessages.message(for: .unknownNote("H9"))
                == "\"H9\" is not a note: write a letter A to G, an optional sharp (# or ♯) or flat (b or ♭), "
                + "and an octave from 0 to 9, e.g. --tuning \"D2 A2 D3 G3 B3 E4\"")
        #expect(UsageMessages.message(for: .empty)
                == "the tuning is empty: give a preset name (see --list-tunings) or the strings' notes, "
                + "lowest string first, e.g. --tuning \"D2 A2 D3 G3 B3 E4\"")
        #expect(UsageMessages.message(for: .tooManyStrings(13))
                == "13 strings is too many: a tuning has at most 12 strings; list one note per string, "
                + "e.g. --tuning \"D2 A2 D3 G3 B3 E4\"")
        #expect(UsageMessages.message(for: .unknownName("drop-q")).hasPrefix(
            "unknown tuning \"drop-q\": use a preset name (see --list-tunings)"))
    }

    @Test func theNoteSyntaxReadsTheOctaveLimits() {
        #expect(UsageMessages.noteSyntax.hasSuffix("and an octave from \(Limits.octaves.lowerBound) to \(Limits.octaves.upperBound)"))
    }
}
