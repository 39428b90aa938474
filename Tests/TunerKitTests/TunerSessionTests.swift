import Foundation
import Testing
import TunerAudio
@testable import TunerKit

/// An in-memory source that hands out `samples` in `chunk`-sized reads, then ends (or fails).
final class ArraySource: AudioSource {
    let sampleRate: Double
    let label = "test signal"
    private let samples: [Float]
    private let chunk: Int
    private var position = 0
    private let failAtEnd: Bool
    struct Vanished: Error {}

    init(_ samples: [Float], sampleRate: Double, chunk: Int = 777, failAtEnd: Bool = false) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.chunk = chunk
        self.failAtEnd = failAtEnd
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let n = min(buffer.count, chunk, samples.count - position)
        if n == 0, failAtEnd { throw Vanished() }
        for i in 0..<n { buffer[i] = samples[position + i] }
        position += n
        return n
    }
}

@Suite struct TunerSessionTests {
    @Test func everyReadingArrivesInOrderClampedAndJudged() async throws {
        let rate = 44100.0
        // 1 s of A2 40 ¢ sharp then 1 s of A2 2 ¢ flat.
        let sharp = Synth.sine(Hertz(110).shifted(by: Cents(40)), seconds: 1, sampleRate: rate)
        let flat = Synth.sine(Hertz(110).shifted(by: Cents(-2)), seconds: 1, sampleRate: rate)
        let session = try TunerSession(source: ArraySource(sharp + flat, sampleRate: rate),
                                       configuration: TunerConfiguration(tolerance: Cents(3)))
        var readings: [Reading] = []
        for await reading in session.readings { readings.append(reading) }
        #expect(session.failure == nil)
        #expect(readings.count == 200, "one reading per 10 ms hop")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.time < $1.time })
        let firstHalf = readings.filter { (0.5...0.95).contains($0.time) }
        let secondHalf = readings.filter { (1.5...1.95).contains($0.time) }
        #expect(firstHalf.allSatisfy { $0.pitch?.note.description == "A2" && !$0.isInTune })
        #expect(firstHalf.allSatisfy { abs(($0.pitch?.cents.value ?? 0) - 40) < 0.1 })
        #expect(secondHalf.allSatisfy { $0.isInTune && abs(($0.pitch?.cents.value ?? 0) + 2) < 0.1 })
    }

    @Test func readingsNameTheNearestNoteForTheReference() async throws {
        let rate = 48000.0
        // 110 Hz against A4 = 400 Hz lies between notes; the reading names the nearest one and
        // the distance to it, the same as Note.nearest computes.
        let session = try TunerSession(source: ArraySource(Synth.sine(Hertz(110), seconds: 0.5, sampleRate: rate),
                                                           sampleRate: rate),
                                       configuration: TunerConfiguration(a4: Hertz(400)))
        var last: Reading?
        for await reading in session.readings { last = reading }
        let pitch = try #require(last?.pitch)
        #expect(abs(pitch.cents.value) <= 50)
        #expect(pitch.cents == pitch.rawCents.clamped(to: -50...50))
        let expected = Note.nearest(to: Hertz(110), a4: Hertz(400))
        #expect(pitch.note == expected.note)
        #expect(abs(pitch.rawCents.value - expected.cents.value) < 0.05)
    }

    @Test func toleranceAndReferenceChangesReachTheAnalysisThread() async throws {
        let rate = 48000.0
        let source = ArraySource(Synth.sine(Hertz(440).shifted(by: Cents(4)), seconds: 3, sampleRate: rate),
                                 sampleRate: rate, chunk: 480)
        let session = try TunerSession(source: source, configuration: TunerConfiguration(tolerance: Cents(3)))
        var sawOut = false, sawIn = false
        var changed = false
        for await reading in session.readings where reading.time > 0.5 {
            if !changed {
                #expect(!reading.isInTune)
                sawOut = true
                session.setTolerance(Cents(5))
                changed = true
            } else if reading.tolerance == Cents(5) {
                #expect(reading.isInTune)
                sawIn = true
                session.stop()
            }
        }
        #expect(sawOut && sawIn)
    }

    @Test func aFailingSourceEndsTheStreamWithItsError() async throws {
        let rate = 48000.0
        let session = try TunerSession(source: ArraySource(Synth.sine(Hertz(220), seconds: 0.3, sampleRate: rate),
                                                           sampleRate: rate, failAtEnd: true))
        var count = 0
        for await _ in session.readings { count += 1 }
        #expect(count == 30)
        #expect(session.failure is ArraySource.Vanished)
    }

    @Test func newestOnlyKeepsTheLatestReading() async throws {
        let rate = 48000.0
        let session = try TunerSession(source: ArraySource(Synth.sine(Hertz(220), seconds: 2, sampleRate: rate),
                                                           sampleRate: rate, chunk: 48000),
                                       delivery: .newestOnly)
        // Let the analysis run ahead of a slow consumer, then read what is left.
        try await Task.sleep(for: .milliseconds(800))
        var times: [Double] = []
        for await reading in session.readings { times.append(reading.time) }
        #expect(times.count < 200, "a slow consumer does not get a backlog")
        #expect(times.last == 2.0)
    }

    @Test func anImpossibleSampleRateIsAnError() {
        #expect(throws: EngineError.self) {
            _ = try TunerSession(source: ArraySource([], sampleRate: 1000))
        }
    }
}
