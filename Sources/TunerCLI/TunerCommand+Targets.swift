#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// What the readings are measured against — the temperament or Scala scale — and `--tone`, which plays one of them.
extension TunerCommand {
    /// The table of targets the options ask for: a built-in temperament, or a Scala `.scl` (and `.kbm`)
    /// file read now. A file that cannot be read or is not a valid scale is one line naming the file
    /// (and line) and exit 66; a scale that does not fit the other flags is a usage error (64).
    static func loadSystem(_ options: inout TunerOptions, io: SystemIO) -> Result<TargetSystem, Exit> {
        guard options.temperamentIsFile else {
            return .success(options.system(temperament: Temperament.named(options.temperament) ?? .equal))
        }
        func read(_ path: String) -> String? {
            guard let data = FileManager.default.contents(atPath: path),
                  let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                io.printError("Error: cannot read '\(path)': "
                              + (!exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "not readable")
                              + "\n")
                return nil
            }
            return text
        }
        let path = options.temperament
        guard let text = read(path) else { return .failure(Exit(code: .noInput)) }
        // Scala keeps a scale's keyboard mapping beside it under the same name (song.scl, song.kbm): that
        // one is used when --kbm names none.
        if options.kbm == nil, path.hasSuffix(".scl") {
            let beside = String(path.dropLast(4)) + ".kbm"
            if FileManager.default.fileExists(atPath: beside) { options.kbm = beside }
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let temperament: Temperament
        var mapping: Scala.KeyboardMapping?
        do throws(ScalaError) {
            temperament = try Scala.scale(text: text, file: path, name: name)
            if let kbm = options.kbm {
                guard let text = read(kbm) else { return .failure(Exit(code: .noInput)) }
                mapping = try Scala.mapping(text: text, file: kbm, scale: temperament)
            }
        } catch {
            io.printError("Error: \(UsageMessages.message(for: error))\n")
            return .failure(Exit(code: .noInput))
        }
        let system = options.system(temperament: temperament, mapping: mapping)
        if temperament.count != 12, options.tuning != nil {
            io.printError("Error: '--tuning' needs a temperament of 12 notes; '\(name)' has \(temperament.count): "
                          + "leave out one of them.\n")
            return .failure(Exit(code: .usage))
        }
        // A keyboard mapping may leave keys unmapped: a tone or a string there has no frequency.
        if let kbm = options.kbm, system.namesKeys,
           let (flag, note) = ([options.tone.map { ("--tone <note>", $0) }]
                               + (options.tuning?.strings ?? []).map { Optional(("--tuning <notes>", $0)) })
               .compactMap({ $0 }).first(where: { !system.isTarget($0.1) }) {
            io.printError("Error: Invalid value for '\(flag)': \(system.name(of: note)) is not a key that '\(kbm)' maps; "
                          + "use keys it maps to a degree.\n")
            return .failure(Exit(code: .usage))
        }
        if let text = options.expectText {
            guard let expected = try? Expectation(parsing: text, system: system) else {
                if let keyboard = system.keyboard, let kbm = options.kbm, system.namesKeys {
                    io.printError("Error: Invalid value '\(text)' for '--expect <note>': not a key that '\(kbm)' maps; "
                                  + "name a key it maps to a degree (MIDI \(keyboard.first)…\(keyboard.last), not 'x').\n")
                    return .failure(Exit(code: .usage))
                }
                io.printError("Error: Invalid value '\(text)' for '--expect <note>': not a note of '\(name)'; write "
                              + "the root of a period and the degree above it, e.g. C4 or C4+3.\n")
                return .failure(Exit(code: .usage))
            }
            options.expect = expected.note
        }
        return .success(system)
    }

    /// `--tone`: plays `note` (at `--a4`, in the temperament asked for) for `--duration` seconds and
    /// returns when it has been heard.
    static func playTone(_ note: Note, system: TargetSystem, options: TunerOptions, io: SystemIO) async -> ExitCode {
        let frequency = system.frequency(of: note, a4: options.a4)
        let sound = Sounds.tone(frequency, seconds: options.duration, timbre: options.toneTimbre,
                                rate: TunerOptions.playbackRate)
        let player = SoundPlayer(device: options.playbackDevice)
        defer { player.close() }
        do {
            try player.open(rate: sound.rate)
        } catch {
            io.printError("Error: \(error)\n")
            return .unavailable
        }
        let line = "Playing \(note) (\(String(format: "%.2f", frequency.value)) Hz, A4 = "
            + "\(TunerFlags.number(options.a4.value)) Hz) for \(TunerFlags.number(options.duration)) s.\n"
        if print(line, io: io) != ExitCode.success.rawValue { return .failure }
        do {
            try await player.play(sound)
        } catch {
            io.printError("Error: \(error)\n")
            return .unavailable
        }
        return .success
    }
}
