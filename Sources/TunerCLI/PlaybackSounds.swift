import TunerAudio
import TunerKit
import TunerScreen

/// The screen's sounds through ALSA playback (`--playback-device`): the reference tone for key t,
/// made when the key is pressed (its note and A4 are only known then) with `--tone-timbre` and
/// `--duration`, and the two chimes, made once at the start. `SoundPlayer` plays them on its own thread.
struct PlaybackSounds: ScreenSounds {
    let player: SoundPlayer
    let timbre: Sounds.Timbre
    let duration: Double
    let inTune: Sound
    let outOfTune: Sound

    init(player: SoundPlayer, options: TunerOptions) {
        self.player = player
        timbre = options.toneTimbre
        duration = options.duration
        inTune = Sounds.chime(inTune: true, rate: TunerOptions.playbackRate)
        outOfTune = Sounds.chime(inTune: false, rate: TunerOptions.playbackRate)
    }

    /// The sound for a request.
    func sound(for request: ScreenSound) -> Sound {
        switch request {
        case .tone(let note, let a4):
            return Sounds.tone(note.frequency(a4: a4), seconds: duration, timbre: timbre, rate: TunerOptions.playbackRate)
        case .chime(let good):
            return good ? inTune : outOfTune
        }
    }

    func play(_ request: ScreenSound) async -> String? {
        do {
            try await player.play(sound(for: request))
            return nil
        } catch {
            return "\(error)"
        }
    }
}
