import Foundation
import Synchronization
import Testing
import TunerAudio
import TunerKit
#if canImport(Glibc)
import Glibc
#endif

/// The desktop sound path: a real PulseAudio server, ALSA's pulse plugin, and `tuner` capturing through
/// them. Each test starts its own private server (see `PulseServer`) and plays a synthesised string into
/// its null sink with `paplay`; the monitor of that sink is the "microphone".
///
/// Skipped, with the reason shown, only when the PulseAudio programs or the ALSA plugin are missing and
/// `CI` is not set; with `CI` set the tests run and fail on what is missing. Serialized: every test owns
/// a sound server and real-time playback, and the machine has two cores.
@Suite(.serialized, .enabled(if: PulseServer.shouldRun, PulseServer.skipReason))
struct PulseAudioTests {
    /// The string the issue was checked with by hand: 109.537 Hz, i.e. A2 −7.3 ¢.
    static let truth = Cents(-7.3)
    static let note = Note(midi: 45)
    static var pluck: Synth.Pluck { Synth.Pluck(frequency: note.frequency().shifted(by: truth)) }

    /// A WAV of `silence` seconds of silence, then the pluck for `seconds`.
    static func writePluck(_ dir: TemporaryDirectory, silence: Double = 0, seconds: Double = 2.5) throws -> String {
        let rate = PulseServer.rate
        let samples = [Float](repeating: 0, count: Int(silence * Double(rate)))
            + pluck.render(seconds: seconds, sampleRate: Double(rate))
        return try dir.write("pluck.wav", [samples], rate: rate, format: .init(.wav, .float32))
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    // MARK: The capture source on its own

    /// `ALSACaptureSource` opened on a pulse PCM defined in private alsa-lib configuration (the plugin's
    /// `server` parameter, so the test process's environment and global ALSA setup stay untouched),
    /// analysed by a `TunerSession`: the pluck played into the server reads A2 −7.3 ¢.
    @Test func captureSourceReadsAPluckThroughTheServer() async throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "source")
        defer { server.stop() }
        let dir = try TemporaryDirectory("tuner-pulse")
        let wav = try Self.writePluck(dir)

        let configuration = """
            pcm.tunerpulse { type pulse server "unix:\(server.socket)" device "\(PulseServer.monitorName)" }
            """
        let source = try ALSACaptureSource(device: "tunerpulse", rate: PulseServer.rate, configuration: configuration)
        #expect(source.sampleRate == Double(PulseServer.rate))
        let session = try TunerSession(source: source, delivery: .everyReading)
        let collector = Task {
            var readings: [Reading] = []
            for await reading in session.readings { readings.append(reading) }
            return readings
        }
        let player = try server.play(wav)
        let played = player.wait(timeout: 20)
        usleep(300_000)
        session.stop()
        let readings = await collector.value
        #expect(played == .exited(0), "paplay: \(played.map(String.init(describing:)) ?? "still running"): \(player.standardError)")
        #expect(session.failure == nil, "capture failed: \(String(describing: session.failure))")

        let pitched = readings.compactMap(\.pitch)
        #expect(pitched.count >= 150, "\(pitched.count) pitched readings of \(readings.count)")
        #expect(pitched.allSatisfy { $0.note == Self.note }, "notes: \(Set(pitched.map { $0.note.description }))")
        let cents = try #require(Self.median(pitched.map(\.rawCents.value)))
        print("pulse capture source: median \(cents) ¢ over \(pitched.count) readings (truth \(Self.truth.value) ¢)")
        #expect(abs(cents - Self.truth.value) <= 0.5, "median \(cents) ¢, truth \(Self.truth.value) ¢")
    }

    /// The server dies mid-capture: the read fails (it does not hang) and the session ends with an
    /// `ALSAError` of kind `.vanished` naming the device.
    @Test func captureSourceReportsAKilledServer() async throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "vanish")
        defer { server.stop() }
        let configuration = """
            pcm.tunerpulse { type pulse server "unix:\(server.socket)" device "\(PulseServer.monitorName)" }
            """
        let source = try ALSACaptureSource(device: "tunerpulse", rate: PulseServer.rate, configuration: configuration)
        let session = try TunerSession(source: source, delivery: .everyReading)
        let count = Counter()
        let collector = Task {
            for await _ in session.readings { count.add() }
        }
        let deadline = ChildProcess.now() + 10
        while count.value < 20 && ChildProcess.now() < deadline { usleep(10_000) }
        #expect(count.value >= 20, "the monitor's silence gives readings before the kill")
        let killed = ChildProcess.now()
        server.kill()
        let ended = await Self.finishes(collector, within: 10)
        let seconds = ChildProcess.now() - killed
        #expect(ended, "the capture ended within 10 s of the kill (a read blocked on a dead server would hang)")
        guard ended else { return }
        print("pulse capture source: ended \(Int(seconds * 1000)) ms after the server was killed: \(String(describing: session.failure))")
        let failure = try #require(session.failure as? ALSAError, "failure: \(String(describing: session.failure))")
        #expect(failure.kind == .vanished)
        #expect(failure.device == "tunerpulse")
        #expect(failure.description.contains("\"tunerpulse\""))
    }

    /// Waits for `task` up to `seconds`; false when it has not finished by then.
    static func finishes(_ task: Task<Void, Never>, within seconds: Double) async -> Bool {
        let done = Counter()
        let watcher = Task { await task.value; done.add() }
        let deadline = ChildProcess.now() + seconds
        while done.value == 0 && ChildProcess.now() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        _ = watcher
        return done.value > 0
    }
}

/// A count shared between a task and the test.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
