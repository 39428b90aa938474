import Foundation
import Synchronization
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic
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

    /// A float WAV of the pluck (written with the project's `AudioFileWriter`), for `paplay`.
    static func writePluck(_ dir: TemporaryDirectory, seconds: Double = 2.5) throws -> String {
        let samples = pluck.render(seconds: seconds, sampleRate: Double(PulseServer.rate))
        return try dir.write("pluck.wav", [samples], rate: PulseServer.rate, format: .init(.wav, .float32))
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
        print("pulse capture source: \(source.hardware)")
        // A sound server's plugin gets 20 ms periods (two engine hops), not a card's 10 ms.
        #expect(source.hardware.soundServer)
        #expect(source.hardware.periodFrames == PulseServer.rate / 50)
        let session = try TunerSession(source: source, delivery: .everyReading)
        let collector = Task {
            let pipeline = ReadingPipeline()
            var readings: [Reading] = []
            for await measurement in session.measurements { readings.append(pipeline.reading(from: measurement)) }
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
            for await _ in session.measurements { count.add() }
        }
        // Readiness, not a rate: one reading proves the capture runs. Under load (a busy CI machine) the
        // server and the plugin can take seconds to deliver the first period; 20 readings in 10 s failed
        // 3 times in 22 full runs under load, with the capture merely late. The 60 s bound only stops a
        // capture that never starts from hanging the suite.
        let deadline = ChildProcess.now() + 60
        while count.value < 1 && ChildProcess.now() < deadline { usleep(10_000) }
        try #require(count.value >= 1, "the monitor's silence gives a reading before the kill (none in 60 s)")
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
    /// capture is running before anything is played. It returns as soon as they are there; the 60 s bound
    /// (not a rate) only keeps a capture that never starts from hanging the suite: on a loaded machine the
    /// first periods can take many seconds to come.
    static func waitUntilCapturing(_ tuner: ChildProcess, count: Int = 20,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let capturing = tuner.waitForLines(timeout: 60) { $0.count >= count }
        let state = tuner.ending.map(String.init(describing:)) ?? "running"
        try #require(capturing, "tuner printed \(tuner.lines.count) readings in 60 s (\(state)); stderr: \(tuner.standardError)",
                     sourceLocation: sourceLocation)
    }

    /// `tuner --device pulse --output jsonl` (the plugin's own PCM) reads the pluck played into the server:
    /// every pitched reading names A2 and the median is within ±0.5 ¢ of −7.3 ¢.
    @Test func tunerReadsAPluckThroughDevicePulse() throws {
        try tunerReadsAPluckThroughTheServer(device: "pulse")
    }

    /// The same through `--device default`, which alsa-lib routes to the server while one is running
    /// (`99-pulse.conf` of the `pulseaudio` package). Skipped, with the reason, on a machine whose ALSA
    /// setup sends `default` elsewhere (e.g. `pipewire-alsa`): there it never reaches the test's server.
    @Test(.enabled(if: PulseServer.defaultRoutedElsewhere == nil || PulseServer.inCI,
                   "ALSA 'default' is routed elsewhere here (\(PulseServer.defaultRoutedElsewhere ?? "")), not to the test's server"))
    func tunerReadsAPluckThroughDeviceDefault() throws {
        try tunerReadsAPluckThroughTheServer(device: "default")
    }

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
        #expect(ended == .signalled(SIGTERM) || ended == .exited(143),
                "SIGTERM ends a jsonl capture: \(ended.map(String.init(describing:)) ?? "still running")")
        #expect(tuner.standardError == "", "nothing on stderr while capturing: \(tuner.standardError)")

        let readings = try tuner.lines.map { try JSONReading(Substring($0.text)) }
        let pitched = readings.filter { $0.note != nil }
        #expect(pitched.count >= 150, "\(pitched.count) pitched readings of \(readings.count)")
        #expect(pitched.allSatisfy { $0.note == "A2" }, "notes: \(Set(pitched.compactMap(\.note)))")
        let cents = try #require(median(pitched.compactMap(\.cents)), "no pitched reading")
        print("tuner --device \(device) through PulseAudio: median \(cents) ¢ over \(pitched.count) readings (truth \(Self.truth.value) ¢)")
        #expect(abs(cents - Self.truth.value) <= 0.5, "median \(cents) ¢, truth \(Self.truth.value) ¢")
    }

    /// Picking a microphone by its PulseAudio name without changing the desktop's default:
    /// `--device pulse:<source>` (the pulse PCM's DEVICE argument). With a second null sink, a pluck played
    /// into it is read by `tuner --device pulse:tuner_other.monitor`, while a `tuner --device pulse`
    /// running at the same time (the default source) hears only silence.
    @Test func devicePulseColonSourcePicksThatSource() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "pick")
        defer { server.stop() }
        try server.pactl(["load-module", "module-null-sink", "sink_name=tuner_other", "rate=\(PulseServer.rate)", "channels=1"])
        let sources = try server.pactl(["list", "short", "sources"])
        #expect(sources.contains("tuner_other.monitor"), "\(sources)")
        let dir = try TemporaryDirectory("tuner-pulse")
        let wav = try Self.writePluck(dir, seconds: 1.5)

        let chosen = try Self.startTuner(server, ["--device", "pulse:tuner_other.monitor", "--output", "jsonl"])
        defer { chosen.stop() }
        let byDefault = try Self.startTuner(server, ["--device", "pulse", "--output", "jsonl"])
        defer { byDefault.stop() }
        try Self.waitUntilCapturing(chosen)
        try Self.waitUntilCapturing(byDefault)
        let player = try server.play(wav, into: "tuner_other")
        let played = player.wait(timeout: 20)
        usleep(300_000)
        chosen.stop()
        byDefault.stop()
        #expect(played == .exited(0), "paplay: \(player.standardError)")
        #expect(chosen.standardError == "" && byDefault.standardError == "", "\(chosen.standardError)\(byDefault.standardError)")

        let heard = try chosen.lines.map { try JSONReading(Substring($0.text)) }.filter { $0.note != nil }
        #expect(heard.count >= 100, "the chosen source had the pluck: \(heard.count) pitched readings")
        #expect(heard.allSatisfy { $0.note == "A2" })
        let cents = try #require(median(heard.compactMap(\.cents)))
        #expect(abs(cents - Self.truth.value) <= 0.5, "median \(cents) ¢")
        let other = try byDefault.lines.map { try JSONReading(Substring($0.text)) }
        #expect(other.count >= 100 && other.allSatisfy { $0.note == nil && $0.levelDB <= -100 },
                "the default source stayed silent: \(other.filter { $0.note != nil }.count) pitched of \(other.count)")
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

    /// With no server to reach (here: it was killed), `--device pulse` fails at once with the one line
    /// docs/pulseaudio.md explains, and exit status 69. (`default` then falls back to the sound card,
    /// if the machine has one, so it is not pinned here.)
    @Test func noServerIsOneClearLineAndExit69() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "none")
        defer { server.stop() }
        server.kill()
        let tuner = try Self.startTuner(server, ["--device", "pulse", "--output", "jsonl"])
        defer { tuner.stop() }
        let ended = tuner.wait(timeout: 20)
        #expect(ended == .exited(69), "\(ended.map(String.init(describing:)) ?? "still running")")
        #expect(tuner.standardError == "Error: cannot open capture device \"pulse\" (ALSA: Connection refused); see --list-devices\n")
        #expect(tuner.standardOutput == "")
    }

    /// The same under the screen, in tmux: the server dies, the screen ends by itself, the shell gets
    /// back a restored terminal (modes, normal screen, cursor, keypad), then the one line and status 69.
    @Test func killedServerUnderTheScreenLeavesARestoredTerminal() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "kill-screen")
        defer { server.stop() }
        let dir = try TemporaryDirectory("tuner-pulse-screen")
        let tmux = try PulseTmux(name: "screen", environment: server.environment)
        let before = dir.path("stty.before")
        tmux.run("stty -g > \(before); clear")
        let tuner = try TunerBinary.location().path
        tmux.run("\(tuner) --device pulse; echo EXIT=$?; stty -g | cmp -s - \(before) && echo MODES=SAME")
        let showing = tmux.waitFor { $0.contains("q quit") }
        try #require(showing != nil, "the screen came up:\n\(tmux.screen)")
        #expect(tmux.paneFlag("#{alternate_on}") == "1", "the screen uses the alternate screen while it runs")

        server.kill()
        let after = tmux.waitFor { $0.contains("EXIT=") && $0.split(separator: "\n").last == "PROMPT$" }
        let text = after ?? tmux.screen
        print("tuner screen after the server was killed:\n" + text.split(separator: "\n").map { "  | " + $0 }.joined(separator: "\n"))
        #expect(after != nil, "the screen ended by itself and the prompt came back:\n\(text)")
        #expect(text.contains("EXIT=69"), "exit status 69:\n\(text)")
        let errors = text.split(separator: "\n").filter { $0.hasPrefix("Error:") }
        #expect(errors.count == 1, "one error line:\n\(text)")
        #expect(errors.first?.hasPrefix("Error: capture device \"pulse\" stopped delivering audio (ALSA: ") == true, "\(text)")
        #expect(text.contains("MODES=SAME"), "stty modes restored:\n\(text)")
        #expect(!text.contains("q quit"), "no curses leftovers on the shell screen:\n\(text)")
        #expect(tmux.paneFlag("#{alternate_on}") == "0", "left the alternate screen")
        #expect(tmux.paneFlag("#{cursor_flag}") == "1", "cursor visible")
        #expect(tmux.paneFlag("#{keypad_flag}") == "0", "keypad mode off")
    }

    /// Latency from a pluck to the first correct reading through the server, printed (a figure, not a
    /// timed assertion). One WAV holds three plucks (1.2 s each) after silences, at known offsets;
    /// `paplay --latency-msec=10` plays it at its own pace from its start. For each pluck:
    /// - end to end: when the first line within ±5 ¢ of the truth reached the test's pipe, minus
    ///   (when paplay was started + the pluck's offset) — this also counts paplay's start-up;
    /// - heard: the same for the first reading that hears the pluck at all (level above the
    ///   digital-silence floor) — paplay's start, the server, the capture buffers and one hop;
    /// - in the stream: the correct reading's `time` minus the `time` of that first hearing reading —
    ///   the analysis alone (in 10 ms hops).
    @Test func latencyFromPluckToFirstCorrectReading() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "latency")
        defer { server.stop() }
        let dir = try TemporaryDirectory("tuner-pulse")
        let rate = Double(PulseServer.rate)
        let offsets = [1.0, 3.0, 5.0]
        let pluckSeconds = 1.2
        var samples = [Float](repeating: 0, count: Int((offsets.last! + 1.7) * rate))
        let pluck = Self.pluck.render(seconds: pluckSeconds, sampleRate: rate)
        for offset in offsets {
            let start = Int(offset * rate)
            for (i, v) in pluck.enumerated() { samples[start + i] = v }
        }
        let wav = try dir.write("plucks.wav", [samples], rate: PulseServer.rate, format: .init(.wav, .float32))

        let tuner = try Self.startTuner(server, ["--device", "pulse", "--output", "jsonl"])
        defer { tuner.stop() }
        try Self.waitUntilCapturing(tuner, count: 50)
        let skip = tuner.lines.count
        let started = ChildProcess.now()
        let player = try server.play(wav, latencyMilliseconds: 10)
        let played = player.wait(timeout: 30)
        usleep(200_000)
        tuner.stop()
        #expect(played == .exited(0), "paplay: \(player.standardError)")

        let lines = tuner.lines.dropFirst(skip)
        let readings = try lines.map { (try JSONReading(Substring($0.text)), $0.arrival) }
        var endToEnd: [Double] = [], inStream: [Double] = [], arrival: [Double] = []
        var searchFrom = readings.startIndex
        for offset in offsets {
            // The first reading that hears this pluck, after the silence before it.
            guard let heard = readings[searchFrom...].firstIndex(where: { $0.0.levelDB > -100 }) else { break }
            guard let correct = readings[heard...].firstIndex(where: {
                $0.0.note == "A2" && abs(($0.0.cents ?? 99) - Self.truth.value) <= 5
            }) else { break }
            endToEnd.append(readings[correct].1 - (started + offset))
            arrival.append(readings[heard].1 - (started + offset))
            inStream.append(readings[correct].0.time - readings[heard].0.time)
            // Skip to the silence after this pluck.
            searchFrom = readings[correct...].firstIndex(where: { $0.0.levelDB <= -100 }) ?? readings.endIndex
        }
        #expect(endToEnd.count == offsets.count, "a correct reading after each of the \(offsets.count) plucks")
        let ms = { (values: [Double]) in values.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ") }
        print("PulseAudio latency, pluck to first reading within ±5 ¢: end to end \(ms(endToEnd)) ms "
              + "(median \(ms([median(endToEnd) ?? .nan]))); of which the pluck first heard after \(ms(arrival)) ms "
              + "(paplay start, server, capture, one hop); analysis in the stream \(ms(inStream)) ms")
        #expect(inStream.allSatisfy { $0 >= 0 } && endToEnd.allSatisfy { $0 > 0 }, "a reading cannot come before its pluck")
    }

    /// `tuner --list-devices` as a client of `server`: its exit and each listed device's description.
    static func listDevices(_ server: PulseServer) throws -> (ChildProcess.Ending?, [String: String]) {
        let tuner = try startTuner(server, ["--list-devices"])
        defer { tuner.stop() }
        let ended = tuner.wait(timeout: 20)
        var devices: [String: String] = [:]
        for line in tuner.lines {
            let parts = line.text.split(separator: " ", maxSplits: 1)
            guard let name = parts.first else { continue }
            devices[String(name)] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return (ended, devices)
    }

    /// `--list-devices` names `pulse`, with the plugin's one-line description, whenever the plugin is
    /// installed — whether or not a server runs.
    @Test func listDevicesNamesPulse() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "list")
        defer { server.stop() }
        let (ended, devices) = try Self.listDevices(server)
        #expect(ended == .exited(0))
        #expect(devices["pulse"] == "PulseAudio Sound Server", "pulse: \(String(describing: devices["pulse"]))")
        server.kill()
        let (endedAlone, alone) = try Self.listDevices(server)
        #expect(endedAlone == .exited(0))
        #expect(alone["pulse"] == "PulseAudio Sound Server", "with no server: \(String(describing: alone["pulse"]))")
    }

    /// `--list-devices` names `default` as the server's while one runs, and not once it is gone.
    @Test(.enabled(if: PulseServer.defaultRoutedElsewhere == nil || PulseServer.inCI,
                   "ALSA 'default' is routed elsewhere here (\(PulseServer.defaultRoutedElsewhere ?? "")), not to the test's server"))
    func listDevicesNamesDefaultWhileTheServerRuns() throws {
        try PulseServer.requireInstalled()
        let server = try PulseServer(name: "list-default")
        defer { server.stop() }
        let through = "Playback/recording through the PulseAudio sound server"
        let (ended, devices) = try Self.listDevices(server)
        #expect(ended == .exited(0))
        #expect(devices["default"] == through, "default: \(String(describing: devices["default"]))")
        server.kill()
        let (endedAlone, alone) = try Self.listDevices(server)
        #expect(endedAlone == .exited(0))
        #expect(alone["default"] != through, "with no server, default is not the server's")
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
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// When the PulseAudio tests run: skipped (with the reason shown) only on a machine without PulseAudio
/// that is not CI; in CI they run, and `requireInstalled` fails them on what is missing.
@Suite struct PulseAudioGateTests {
    @Test func skippedOnlyWhenMissingOutsideCI() {
        #expect(PulseServer.shouldRun(missing: [], inCI: false))
        #expect(PulseServer.shouldRun(missing: [], inCI: true))
        #expect(!PulseServer.shouldRun(missing: ["pulseaudio"], inCI: false))
        #expect(PulseServer.shouldRun(missing: ["pulseaudio"], inCI: true))
    }

    @Test func ciIsAnyValueButEmptyZeroOrFalse() {
        #expect(PulseServer.isCI("true") && PulseServer.isCI("1") && PulseServer.isCI("yes") && PulseServer.isCI("TRUE"))
        #expect(!PulseServer.isCI(nil) && !PulseServer.isCI("") && !PulseServer.isCI("0") && !PulseServer.isCI("false"))
    }

    @Test func theSkipReasonSaysWhatToInstall() {
        let reason = "\(PulseServer.skipReason)"
        #expect(reason.contains("apt-get install pulseaudio pulseaudio-utils libasound2-plugins"))
        #expect(reason.contains("CI=true"))
    }
}
