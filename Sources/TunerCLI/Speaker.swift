import Foundation
import TunerAudio

/// `--speak`: says a line through espeak-ng, one child process per line, started directly with its
/// own argument list (`espeak-ng --stdout <line>`, no shell, so nothing in the line is interpreted).
/// espeak-ng writes the speech as a WAV to its standard output, and the tuner plays it through its
/// own ALSA playback (`--playback-device`): espeak-ng exits 0 even when it cannot reach a sound
/// device, so letting it play would make a missing device silent; this way a device error is the
/// same one-line error (exit 69) as for the tone and the chimes. `say` returns when the speech has
/// been played, so that the caller knows when to listen again.
///
/// The seams: `launch` runs a program with arguments and returns how it ended and what it wrote;
/// `play` plays a sound. Tests replace them (or put a fake `espeak-ng` first on `PATH`).
struct Speaker: Sendable {
    /// The espeak-ng executable found on `PATH`.
    let executable: String
    /// How a run of the program ended: its exit status, the last line it wrote to standard error,
    /// and everything it wrote to standard output.
    struct Launched: Sendable {
        var status: Int32
        var message: String
        var output: [UInt8]
    }
    /// Runs `executable` with `arguments` and waits for it.
    var launch: @Sendable (_ executable: String, _ arguments: [String]) async -> Launched
    /// Plays the speech to its end.
    var play: @Sendable (Sound) async throws(ALSAError) -> Void

    static let programName = "espeak-ng"
    /// The rate espeak-ng's voices speak at (its WAV says so; the device is reopened if one differs).
    static let speechRate = 22050

    init(executable: String, launch: @escaping @Sendable (String, [String]) async -> Launched = Speaker.runProcess,
         play: @escaping @Sendable (Sound) async throws(ALSAError) -> Void) {
        self.executable = executable
        self.launch = launch
        self.play = play
    }

    /// A speaker playing through `player`.
    init(executable: String, player: SoundPlayer) {
        self.init(executable: executable, play: { sound throws(ALSAError) in try await player.play(sound) })
    }

    /// Why `--speak` cannot be used.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The espeak-ng on `path` (a `PATH` value), or why there is none.
    static func find(path: String?) -> Result<String, Failure> {
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + programName
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return .success(candidate)
            }
        }
        return .failure(Failure(description: "--speak needs espeak-ng, which was not found on PATH; install it "
                                + "(e.g. 'apt-get install espeak-ng') or use --announce to print the notes instead."))
    }

    /// Says `text` and returns when the speech has been played; throws when espeak-ng failed, gave
    /// no speech, or the playback device failed (its one-line error).
    func say(_ text: String) async throws(Failure) {
        let ran = await launch(executable, ["--stdout", text])
        guard ran.status == 0 else {
            let detail = ran.message.isEmpty ? "" : ": \(ran.message)"
            throw Failure(description: "espeak-ng failed (exit status \(ran.status))\(detail); check that it can speak "
                          + "(e.g. 'espeak-ng test') or use --announce instead.")
        }
        let speech: Sound
        do {
            speech = try WAVBytes.decode(ran.output)
        } catch {
            throw Failure(description: "espeak-ng gave no speech to play (\(error)); check that it can speak "
                          + "(e.g. 'espeak-ng --stdout test | aplay') or use --announce instead.")
        }
        do {
            try await play(speech)
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// Starts the program with `Foundation.Process` (posix_spawn underneath), reads both of its
    /// pipes to their end at the same time (the speech is larger than a pipe holds) on threads of
    /// the dispatch pool, and waits for it.
    @Sendable static func runProcess(_ executable: String, _ arguments: [String]) async -> Launched {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let output = Pipe(), errors = Pipe()
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = output
                process.standardError = errors
                do {
                    try process.run()
                } catch {
                    continuation.resume(returning: Launched(status: 127, message: error.localizedDescription, output: []))
                    return
                }
                let errorText = ErrorText()
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) {
                    errorText.data = errors.fileHandleForReading.readDataToEndOfFile()
                }
                let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
                group.wait()
                process.waitUntilExit()
                let last = String(decoding: errorText.data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
                continuation.resume(returning: Launched(status: process.terminationStatus, message: last, output: bytes))
            }
        }
    }

    /// Standard error as read by its own thread; read after `DispatchGroup.wait`.
    private final class ErrorText: @unchecked Sendable {
        var data = Data()
    }
}
