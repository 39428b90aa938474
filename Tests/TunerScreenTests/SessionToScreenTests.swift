import Foundation
import Synchronization
import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

/// A fake input: half a second of a steady 440 Hz sine, then the end.
final class OneNoteSource: AudioSource {
    let sampleRate = 48000.0
    let label = "fake A4"
    private var position = 0
    private let total = 24000
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let n = min(buffer.count, total - position)
        for i in 0..<n {
            buffer[i] = Float(0.5 * sin(2 * Double.pi * 440 * Double(position + i) / sampleRate))
        }
        position += n
        return n
    }
}

/// From a source through the real engine and session to the screen loop, with no timer: the loop
/// draws when the stream delivers, and the test ends it (with a signal event) from the frame that
/// shows the note.
@Suite struct SessionToScreenTests {
    @Test func aReadingFromASessionReachesTheScreen() async throws {
        let session = try TunerSession(source: OneNoteSource(), delivery: .newestOnly)
        let canvas = TextCanvas(size: ScreenSize(rows: 24, columns: 80))
        let input = ScriptedInput()
        let loop = ScreenLoop(model: ScreenModel(sourceLabel: session.sourceLabel, sampleRate: session.sampleRate,
                                                 size: input.size),
                              canvas: canvas, input: input)
        let events = ScreenEventQueue()
        var shownNote: String?
        loop.onFrame = { model in
            if model.shown != nil, shownNote == nil {
                shownNote = canvas.lines.first { $0.contains(" Hz ") && !$0.contains("tolerance") }
                events.post(.signal(SIGTERM))  // seen it: end the loop
            }
        }
        let forwarding = TerminalEvents.forwardReadings(of: session, into: events)
        let outcome = await loop.run(events.stream)
        forwarding.cancel()
        session.stop()
        #expect(outcome == .signal(SIGTERM), "the loop ended because the note was drawn, not because input ran out")
        let line = try #require(shownNote)
        #expect(line.contains("A4   440.00 Hz   0.0 ¢   IN TUNE ✓"), "\(line)")
        #expect(canvas.lines[0].contains("fake A4, 48000 Hz"))
    }
}
