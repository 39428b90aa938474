import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A private PulseAudio daemon for one test: its own runtime directory, home and socket, a null sink
/// named `tuner_test` whose monitor is the default source, nothing loaded from the user's setup.
///
/// Started as `pulseaudio -n --daemonize=no` (in the foreground, so the test owns its process id; as root
/// it warns that it is "not intended to be run as root" but serves; `--system` is not needed) with
/// `module-native-protocol-unix` on a socket in the private directory and `module-null-sink`. Clients
/// reach it through `environment` (`PULSE_SERVER`, `XDG_RUNTIME_DIR`, `HOME`, and a client.conf that
/// turns autospawn off, so a killed server stays dead). `stop()` ends it (SIGTERM, then SIGKILL) and
/// removes the directory; `deinit` does the same if a test forgot, so no daemon outlives its test.
final class PulseServer {
    /// The sink the tests play into; its monitor (`tuner_test.monitor`) is the capture source.
    static let sinkName = "tuner_test"
    static var monitorName: String { sinkName + ".monitor" }
    static let rate = 48000

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Whether the tests can run here

    /// The programs the tests drive, from Debian's `pulseaudio` and `pulseaudio-utils`.
    static let programs = ["pulseaudio", "pactl", "paplay"]

    /// The ALSA plugin that gives alsa-lib its `pulse` and (with a server running) `default` devices,
    /// from `libasound2-plugins`.
    static var alsaPlugin: String? {
        let places = ["/usr/lib/x86_64-linux-gnu/alsa-lib", "/usr/lib/aarch64-linux-gnu/alsa-lib", "/usr/lib/alsa-lib",
                      "/usr/lib64/alsa-lib"]
        return places.map { $0 + "/libasound_module_pcm_pulse.so" }.first { access($0, R_OK) == 0 }
    }

    /// What is missing for the PulseAudio tests (empty when everything is installed): programs are
    /// looked up in `PATH` only, so `PATH=/opt/swift/usr/bin swift test` shows the skip.
    static var missing: [String] {
        programs.filter { ChildProcess.which($0, fallback: false) == nil }
            + (alsaPlugin == nil ? ["the ALSA pulse plugin"] : [])
    }

    /// A system ALSA file that routes `default` somewhere other than the pulse plugin (PipeWire's
    /// `pipewire-alsa`, or an /etc/asound.conf that defines it), or nil. The tests run clients with a
    /// private `HOME`, so a user's ~/.asoundrc does not count.
    static var defaultRoutedElsewhere: String? {
        let confD = (try? FileManager.default.contentsOfDirectory(atPath: "/etc/alsa/conf.d")) ?? []
        if let pipewire = confD.sorted().first(where: { $0.contains("pipewire") && $0.hasSuffix(".conf") }) {
            return "/etc/alsa/conf.d/" + pipewire
        }
        if let text = try? String(contentsOfFile: "/etc/asound.conf", encoding: .utf8),
           text.split(separator: "\n").contains(where: { $0.contains("pcm.!default") || $0.hasPrefix("pcm.default") }) {
            return "/etc/asound.conf"
        }
        return nil
    }

    /// True when `CI` is set to anything but empty, "0" or "false": there the tests must run.
    static func isCI(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return !value.isEmpty && value != "0" && value != "false"
    }
    static var inCI: Bool { isCI(ProcessInfo.processInfo.environment["CI"]) }

    /// Run the tests when everything is installed, and always in CI (where they then fail on what is
    /// missing); skip them only on a machine without PulseAudio that is not CI.
    static func shouldRun(missing: [String], inCI: Bool) -> Bool { missing.isEmpty || inCI }
    static var shouldRun: Bool { shouldRun(missing: missing, inCI: inCI) }
    static var skipReason: Comment {
        let what = missing.joined(separator: ", ")
        return "PulseAudio tests skipped: \(what) not installed (apt-get install pulseaudio pulseaudio-utils libasound2-plugins; CI=true makes this a failure)"
    }

