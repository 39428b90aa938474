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
    private let gate: (position: Int, semaphore: DispatchSemaphore)?
    struct Vanished: Error {}

    /// With `holdAt`, the source stops after that many samples until `holdAt.semaphore` is signalled.
    init(_ samples: [Float], sampleRate: Double, chunk: Int = 777, failAtEnd: Bool = false,
         holdAt: (position: Int, semaphore: DispatchSemaphore)? = nil) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.chunk = chunk
        self.failAtEnd = failAtEnd
        self.gate = holdAt
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        var limit = samples.count
        if let gate {
            if position == gate.position { gate.semaphore.wait() }
            if position < gate.position { limit = gate.position }
        }
        let n = min(buffer.count, chunk, limit - position)
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
        // The source holds after 1 s until the test has changed the settings.
        let release = DispatchSemaphore(value: 0)
        let source = ArraySource(Synth.sine(Hertz(440).shifted(by: Cents(4)), seconds: 2, sampleRate: rate),
                                 sampleRate: rate, chunk: 480, holdAt: (48000, release))
        let session = try TunerSession(source: source, configuration: TunerConfiguration(tolerance: Cents(3)))
        var before: [Reading] = [], after: [Reading] = []
        for await reading in session.readings {
            if reading.time <= 1.0 {
                before.append(reading)
                if reading.time == 1.0 {
                    session.setTolerance(Cents(5))
                    session.setReference(Hertz(441))
                    release.signal()
                }
            } else {
                after.append(reading)
            }
        }
        #expect(before.filter { $0.time > 0.5 }.allSatisfy { !$0.isInTune && $0.tolerance == Cents(3) })
        #expect(after.count == 100)
        #expect(after.allSatisfy { $0.tolerance == Cents(5) })
        // At A4 = 441 the note is 4 − 3.93 = 0.07 ¢ sharp: in tune with either tolerance.
        let settled = after.filter { $0.time > 1.5 }
        #expect(!settled.isEmpty && settled.allSatisfy { $0.isInTune && abs($0.pitch!.cents.value - (4 - 1200 * log2(441.0 / 440))) < 0.05 })
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
