import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What several test targets need to run the real program: the built executable and a shell.
/// (`Foundation.Process` + tmux hangs on this platform, so command lines go through `popen`.)
public enum Shell {
    /// Standard output of `/bin/sh -c command`, read to its end (`popen`/`pclose`); the command runs
    /// with `TestEnvironment.configHome` as its config folder.
    public static func output(_ command: String) -> String {
        guard let pipe = popen(TestEnvironment.shellPrefix + command, "r") else { return "" }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        pclose(pipe)
        return String(decoding: data, as: UTF8.self)
    }

    /// The `tuner` executable built beside the test binary.
    public static var tunerPath: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("tuner").path
    }
}

/// A capture device with no sound card: a private `~/.asoundrc` under `home` defines PCM `name` that
/// plays `samples` (raw 32-bit float, mono) through alsa-lib's `file` plugin. The plugin never ends
/// (it repeats stale data), so a run is cut after a known number of readings.
public enum ALSAFileDevice {
    public static func install(_ samples: [Float], home: String, name: String = "tunerfile") throws {
        let raw = home + "/\(name).raw"
        try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: raw))
        try """
            pcm.\(name) {
                type file
                slave.pcm null
                file "/dev/null"
                infile "\(raw)"
                format "raw"
            }
            """.write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
    }
}

/// A fresh directory under the system's temporary folder, removed when the value is released.
public final class TemporaryDirectory {
    public let url: URL
    public init(_ name: String = "tuner-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    public func path(_ file: String) -> String { url.appendingPathComponent(file).path }
}

/// What every program a test starts shares: a config folder of its own, so that no test reads the
/// config file of the user running the tests (`~/.config/tuner/config`) and each test that wants a
/// config file writes it where its child will look.
public enum TestEnvironment {
    /// An empty folder made once per test process: `XDG_CONFIG_HOME` of every child.
    public static let configHome: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tuner-tests-config-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestEnvironment.configHome) }
        return url.path
    }()

    /// `environment` with `XDG_CONFIG_HOME` set to `configHome`, unless the test chose the config folder
    /// itself: set `XDG_CONFIG_HOME`, or a `HOME` of its own (a private sound server's clients find their
    /// client.conf under it, so it must stay the config folder).
    public static func isolated(_ environment: [String: String]) -> [String: String] {
        if environment["XDG_CONFIG_HOME"] != nil { return environment }
        if let home = environment["HOME"], home != userHome { return environment }
        return environment.merging(["XDG_CONFIG_HOME": configHome]) { $1 }
    }

    /// The HOME of whoever runs the tests.
    static let userHome = ProcessInfo.processInfo.environment["HOME"]

    /// Put before a shell command line (`system`, `popen`) to run it with `configHome`.
    public static var shellPrefix: String { "XDG_CONFIG_HOME='\(configHome)'; export XDG_CONFIG_HOME; " }
}

