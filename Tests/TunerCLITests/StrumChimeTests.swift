import Foundation
import Synchronization
import Testing
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// `--poly --announce --chime` (issue 17): a settled strum is chimed — in tune only when every heard
/// string is — and, on live input, the strum heard while the chime sounds is not read. Driven step by
/// step as SpeakWhileListeningTests: the hops are handed out only when asked for, and the fake chime
/// lasts until the "chime" hops were taken.
@Suite struct StrumChimeTests {
    static let guitar = Tuning.named("guitar")!
    static let tolerance = Cents(3)

    enum Item {
        case hop([Double?])
        /// Wait until the chime has started.
        case waitForChime
        /// Every hop before this was taken: let the chime end.
        case chimeHeard
    }

    /// Hands out the hops in order, 10 ms apart, through `AsyncStream(unfolding:)`; one task at a time.
    final class Script: @unchecked Sendable {
        var items: [Item]
        var time = 0.0
        var chimeStarted: AsyncStream<Void>.Iterator
        let chimeHeard: AsyncStream<Void>.Continuation
        init(_ items: [Item], chimeStarted: AsyncStream<Void>, chimeHeard: AsyncStream<Void>.Continuation) {
            self.items = items
            self.chimeStarted = chimeStarted.makeAsyncIterator()
            self.chimeHeard = chimeHeard
        }
        func next() async -> PolyMeasurement? {
            while !items.isEmpty {
                switch items.removeFirst() {
                case .hop(let cents):
                    defer { time += 0.01 }
                    return StrumChimeTests.strum(cents, at: time)
                case .waitForChime: _ = await chimeStarted.next()
                case .chimeHeard: chimeHeard.yield()
                }
            }
            return nil
        }
    }

    /// One hop: each string at `cents` from its target (nil: not heard).
    static func strum(_ cents: [Double?], at time: Double) -> PolyMeasurement {
        PolyMeasurement(time: time, strings: zip(StrumJudge(tuning: guitar).targets, cents).map { target, c in
            StringMeasurement(frequency: c.map { Hertz(target.value * pow(2, $0 / 1200)) }, level: Decibels(-20),
                              clarity: 0.9)
        })
    }

    /// `first` strummed for 1 s (it settles at 0.5 s and is chimed); while the first chime sounds the
    /// microphone hears every string 40 ¢ sharp for 1 s; then silence.
    func run(first: [Double?], ignoreWhileSounding: Bool) async -> (lines: [String], chimes: [Bool], code: ExitCode) {
        let (started, startedSink) = AsyncStream<Void>.makeStream()
        let (heard, heardSink) = AsyncStream<Void>.makeStream()
        var items = [Item](repeating: .hop(first), count: 100)
        items.append(.waitForChime)
        items += [Item](repeating: .hop([40, 40, 40, 40, 40, 40]), count: 100)
        items.append(.chimeHeard)
        items += [Item](repeating: .hop([nil, nil, nil, nil, nil, nil]), count: 50)
        let script = Script(items, chimeStarted: started, chimeHeard: heardSink)
        let hops = AsyncStream<PolyMeasurement>(unfolding: { await script.next() })

        let chimes = Mutex<[Bool]>([])
        let heardOnce = Mutex<AsyncStream<Void>.Iterator?>(heard.makeAsyncIterator())
        let chime: @Sendable (StrumSettler.Settled) async -> String? = { settled in
            let first = chimes.withLock { $0.append(settled.isInTune); return $0.count == 1 }
            if first {
                startedSink.yield()
                var waiting = heardOnce.withLock { iterator in defer { iterator = nil }; return iterator }
                _ = await waiting?.next()
            }
            return nil
        }
        let printed = Mutex<[UInt8]>([])
        let io = SystemIO(write: { _, bytes, count in
                              printed.withLock { $0 += UnsafeRawBufferPointer(start: bytes, count: count) }
                              return (count, 0)
                          }, ignoreBrokenPipe: {}, isTerminal: { _ in false })
        let code = await SettledOutput.announceStrums(hops, judge: StrumJudge(tuning: Self.guitar),
                                                      tolerance: Self.tolerance, sound: chime,
                                                      ignoreWhileSounding: ignoreWhileSounding, stop: {}, io: io)
        let text = String(decoding: printed.withLock { $0 }, as: UTF8.self)
        return (text.split(separator: "\n").map(String.init), chimes.withLock { $0 }, code)
    }

    @Test func aStrumInTuneChimesInTuneAndTheChimeIsNotRead() async {
        let result = await run(first: [0.5, -0.5, 1, 0, nil, 0.5], ignoreWhileSounding: true)
        #expect(result.code == .success)
        #expect(result.lines == ["E2 in tune, A2 in tune, D3 in tune, G3 in tune, E4 in tune"])
        #expect(result.chimes == [true])
        // The control: without ignoring, the hops heard during the chime settle as a strum of their own.
        let control = await run(first: [0.5, -0.5, 1, 0, nil, 0.5], ignoreWhileSounding: false)
        #expect(control.lines.count == 2, "\(control.lines)")
        #expect(control.lines.last?.hasPrefix("E2 40 cents sharp") == true, "\(control.lines)")
    }

    /// A file that ends 0.4 s into a strum, its strings ringing: with `finishAtEnd` the strum is said
    /// and chimed then; without (live input, whose readings end only when the user stops), neither.
    @Test func aStrumCutByTheEndOfAFileIsSaidAndChimedThen() async {
        func run(finishAtEnd: Bool) async -> (lines: [String], chimes: [Bool]) {
            let cents: [Double?] = [0.5, -0.5, 1, 0, nil, 0.5]
            let hops = AsyncStream<PolyMeasurement> { sink in
                for j in 0..<40 { sink.yield(Self.strum(cents, at: Double(j) / 100)) }
                sink.finish()
            }
            let chimes = Mutex<[Bool]>([])
            let printed = Mutex<[UInt8]>([])
            let io = SystemIO(write: { _, bytes, count in
                                  printed.withLock { $0 += UnsafeRawBufferPointer(start: bytes, count: count) }
                                  return (count, 0)
                              }, ignoreBrokenPipe: {}, isTerminal: { _ in false })
            let code = await SettledOutput.announceStrums(
                hops, judge: StrumJudge(tuning: Self.guitar), tolerance: Self.tolerance,
                sound: { settled in chimes.withLock { $0.append(settled.isInTune) }; return nil },
                ignoreWhileSounding: false, finishAtEnd: finishAtEnd, stop: {}, io: io)
            #expect(code == .success)
            let text = String(decoding: printed.withLock { $0 }, as: UTF8.self)
            return (text.split(separator: "\n").map(String.init), chimes.withLock { $0 })
        }
        let file = await run(finishAtEnd: true)
        #expect(file.lines == ["E2 in tune, A2 in tune, D3 in tune, G3 in tune, E4 in tune"])
        #expect(file.chimes == [true])
        let live = await run(finishAtEnd: false)
        #expect(live.lines.isEmpty && live.chimes.isEmpty, "\(live)")
    }

    /// One string just outside the tolerance makes the strum out of tune; just inside, in tune.
    @Test func oneStringOutsideTheToleranceChimesOutOfTune() async {
        let t = Self.tolerance.value
        let inside = await run(first: [0, 0, 0, t - 0.5, 0, 0], ignoreWhileSounding: true)
        #expect(inside.chimes == [true])
        let outside = await run(first: [0, 0, 0, t + 0.5, 0, 0], ignoreWhileSounding: true)
        #expect(outside.chimes == [false])
        #expect(outside.lines.count == 1)
    }
}
