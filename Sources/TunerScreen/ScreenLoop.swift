import TunerBridge
import TunerMusic

/// The screen's one event loop: a `for await` over merged measurements, key, resize and signal events that
/// updates the `ScreenModel` and redraws only when what is shown changed. No timer anywhere — if no
/// event arrives, nothing happens.
///
/// Everything here runs on the task that calls `run`, so the canvas (curses) is used from one place.
public final class ScreenLoop {
    public private(set) var model: ScreenModel
    private let canvas: ScreenCanvas
    private let input: ScreenInput
    private var drawn: ScreenModel.Display?
    /// Called after each frame is drawn (tests watch frames with it).
    public var onFrame: ((ScreenModel) -> Void)?
    /// Called when key p switched strum mode on (true) or off, so the session's engine follows.
    public var onStrumsChanged: ((Bool) -> Void)?
    /// Frames drawn so far.
    public private(set) var frames = 0
    private let sounds: (any ScreenSounds)?
    private let chime: Bool
    private let post: @Sendable (ScreenEvent) -> Void

    /// Keys that change A4 or the tolerance change the model's `ReadingPipeline` directly: nothing
    /// goes back to the session.
    /// - Parameters:
    ///   - sounds: plays the tone (key t) and the chimes; nil: no sound (key t does nothing).
    ///   - chime: a chime each time a note or, in strum mode, a strum settles (`--chime`).
    ///   - post: puts an event into the stream `run` consumes (`.soundEnded` when a sound is over).
    public init(model: ScreenModel, canvas: ScreenCanvas, input: ScreenInput, sounds: (any ScreenSounds)? = nil,
                chime: Bool = false, post: @escaping @Sendable (ScreenEvent) -> Void = { _ in }) {
        self.sounds = sounds
        self.chime = chime
        self.post = post
        self.model = model
        self.canvas = canvas
        self.input = input
    }

    /// Draws the first frame, then handles events until q/Esc, a signal, or a failed source.
    public func run(_ events: AsyncStream<ScreenEvent>) async -> ScreenOutcome {
        model.resize(to: input.currentSize())
        redrawIfChanged()
        for await event in events {
            switch event {
            case .measurement(let measurement):
                if model.apply(measurement) { redrawIfChanged() }
                if chime, let settled = model.settledNow { play(.chime(inTune: settled.isInTune)) }
            case .strum(let measurement):
                if model.apply(strum: measurement) { redrawIfChanged() }
                if chime, let settled = model.strumSettledNow { play(.chime(inTune: settled.isInTune)) }
            case .soundEnded(let failure):
                model.soundEnded(failure: failure)
                redrawIfChanged()
            case .readingsEnded(let failure):
                if let failure { return .sourceFailed(failure) }
                model.inputEnded()
                redrawIfChanged()
            case .input:
                for key in input.readKeys() {
                    switch model.handle(key) {
                    case .quit: return .quit
                    case .strumsChanged(let on): onStrumsChanged?(on)
                    case .play(let sound): play(sound)
                    case .settingsChanged, .viewChanged, .ignored: break
                    }
                }
                input.inputHandled()
                redrawIfChanged()
            case .resize:
                model.resize(to: input.currentSize())
                redrawIfChanged()
            case .signal(let number):
                return .signal(number)
            }
        }
        return .quit
    }

    /// Starts `sound` on the sounds' own thread unless one is playing; the input is ignored until
    /// `.soundEnded` comes back.
    private func play(_ sound: ScreenSound) {
        guard let sounds, model.soundPlaying == nil else { return }
        model.soundStarted(sound)
        let post = self.post
        Task {
            let failure = await sounds.play(sound)
            post(.soundEnded(failure: failure))
        }
    }

    private func redrawIfChanged() {
        let display = model.display
        guard display != drawn else { return }
        drawn = display
        ScreenRenderer.draw(model, on: canvas)
        frames += 1
        onFrame?(model)
    }
}

/// Plays the screen's sounds (the command line gives one that plays through ALSA playback).
public protocol ScreenSounds: Sendable {
    /// Plays `sound` to its end; nil when it played, else why not, in one line.
    func play(_ sound: ScreenSound) async -> String?
}

/// Where keys and the terminal size come from (the curses terminal, or a script in tests).
public protocol ScreenInput: AnyObject {
    /// The keys waiting now, without blocking (called after an `.input` event).
    func readKeys() -> [ScreenKey]
    /// Called after the keys of an `.input` event were handled, so the next one may come.
    func inputHandled()
    /// The terminal size now (after a resize, as the kernel reports it).
    func currentSize() -> ScreenSize
}
