#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// Where the audio comes from: the file or the capture device, the device lists, and a file's errors.
extension TunerCommand {
    /// `--list-devices` / `--list-playback-devices`: one capture or playback PCM per line, "name — description".
    static func listDevices(_ direction: ALSAError.Direction, io: SystemIO) -> ExitCode {
        let devices: [ALSADeviceHint]
        do {
            devices = try ALSACaptureSource.devices(direction)
        } catch {
            io.printError("Error: \(error)\n")
            return error.kind == .listing ? .config : .unavailable
        }
        let width = devices.map(\.name.count).max() ?? 0
        let lines = devices.map { device in
            device.description.isEmpty ? device.name
                : device.name + String(repeating: " ", count: width - device.name.count) + "  " + device.description
        }
        return ExitCode(rawValue: print(lines.map { $0 + "\n" }.joined(), io: io)) ?? .failure
    }

    /// An exit code carried as an error (the message is already printed).
    struct Exit: Error { var code: ExitCode }

    /// The input the options ask for: the file (at real-time pace when `paced`, for the screen), or the
    /// capture device. With no capture device and `demo` (the screen), the built-in demo instead, saying so
    /// in one line — unless a device was named. Prints why when there is no input.
    static func openSource(_ options: TunerOptions, paced: Bool, demo: Bool, io: SystemIO) -> Result<any AudioSource, Exit> {
        if let path = options.file {
            do {
                let file = try AudioFileSource(path: path, channel: options.channel)
                return .success(paced ? PacedSource(file) : file)
            } catch {
                return .failure(Exit(code: report(error, io: io)))
            }
        }
        do {
            return .success(try ALSACaptureSource(device: options.device, rate: options.rate))
        } catch {
            if demo && error.kind == .noDevice && !options.given.contains("device")
                && !options.configured.contains("device") {
                io.printError("No capture device (ALSA: \(error.reason)); showing the built-in demo.\n")
                return .success(DemoSource(sampleRate: Double(options.rate), a4: options.a4))
            }
            io.printError("Error: \(error)\n")
            return .failure(Exit(code: .unavailable))
        }
    }

    /// Prints a file error as one line and returns its exit code.
    static func report(_ error: AudioFileError, io: SystemIO) -> ExitCode {
        if case .channelOutOfRange(let requested, let available) = error.reason {
            let label = TunerFlags.all.first { $0.long == "channel" }!.label
            let fix = available == 1 ? "it has one channel; leave --channel out"
                : "'\(FileName.display(error.path))' has \(available) channels; use 1…\(available), or leave --channel out to mix them"
            io.printError("Error: Invalid value '\(requested)' for '\(label)': \(fix).\n")
            return .usage
        }
        io.printError("Error: \(error)\n")
        return .noInput
    }
}
