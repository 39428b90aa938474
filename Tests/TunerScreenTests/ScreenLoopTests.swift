import Foundation
import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

/// Keys and sizes from a script instead of a terminal: each `.input` event reads the next batch of
/// keys, each `.resize` the next size.
final class ScriptedInput: ScreenInput {
    var keyBatches: [[ScreenKey]]
    var sizes: [ScreenSize]
    var size = ScreenSize(rows: 24, columns: 80)
    var handled = 0
    init(keys: [[ScreenKey]] = [], sizes: [ScreenSize] = []) {
        keyBatches = keys
        self.sizes = sizes
    }
    func readKeys() -> [ScreenKey] { keyBatches.isEmpty ? [] : keyBatches.removeFirst() }
    func inputHandled() { handled += 1 }
    func currentSize() -> ScreenSize {
        if !sizes.isEmpty, handledResizes { size = sizes.removeFirst() }
        handledResizes = true
        return size
    }
    private var handledResizes = false  // the first call is the loop's start, not a resize
}

/// The event loop with an off-screen canvas. The events are queued up front and the loop runs to its
/// end; every frame it drew is recorded. Nothing waits on a clock.
@Suite struct ScreenLoopTests {
    struct Run {
        var outcome: ScreenOutcome
        var frames: [String]
        var input: ScriptedInput
        var loop: ScreenLoop
    }

    func run(_ events: [ScreenEvent], input: ScriptedInput = ScriptedInput(), finish: Bool = true) async -> Run {
        let canvas = TextCanvas(size: input.size)
        let loop = ScreenLoop(model: ScreenModel(sourceLabel: "fake", sampleRate: 48000, size: input.size),
                              canvas: canvas, input: input)
        var frames: [String] = []
        loop.onFrame = { model in
            canvas.size = model.size
            ScreenRenderer.draw(model, on: canvas)  // the canvas follows the model's size
            frames.append(canvas.text)
        }
        let (stream, send) = AsyncStream<ScreenEvent>.makeStream()
        for event in events { send.yield(event) }
        if finish { send.finish() }
        let outcome = await loop.run(stream)
        return Run(outcome: outcome, frames: frames, input: input, loop: loop)
    }

    @Test func aReadingReachesTheScreenWithNoTimer() async {
        let r = await run([.measurement(reading(cents: -7.3)), .signal(15)])
        #expect(r.frames.count == 2)
        #expect(r.frames.first?.contains("play a string") == true)
        #expect(r.frames.last?.contains("A2   109.54 Hz   -7.3 ¢   ♭ FLAT") == true)
        #expect(r.outcome == .signal(15))
        #expect(r.outcome.exitCode == 143)
    }

    @Test func identicalReadingsDrawNothing() async {
        var events: [ScreenEvent] = [.measurement(reading(cents: 2.01))]
        events += Array(repeating: .measurement(reading(cents: 2.02)), count: 50)  // still +2.0 ¢
        events += [.measurement(reading(cents: 2.5)), .signal(2)]
        let r = await run(events)
        #expect(r.frames.count == 3, "first frame, +2.0 ¢, +2.5 ¢")
        #expect(r.frames.last?.contains("+2.5 ¢") == true)
        #expect(r.outcome == .signal(2))
        #expect(r.outcome.exitCode == 130)
    }

    @Test func keysChangeTheModelsSettings() async {
        let input = ScriptedInput(keys: [[.toleranceUp, .referenceUp, .other], []],
                                  sizes: [ScreenSize(rows: 10, columns: 30)])
        let r = await run([.input, .resize, .input], input: input)
        #expect(r.outcome == .quit, "the events ended")
        #expect(r.loop.model.settings == .init(a4: Hertz(441), tolerance: Cents(3.5)))
        #expect(input.handled == 2)
        #expect(r.frames.count == 3, "start, settings, resize; the empty input draws nothing")
        #expect(r.frames[1].contains("A4 441 Hz · tolerance ±3.5 ¢"))
        #expect(r.frames[2].hasPrefix("Terminal too small"))
    }

    @Test func quitKeyEndsTheLoop() async {
        let r = await run([.input, .measurement(reading(cents: 1))], input: ScriptedInput(keys: [[.quit]]), finish: false)
        #expect(r.outcome == .quit)
        #expect(r.outcome.exitCode == 0)
        #expect(r.frames.count == 1, "the reading after q is never shown")
    }

    @Test func failedInputEndsTheLoopWithItsMessage() async {
        let message = "capture device \"x\" stopped delivering audio (ALSA: No such device)"
        let r = await run([.readingsEnded(failure: message)], finish: false)
        #expect(r.outcome == .sourceFailed(message))
        #expect(r.outcome.exitCode == nil)
    }

    @Test func endOfInputKeepsTheScreenUntilQuit() async {
        let r = await run([.measurement(reading(cents: 0.1)), .readingsEnded(failure: nil), .input],
                          input: ScriptedInput(keys: [[.quit]]), finish: false)
        #expect(r.outcome == .quit)
        #expect(r.frames.last?.contains("input ended — q quits") == true)
        #expect(r.frames.last?.contains("A2") == true)
        #expect(r.frames.last?.contains("IN TUNE ✓") == true, "the last reading keeps its cue")
    }
}

/// The UI path has no timer and no polling sleep: grep the screen's sources.
@Suite struct NoTimerTests {
    @Test func screenSourcesUseNoTimerOrSleep() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/TunerScreen").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 5)
        let forbidden = ["Timer", "sleep(", "usleep", "nanosleep", "asyncAfter", "halfdelay", "timeout(", "Task.sleep"]
        for file in files {
            let text = try String(contentsOfFile: dir.appendingPathComponent(file).path, encoding: .utf8)
            for word in forbidden {
                #expect(!text.contains(word), "\(file) contains \(word)")
            }
        }
    }
}
