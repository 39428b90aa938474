import Foundation
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic
#if canImport(Glibc)
import Glibc
#endif

/// `--chime` on the desktop sound path, through a private PulseAudio server: the tuner captures the
/// null sink's monitor and plays its chimes into the same sink, so it hears its own chime as a
/// microphone beside the loudspeaker would. `parecord` records the monitor to check the chime sounded.
@Suite(.serialized, .enabled(if: PulseServer.shouldRun, PulseServer.skipReason))
struct ChimePulseTests {
    /// Amplitude of the `frequency` component of `samples` (Goertzel under a Hann window, so the
    /// strong low partials of the string do not leak into it; a sine of amplitude a gives ≈ a).
    static func amplitude(_ samples: ArraySlice<Float>, frequency: Double, rate: Double) -> Double {
        let w = 2 * Double.pi * frequency / rate
        var s1 = 0.0, s2 = 0.0
        let n = Double(samples.count)
        for (i, x) in samples.enumerated() {
            let hann = 1 - cos(2 * Double.pi * Double(i) / n)  // mean 1
            let s0 = Double(x) * hann + 2 * cos(w) * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - 2 * cos(w) * s1 * s2
        return 2 * power.squareRoot() / Double(samples.count)
    }

    /// Polls `pactl list short <kind>` until it lists something (the tuner's stream is connected).
    static func waitForStream(_ server: PulseServer, _ kind: String) throws -> Bool {
        let deadline = ChildProcess.now() + 15
        while ChildProcess.now() < deadline {
            if !(try server.pactl(["list", "short", kind])).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return true
            }
            usleep(50_000)
        }
        return false
    }

    @Test func aSettledNoteIsChimedThroughTheServerAndTheChimeIsNotRead() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "chime")
        defer { server.stop() }
        let dir = try TemporaryDirectory("tuner-chime")
        let wav = try PulseAudioTests.writePluck(dir)  // A2 −7.3 ¢: in tune at ±10 ¢
        let recording = dir.path("monitor.wav")
        let recorder = try ChildProcess("parecord", ["--device=\(PulseServer.monitorName)", "--file-format=wav",
                                                     "--format=s16le", "--rate=48000", "--channels=1", recording],
                                        environment: server.environment)
        defer { recorder.stop() }
        let tuner = try PulseAudioTests.startTuner(
            server, ["--device", "pulse", "--playback-device", "pulse", "--announce", "--chime", "--tolerance", "10"])
        defer { tuner.stop() }
        // The tuner opens its playback stream at the start and then captures.
        #expect(try Self.waitForStream(server, "sink-inputs"), "the tuner's playback stream: \(tuner.standardError)")
        #expect(try Self.waitForStream(server, "source-outputs"), "the tuner's capture stream: \(tuner.standardError)")
        usleep(300_000)
        let played = try server.play(wav).wait(timeout: 20)
        #expect(played == .exited(0))
        let settled = tuner.waitForLines(timeout: 10) { !$0.isEmpty }
        usleep(1_000_000)  // the chime, and whatever the tuner might make of it
        tuner.stop()
        recorder.stop()
        #expect(settled, "the pluck settled: stderr \(tuner.standardError)")
        #expect(tuner.standardError == "", "\(tuner.standardError)")
        // Only the string was announced: the chime, played into the monitored sink, was not read as a note.
        let lines = tuner.lines.map(\.text)
        #expect(!lines.isEmpty && lines.allSatisfy { $0 == "A2 in tune" }, "\(lines)")

        // The in-tune chime (2400 Hz ticks) is in the recording; the pluck alone has nothing there.
        let source = try AudioFileSource(path: recording)
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if n <= 0 { break }
            samples += buffer[0..<n]
        }
        // A chime tick is narrow-band at 2400 Hz; a click (the end of the played file cuts the string
        // off) is broadband, as strong at 3100 Hz. So: a window strong at 2400 Hz and five times weaker
        // at 3100 Hz.
        let window = 480
        func chimeWindows(_ samples: [Float]) -> [Double] {
            stride(from: 0, to: max(0, samples.count - window), by: window / 2).compactMap { start in
                let slice = samples[start..<start + window]
                let tick = Self.amplitude(slice, frequency: 2400, rate: 48000)
                let beside = Self.amplitude(slice, frequency: 3100, rate: 48000)
                return tick > 5 * beside ? tick : nil
            }
        }
        let strongest = chimeWindows(samples).max() ?? 0
        let pluckAlone = Synth.Pluck(frequency: PulseAudioTests.pluck.frequency).render(seconds: 2.5, sampleRate: 48000)
            + [Float](repeating: 0, count: 4800)
        let pluckStrongest = chimeWindows(pluckAlone).max() ?? 0
        print("chime through PulseAudio: 2400 Hz tick amplitude \(strongest) in the recording, \(pluckStrongest) in the pluck alone")
        #expect(strongest > 0.01, "the chime sounded in the sink (\(strongest))")
        #expect(pluckStrongest < 0.002)
    }
}
