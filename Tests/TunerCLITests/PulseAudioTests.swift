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
        let cents = try #require(median(pitched.map(\.rawCents.value)))
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

    // MARK: The tuner binary

    /// Starts `tuner arguments` as a client of `server`, with only the server's environment.
    static func startTuner(_ server: PulseServer, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(TunerBinary.location().path, arguments, environment: server.environment)
    }

    /// Waits until `tuner` has printed `count` readings (the monitor's silence gives ~100 a second), so
    /// capture is running before anything is played.
    static func waitUntilCapturing(_ tuner: ChildProcess, count: Int = 20,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let capturing = tuner.waitForLines(timeout: 15) { $0.count >= count }
        let state = tuner.ending.map(String.init(describing:)) ?? "running"
        try #require(capturing, "tuner printed \(tuner.lines.count) readings in 15 s (\(state)); stderr: \(tuner.standardError)",
                     sourceLocation: sourceLocation)
    }

    /// `tuner --device <device> --output jsonl` reads the pluck played into the server: every pitched
    /// reading names A2 and the median is within ±0.5 ¢ of −7.3 ¢. `pulse` is the plugin's own PCM;
    /// `default` is what alsa-lib routes to the server when one is running (`99-pulse.conf`).
    @Test(arguments: ["pulse", "default"])
    func tunerReadsAPluckThroughTheServer(device: String) throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "cli-\(device)")
        defer { server.stop() }
        let dir = try TemporaryDirectory("tuner-pulse")
        let wav = try Self.writePluck(dir)

        let tuner = try Self.startTuner(server, ["--device", device, "--output", "jsonl"])
        defer { tuner.stop() }
        try Self.waitUntilCapturing(tuner)
        let player = try server.play(wav)
        let played = player.wait(timeout: 20)
        usleep(300_000)
        #expect(tuner.poll() == nil, "tuner is still capturing after the pluck; stderr: \(tuner.standardError)")
        let ended = tuner.stop()
        #expect(played == .exited(0), "paplay: \(played.map(String.init(describing:)) ?? "still running"): \(player.standardError)")
        #expect(ended == .signalled(SIGTERM), "SIGTERM ends a jsonl capture: \(ended.map(String.init(describing:)) ?? "still running")")
        #expect(tuner.standardError == "", "nothing on stderr while capturing: \(tuner.standardError)")

        let readings = try tuner.lines.map { try JSONReading(Substring($0.text)) }
        let pitched = readings.filter { $0.note != nil }
        #expect(pitched.count >= 150, "\(pitched.count) pitched readings of \(readings.count)")
        #expect(pitched.allSatisfy { $0.note == "A2" }, "notes: \(Set(pitched.compactMap(\.note)))")
        let cents = try #require(median(pitched.compactMap(\.cents)), "no pitched reading")
        print("tuner --device \(device) through PulseAudio: median \(cents) ¢ over \(pitched.count) readings (truth \(Self.truth.value) ¢)")
        #expect(abs(cents - Self.truth.value) <= 0.5, "median \(cents) ¢, truth \(Self.truth.value) ¢")
    }

    /// The server is killed while `tuner --device pulse --output jsonl` captures: it ends by itself with
    /// exit status 69 (capture device unavailable) and one line naming the device and the reason.
    @Test func killedServerEndsTheTunerWithOneLineAndExit69() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "kill-jsonl")
        defer { server.stop() }
        let tuner = try Self.startTuner(server, ["--device", "pulse", "--output", "jsonl"])
        defer { tuner.stop() }
        try Self.waitUntilCapturing(tuner)
        server.kill()
        let ended = tuner.wait(timeout: 10)
        #expect(ended == .exited(69), "tuner ended with \(ended.map(String.init(describing:)) ?? "nothing: still running 10 s after the kill")")
        let errors = tuner.standardError.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(errors.count == 2 && errors[1].isEmpty, "exactly one line on stderr: \(tuner.standardError)")
        let line = String(errors.first ?? "")
        #expect(line.hasPrefix("Error: capture device \"pulse\" stopped delivering audio (ALSA: "), "\(line)")
        #expect(line.hasSuffix(")"), "the reason closes the line: \(line)")
        #expect(tuner.lines.allSatisfy { (try? JSONReading(Substring($0.text))) != nil }, "stdout holds only whole readings")
    }

    /// `--list-devices` names `pulse` (always, once the plugin is installed) and `default` (routed to the
    /// server while one runs), each with a one-line description.
    @Test func listDevicesNamesPulseAndDefault() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "list")
        defer { server.stop() }
        func list() throws -> (ChildProcess.Ending?, [String: String]) {
            let tuner = try Self.startTuner(server, ["--list-devices"])
            defer { tuner.stop() }
            let ended = tuner.wait(timeout: 20)
            var devices: [String: String] = [:]
            for line in tuner.lines {
                let parts = line.text.split(separator: " ", maxSplits: 1)
                devices[String(parts[0])] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            }
            return (ended, devices)
        }
        let (ended, devices) = try list()
        #expect(ended == .exited(0))
        #expect(devices["pulse"] == "PulseAudio Sound Server", "pulse: \(String(describing: devices["pulse"]))")
        #expect(devices["default"] == "Playback/recording through the PulseAudio sound server",
                "default: \(String(describing: devices["default"]))")

        // With the server gone, `default` is no longer the server's, but `pulse` is still offered.
        server.kill()
        let (endedAlone, alone) = try list()
        #expect(endedAlone == .exited(0))
        #expect(alone["pulse"] == "PulseAudio Sound Server")
        #expect(alone["default"] != "Playback/recording through the PulseAudio sound server")
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
