import Foundation

/// `--speak`: says a line through espeak-ng, one child process per line, started directly with its
/// own argument list (`espeak-ng <line>`, no shell, so nothing in the line is interpreted), and
/// waited for, so that the caller knows when the speech is over.
///
/// The process start is the seam: `launch` runs a program with arguments and returns how it ended;
/// tests replace it (or put a fake `espeak-ng` first on `PATH`).
struct Speaker: Sendable {
    /// The espeak-ng executable found on `PATH`.
    let executable: String
    /// Runs `executable` with `arguments`, waits for it, and returns its exit status and the last
    /// line it wrote to standard error.
    var launch: @Sendable (_ executable: String, _ arguments: [String]) async -> (status: Int32, message: String)

    static let programName = "espeak-ng"

    init(executable: String, launch: @escaping @Sendable (String, [String]) async -> (status: Int32, message: String)
         = Speaker.runProcess) {
        self.executable = executable
        self.launch = launch
    }

    /// Why `--speak` cannot be used.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The speaker for espeak-ng on `path` (a `PATH` value), or why there is none.
    static func find(path: String?) -> Result<Speaker, Failure> {
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + programName
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return .success(Speaker(executable: candidate))
            }
        }
        return .failure(Failure(description: "--speak needs espeak-ng, which was not found on PATH; install it "
                                + "(e.g. 'apt-get install espeak-ng') or use --announce to print the notes instead."))
    }

    /// Says `text` and returns when espeak-ng has finished; throws when it failed.
    func say(_ text: String) async throws(Failure) {
        let (status, message) = await launch(executable, [text])
        guard status == 0 else {
            let detail = message.isEmpty ? "" : ": \(message)"
            throw Failure(description: "espeak-ng failed (exit status \(status))\(detail); check that it can speak "
                          + "(e.g. 'espeak-ng test') or use --announce instead.")
        }
    }

    /// Starts the program with `Foundation.Process` (posix_spawn underneath) and waits for it.
    @Sendable static func runProcess(_ executable: String, _ arguments: [String]) async -> (status: Int32, message: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { ended in
                let data = errors.fileHandleForReading.readDataToEndOfFile()
                let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
                continuation.resume(returning: (ended.terminationStatus, last))
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: (127, "\(error.localizedDescription)"))
            }
        }
    }
}
