import Foundation
import Synchronization
import TunerTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for tests that must run several programs at once (a sound
/// server, the tuner, a player) and never leave one behind.
///
/// Why not `Foundation.Process`: its exit watching hangs when a child hands a descriptor on to a daemon
/// (PLATFORM-NOTES), and the tests here kill children mid-run. The child gets `/dev/null` as standard
/// input, its own process group, and no descriptors of the test process other than its two output pipes
/// (`posix_spawn_file_actions_addclosefrom_np(3)`), so a pipe of a test running in parallel never leaks
/// into it. Both pipes are read to their end by a thread each; every complete line of standard output
/// is kept with the monotonic time it arrived. The process is killed and reaped in `deinit` at the latest.
final class ChildProcess: @unchecked Sendable {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// How the process ended.
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        var description: String {
            switch self {
            case .exited(let code): return "exit status \(code)"
            case .signalled(let signal): return "signal \(signal)"
            }
        }
    }

    /// A line of standard output and when (`CLOCK_MONOTONIC`, seconds) the test read it.
    struct Line {
        var text: String
        var arrival: Double
    }

    /// Two glibc calls the Swift Glibc module does not import (they need `_GNU_SOURCE`), looked up with `dlsym`:
    /// `pipe2` (pipes that are close-on-exec from the start, so no parallel spawn inherits them) and
    /// `posix_spawn_file_actions_addclosefrom_np` (the child closes every descriptor from 3 up).
    private enum GNU {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        static func symbol<T>(_ name: String, as type: T.Type) -> T {
            guard let address = dlsym(nil /* RTLD_DEFAULT on glibc */, name) else {
                fatalError("glibc has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        nonisolated(unsafe) static let pipe2 = symbol("pipe2", as: Pipe2.self)
        nonisolated(unsafe) static let closeFrom = symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)
    }

    let pid: pid_t
    let command: String
    /// When the process was started (`CLOCK_MONOTONIC`, seconds).
    let started: Double

    private struct Output {
        var lines: [Line] = []
        var partial: [UInt8] = []
        var errorBytes: [UInt8] = []
    }
    /// What the reader threads collected; shared with them (they must not keep the process object alive).
    private final class Collected: Sendable {
        let output = Mutex(Output())
        func withLock<R>(_ body: (inout Output) -> R) -> R { output.withLock { body(&$0) } }
    }
    private let output = Collected()
    private let readersDone = DispatchGroup()
    private let state = Mutex<Ending?>(nil)

    /// Starts `executable` (a full path, or a name looked up in `PATH`) with `arguments` and the variables
    /// in `environment`, plus the tests' own config folder (`TestEnvironment.isolated`).
    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        let path = executable.hasPrefix("/") ? executable : (Self.which(executable) ?? executable)
        command = ([executable] + arguments).joined(separator: " ")

        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard GNU.pipe2(&outPipe, O_CLOEXEC) == 0 else { throw SpawnError(description: "pipe2 failed: \(errno)") }
        guard GNU.pipe2(&errPipe, O_CLOEXEC) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw SpawnError(description: "pipe2 failed: \(errno)")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        _ = GNU.closeFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group; default signal handling (the test process may ignore SIGPIPE).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = TestEnvironment.isolated(environment).sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw SpawnError(description: "cannot start \(command): \(String(cString: strerror(rc)))")
        }
        pid = child
        started = Self.now()
        readToEnd(outPipe[0], lines: true)
        readToEnd(errPipe[0], lines: false)
    }

    deinit {
        if ending == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        _ = readersDone.wait(timeout: .now() + 5)
    }

    /// Monotonic clock in seconds.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// The full path of `name` in `PATH` (then, with `fallback`, in /usr/bin, /bin, /usr/sbin, /sbin), or
    /// nil when there is no such program.
    static func which(_ name: String, fallback: Bool = true) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let places = path.split(separator: ":").map(String.init) + (fallback ? ["/usr/bin", "/bin", "/usr/sbin", "/sbin"] : [])
        for place in places where access(place + "/" + name, X_OK) == 0 { return place + "/" + name }
        return nil
    }

    private func readToEnd(_ descriptor: Int32, lines: Bool) {
        readersDone.enter()
        let thread = Thread { [output, readersDone] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let arrival = Self.now()
                output.withLock { out in
                    if !lines {
                        out.errorBytes += buffer[0..<n]
                        return
                    }
                    for byte in buffer[0..<n] {
                        if byte == UInt8(ascii: "\n") {
                            out.lines.append(Line(text: String(decoding: out.partial, as: UTF8.self), arrival: arrival))
                            out.partial.removeAll(keepingCapacity: true)
                        } else {
                            out.partial.append(byte)
                        }
                    }
                }
            }
            close(descriptor)
            readersDone.leave()
        }
        thread.start()
    }

    /// The complete lines of standard output so far.
    var lines: [Line] { output.withLock { $0.lines } }
    /// Standard output so far (complete lines and the unfinished one).
    var standardOutput: String {
        output.withLock { out in out.lines.map { $0.text + "\n" }.joined() + String(decoding: out.partial, as: UTF8.self) }
    }
    /// Standard error so far.
    var standardError: String { output.withLock { String(decoding: $0.errorBytes, as: UTF8.self) } }

    /// How the process ended, once it has been reaped; nil while it runs.
    var ending: Ending? { state.withLock { $0 } }

    /// Reaps the process if it has ended (`waitpid` with `WNOHANG`).
    @discardableResult
    func poll() -> Ending? {
        state.withLock { ending in
            if ending != nil { return ending }
            var status: Int32 = 0
            let rc = waitpid(pid, &status, WNOHANG)
            guard rc == pid else { return nil }
            let signal = status & 0x7f
            ending = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            return ending
        }
    }

    /// Waits up to `timeout` seconds for the process to end, then for its pipes to reach their end.
    /// Returns nil when it is still running.
    func wait(timeout: Double) -> Ending? {
        let deadline = Self.now() + timeout
        while poll() == nil {
            if Self.now() > deadline { return nil }
            usleep(5_000)
        }
        _ = readersDone.wait(timeout: .now() + max(0.5, deadline - Self.now()))
        return ending
    }

    /// Waits up to `timeout` seconds until `condition` holds for the lines of standard output so far.
    @discardableResult
    func waitForLines(timeout: Double, _ condition: ([Line]) -> Bool) -> Bool {
        let deadline = Self.now() + timeout
        while Self.now() < deadline {
            if condition(lines) { return true }
            if poll() != nil { return condition(lines) }
            usleep(5_000)
        }
        return condition(lines)
    }

    /// Sends `signal` to the process.
    func signal(_ signal: Int32) {
        if ending == nil { kill(pid, signal) }
    }

    /// Asks the process to stop (SIGTERM), then kills it after `grace` seconds; always reaps it.
    @discardableResult
    func stop(grace: Double = 3) -> Ending? {
        if let ending = poll() { return ending }
        kill(pid, SIGTERM)
        if let ending = wait(timeout: grace) { return ending }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        return wait(timeout: 5)
    }
}
