#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerTestSupport

/// A fake espeak-ng first on `PATH` for `--speak` runs: it records how it was called (`<argument
/// count>|<arguments>` per line in `log`) and writes a WAV of "speech" (`speech`, 0.2 s at espeak-ng's
/// 22050 Hz) to its standard output, which the tuner plays through its own playback device `out`: the
/// `file` plugin in a private ~/.asoundrc writes it to `played`. Run the tuner with `environment` before it.
struct FakeEspeak {
    let bin: String
    let log: String
    let played: String
    let speech: [Float]
    let environment: String

    /// Made in `dir`; each call takes `seconds` before it speaks (as a real one takes time to).
    init(in dir: TemporaryDirectory, seconds: Double = 0) throws {
        bin = dir.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        log = dir.path("calls.log")
        speech = Synth.sine(Hertz(300), seconds: 0.2, sampleRate: 22050, amplitude: 0.25)
        let speechWAV = try dir.write("speech.wav", [speech], rate: 22050, format: .init(.wav, .pcm16))
        let wait = seconds > 0 ? "sleep \(seconds)\n" : ""
        try "#!/bin/sh\nprintf '%s|%s\\n' \"$#\" \"$*\" >> '\(log)'\n\(wait)cat '\(speechWAV)'\n"
            .write(toFile: bin + "/espeak-ng", atomically: true, encoding: .utf8)
        chmod(bin + "/espeak-ng", 0o755)
        played = dir.path("out.wav")
        try "pcm.out { type file slave.pcm null file \"\(played)\" format \"wav\" }\n"
            .write(toFile: dir.path(".asoundrc"), atomically: true, encoding: .utf8)
        environment = "HOME=\(dir.url.path) PATH=\(bin):/usr/bin:/bin"
    }

    /// What it was called with so far.
    func calls() throws -> String { try String(contentsOfFile: log, encoding: .utf8) }
}
