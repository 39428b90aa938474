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

    /// Keys that change A4 or the tolerance change the model's `ReadingPipeline` directly: nothing
    /// goes back to the session.
    public init(model: ScreenModel, canvas: ScreenCanvas, input: ScreenInput) {
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
            case .strum(let measurement):
                if model.apply(strum: measurement) { redrawIfChanged() }
            case .readingsEnded(let failure):
                if let failure { return .sourceFailed(failure) }
                model.inputEnded()
                redrawIfChanged()
            case .input:
                for key in input.readKeys() {
                    switch model.handle(key) {
                    case .quit: return .quit
                    case .strumsChanged(let on): onStrumsChanged?(on)
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

    private func redrawIfChanged() {
        let display = model.display
        guard display != drawn else { return }
        drawn = display
        ScreenRenderer.draw(model, on: canvas)
        frames += 1
        onFrame?(model)
    }
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
