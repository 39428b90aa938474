import Foundation
import Testing
import TunerTestSupport

/// `--announce` on the real-recording fixtures (`Tests/Fixtures/real`, pieces of `Recordings/real/`,
/// public in the split of `Benchmarks/settle_report.py`): one event per pluck, in the right octave.
/// The instruments were tuned by ear, so the note and octave are tested, not the cents.
@Suite struct RealRecordingTests {
    static func fixture(_ name: String) -> String {
        TunerBinary.packageRoot.appendingPathComponent("Tests/Fixtures/real/\(name)").path
    }

    @Test func aTapeEchoedPluckIsAnnouncedOnceNotAgainOnItsEcho() throws {
        // A Stratocaster's E4 through a tape echo, 1 s: the pluck settles at ~0.4 s, its repeat arrives
        // 0.5 s after it (4.3 dB under it) and starts a note of its own (a periodicity break), which
        // settles by 0.9 s on the same pitch: an echo (SettleDetector.echoGap, echoDrop), not announced.
        let run = try TunerBinary.run(["--file", Self.fixture("stratocaster_tape_echo_E4.flac"), "--announce"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.count == 1 && run.stdoutLines.first?.hasPrefix("E4") == true, "\(run.stdoutLines)")
    }

    @Test func aPizzicatoCelloC2IsAnnouncedOnceAsC2() throws {
        // Its fundamental fades ~22 dB under its 2nd partial, and the readings drift to C3 in the tail:
        // one event, C2 (the octave the player plucked).
        let run = try TunerBinary.run(["--file", Self.fixture("cello_pizzicato_C2.flac"), "--announce"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.count == 1 && run.stdoutLines.first.map { $0.hasPrefix("C2") && !$0.hasPrefix("C2#") } == true,
                "\(run.stdoutLines)")
    }
}
