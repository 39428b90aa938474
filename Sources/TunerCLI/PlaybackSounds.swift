import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// The tuner's sounds through ALSA playback (`--playback-device`): the reference tone for key t,
/// made when the key is pressed (its note and A4 are only known then) with `--tone-timbre` and
/// `--duration`, and the two chimes (`--chime`), made once at the start. `SoundPlayer` plays them on
/// its own thread.
struct PlaybackSounds: ScreenSounds {
    let player: SoundPlayer
    let timbre: Sounds.Timbre
    let duration: Double
    let inTune: Sound
    let outOfTune: Sound
    /// The rate every sound is made at.
    let rate: Int

    init(player: SoundPlayer, options: TunerOptions, rate: Int) {
        self.player = player
        self.rate = rate
        timbre = options.toneTimbre
        duration = options.duration
        inTune = Sounds.chime(inTune: true, rate: rate)
        outOfTune = Sounds.chime(inTune: false, rate: rate)
    }

    /// The sound for a request.
    func sound(for request: ScreenSound) -> Sound {
        switch request {
        case .tone(_, let frequency):
            return Sounds.tone(frequency, seconds: duration, timbre: timbre, rate: rate)
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