    /// Fails the test (in CI) when something is missing.
    static func requireInstalled(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let what = missing.joined(separator: ", ")
        try #require(missing.isEmpty, "CI is set but \(what) is missing: .ci/run must install pulseaudio pulseaudio-utils libasound2-plugins",
                     sourceLocation: sourceLocation)
    }

    // MARK: The server

    let directory: String
    var runtimeDirectory: String { directory + "/run" }
    var home: String { directory + "/home" }
    var socket: String { runtimeDirectory + "/native" }
    private(set) var daemon: ChildProcess?

    /// Starts the daemon and waits until `pactl info` answers and the monitor is the default source.
    init(name: String) throws {
        var template = Array("/tmp/tuner-pulse-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed: \(errno)") }
        directory = String(cString: made)
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// What a client needs to find this server and only this server.
    var environment: [String: String] {
        [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": runtimeDirectory,
            "PULSE_SERVER": "unix:" + socket,
            "PULSE_CLIENTCONFIG": directory + "/client.conf",
        ]
    }

    private func start() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        try fm.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "autospawn = no\n".write(toFile: directory + "/client.conf", atomically: true, encoding: .utf8)
        daemon = try ChildProcess("pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
            "--high-priority=no", "--realtime=no", "--log-target=stderr", "--log-level=warning",
            "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            "-L", "module-null-sink sink_name=\(Self.sinkName) rate=\(Self.rate) channels=1 "
                + "sink_properties=device.description=Tuner_test_sink",
        ], environment: environment)
        // The socket appears once the protocol module is loaded; `pactl info` answers once it serves.
        let deadline = ChildProcess.now() + 15
        while true {
            if let ended = daemon?.poll() {
                throw Failure(description: "pulseaudio ended at start (\(ended)): \(daemon?.standardError ?? "")")
            }
            if access(socket, F_OK) == 0, let info = try? pactl(["info"], timeout: 5), info.contains("Server Name") {
                break
            }
            if ChildProcess.now() > deadline {
                throw Failure(description: "pulseaudio did not answer `pactl info` within 15 s: \(daemon?.standardError ?? "")")
            }
            usleep(50_000)
        }
        _ = try pactl(["set-default-source", Self.monitorName])
        let source = try pactl(["get-default-source"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard source == Self.monitorName else {
            throw Failure(description: "default source is \(source), expected \(Self.monitorName)")
        }
    }

    /// Runs `pactl arguments` against this server; returns its standard output, throws on failure.
    @discardableResult
    func pactl(_ arguments: [String], timeout: Double = 10) throws -> String {
        let child = try ChildProcess("pactl", arguments, environment: environment)
        guard let ending = child.wait(timeout: timeout) else {
            child.stop()
            throw Failure(description: "pactl \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        guard ending == .exited(0) else {
            throw Failure(description: "pactl \(arguments.joined(separator: " ")) failed (\(ending)): \(child.standardError)")
        }
        return child.standardOutput
    }

    /// Starts `paplay` playing `path` into the null sink (or another `sink`). `latency` (ms) keeps paplay's buffer small, so the
    /// file's sound reaches the sink at its own pace from the start (paplay's default buffer is ~2 s).
    func play(_ path: String, into sink: String = PulseServer.sinkName, latencyMilliseconds latency: Int? = nil) throws -> ChildProcess {
        var arguments = ["--device=\(sink)"]
        if let latency { arguments.append("--latency-msec=\(latency)") }
        return try ChildProcess("paplay", arguments + [path], environment: environment)
    }

    /// Kills the daemon at once (SIGKILL), as a crashing or vanishing sound server would go.
    func kill() {
        daemon?.signal(SIGKILL)
        _ = daemon?.wait(timeout: 5)
    }

    /// Ends the daemon (SIGTERM, SIGKILL after 3 s) and removes its directory. Safe to call twice.
    func stop() {
        daemon?.stop()
        daemon = nil
        try? FileManager.default.removeItem(atPath: directory)
    }
}
