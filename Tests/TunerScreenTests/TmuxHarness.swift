import Foundation
import TunerTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Drives the real `tuner` binary in a detached tmux session on a private socket (`tmux -L`), through
/// `system`/`popen` (Foundation.Process hangs waiting on tmux's daemonised server here).
final class TmuxHarness {
    let socket: String
    let directory: String
    static let rows = 24, columns = 80

    /// The `tuner` executable `swift test` built next to the test bundle.
    static var tunerPath: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("tuner").path
    }

    /// Starts a shell (`sh`, prompt "PROMPT$ ") in an 80×24 window with `LANG=C.UTF-8`.
    init(name: String) throws {
        socket = "tuner-test-\(name)-\(getpid())"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = tmux("kill-server")
        let shell = "env -i PATH=/usr/bin:/bin HOME=\(directory) XDG_CONFIG_HOME=\(TestEnvironment.configHome) LANG=C.UTF-8 TERM=tmux-256color PS1='PROMPT$ ' sh"
        guard tmux("new-session -d -x \(Self.columns) -y \(Self.rows) \(quote(shell))") == 0 else {
            throw HarnessError("tmux new-session failed")
        }
        _ = tmux("set-option -g status off")
        guard waitFor({ $0.contains("PROMPT$") }) != nil else { throw HarnessError("no shell prompt in tmux") }
    }

    deinit {
        _ = tmux("kill-server")
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct HarnessError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func tmux(_ arguments: String) -> Int32 {
        let status = system("tmux -L \(socket) \(arguments) >/dev/null 2>&1")
        return status == -1 ? -1 : (status >> 8) & 0xff
    }

    /// Output of a tmux command.
    func tmuxOutput(_ arguments: String) -> String { Shell.output("tmux -L \(socket) \(arguments) 2>/dev/null") }

    /// Types `line` and Enter.
    func run(_ line: String) { tmux("send-keys -t 0 -l \(quote(line))"); tmux("send-keys -t 0 Enter") }
    /// Sends keys by tmux name (e.g. "q", "+", "C-c", "Escape").
    func keys(_ keys: String) { tmux("send-keys -t 0 \(keys)") }

    var screen: String { tmuxOutput("capture-pane -p -t 0") }
    func paneFlag(_ format: String) -> String {
        tmuxOutput("display-message -p -t 0 \(quote(format))").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(columns: Int, rows: Int) { tmux("resize-window -t 0 -x \(columns) -y \(rows)") }

    /// Polls the pane until `condition` holds (or `timeout` passes); returns the matching capture.
    func waitFor(timeout: Double = 15, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = screen
            if condition(text) { return text }
            usleep(50_000)
        }
        return nil
    }

    /// Like `waitFor`, but returns a capture only once two captures in a row agree (so not one taken
    /// while the program is half-way through writing a frame).
    func waitForSteady(timeout: Double = 15, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var previous: String?
        while Date() < deadline {
            let text = screen
            if condition(text) {
                if text == previous { return text }
                previous = text
            } else {
                previous = nil
            }
            usleep(50_000)
        }
        return nil
    }

    /// A path inside the test's private directory.
    func path(_ name: String) -> String { directory + "/" + name }
}

/// A 16-bit mono WAV of a steady sine (no dependency on the file reader's own test helpers).
func writeSineWAV(path: String, frequency: Double, seconds: Double, sampleRate: Int = 48000) throws {
    let n = Int(seconds * Double(sampleRate))
    var data = Data()
    func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + 2 * n)); data.append(contentsOf: Array("WAVE".utf8))
    data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(1); u32(UInt32(sampleRate))
    u32(UInt32(sampleRate * 2)); u16(2); u16(16)
    data.append(contentsOf: Array("data".utf8)); u32(UInt32(2 * n))
    for i in 0..<n {
        let v = 0.5 * sin(2 * Double.pi * frequency * Double(i) / Double(sampleRate) + 0.3)
        u16(UInt16(bitPattern: Int16(clamping: Int((v * 32767).rounded()))))
    }
    try data.write(to: URL(fileURLWithPath: path))
}
