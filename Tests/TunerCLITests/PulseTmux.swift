import Foundation
import TunerTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A detached tmux session (80×24, private socket `-L`) whose shell has only the given environment, for
/// watching `tuner`'s screen against a private sound server. Every tmux call is a `ChildProcess`
/// (closes the test's descriptors; the server is started through `sh -c '… >/dev/null 2>&1'` so the
/// daemon holds none of the test's pipes — Foundation.Process hangs on that, PLATFORM-NOTES).
/// `deinit` kills the tmux server.
final class PulseTmux {
    let socket: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(name: String, environment: [String: String]) throws {
        socket = "tuner-pulse-\(name)-\(getpid())"
        let variables = TestEnvironment.isolated(environment).merging(["TERM": "tmux-256color", "PS1": "PROMPT$ "]) { $1 }
            .sorted { $0.key < $1.key }.map { quote("\($0.key)=\($0.value)") }.joined(separator: " ")
        let shell = "env -i \(variables) sh"
        let start = "exec tmux -L \(socket) new-session -d -x 80 -y 24 \(quote(shell)) >/dev/null 2>&1"
        let child = try ChildProcess("/bin/sh", ["-c", start], environment: ["PATH": "/usr/bin:/bin"])
        guard child.wait(timeout: 10) == .exited(0) else {
            child.stop()
            throw Failure(description: "tmux new-session failed")
        }
        tmux(["set-option", "-g", "status", "off"])
        guard waitFor(timeout: 10, { $0.contains("PROMPT$") }) != nil else {
            throw Failure(description: "no shell prompt in tmux")
        }
    }

    deinit { tmux(["kill-server"]) }

    func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs `tmux -L socket arguments`; returns its standard output ("" when it fails).
    @discardableResult
    func tmux(_ arguments: [String]) -> String {
        guard let child = try? ChildProcess("tmux", ["-L", socket] + arguments, environment: ["PATH": "/usr/bin:/bin"])
        else { return "" }
        guard child.wait(timeout: 10) != nil else {
            child.stop()
            return ""
        }
        return child.standardOutput
    }

    /// Types `line` and Enter into the shell.
    func run(_ line: String) {
        tmux(["send-keys", "-t", "0", "-l", line])
        tmux(["send-keys", "-t", "0", "Enter"])
    }

    /// Sends keys (tmux key names, e.g. `t` or `Escape`) to the pane.
    func keys(_ keys: String) { tmux(["send-keys", "-t", "0", keys]) }

    var screen: String { tmux(["capture-pane", "-p", "-t", "0"]) }
    func paneFlag(_ format: String) -> String {
        tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `condition` holds; returns the matching capture, nil after `timeout` seconds.
    func waitFor(timeout: Double = 15, _ condition: (String) -> Bool) -> String? {
        let deadline = ChildProcess.now() + timeout
        while ChildProcess.now() < deadline {
            let text = screen
            if condition(text) { return text }
            usleep(50_000)
        }
        return nil
    }
}
