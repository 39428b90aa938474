import Synchronization
import Testing
@testable import TunerAudio

/// Failures libsndfile cannot be made to produce on demand, simulated through the `SoundFileLibrary` seam.
@Suite struct SoundFileSeamTests {
    /// Counts `close` calls and serves frames of 0.25 until `failAfter` (then reports an error) or the end.
    final class FakeFile: Sendable {
        let closes = Atomic<Int>(0)
        let served = Atomic<Int>(0)
        let info: SoundFileInfo
        let failAfter: Int?
        init(info: SoundFileInfo, failAfter: Int?) {
            self.info = info
            self.failAfter = failAfter
        }

        var library: SoundFileLibrary {
            SoundFileLibrary(
                inspect: { _ in .file(bytes: 1000) },
                openForReading: { _ in .success((OpaquePointer(bitPattern: 0x1234)!, self.info)) },
                openForWriting: { _, _ in .failure(SoundFileOpenFailure(code: 2, message: "read-only fake")) },
                readFrames: { _, frames, count in
                    let done = self.served.load(ordering: .relaxed)
                    let limit = self.failAfter ?? Int(self.info.frames)
                    let n = max(0, min(count, limit - done))
                    for i in 0..<(n * self.info.channels) { frames[i] = 0.25 }
                    self.served.add(n, ordering: .relaxed)
                    return n
                },
                writeFrames: { _, _, _ in 0 },
                lastError: { _ in
                    if let limit = self.failAfter, self.served.load(ordering: .relaxed) >= limit {
                        return "Error while reading: Input/output error."
                    }
                    return nil
                },
                close: { _ in self.closes.add(1, ordering: .relaxed); return 0 })
        }
    }

    @Test func aReadErrorInTheMiddleIsThrownNamingTheFile() throws {
        let fake = FakeFile(info: SoundFileInfo(frames: 10_000, sampleRate: 44_100, channels: 2, format: 0), failAfter: 3000)
        var source: AudioFileSource? = try AudioFileSource(path: "bad.wav", library: fake.library)
        var buffer = [Float](repeating: 0, count: 1024)
        var total = 0
        var thrown: (any Error)?
        do {
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try source!.read(into: $0) }
                if n == 0 { break }
                #expect(buffer[0..<n].allSatisfy { $0 == 0.25 })
                total += n
            }
        } catch {
            thrown = error
        }
        #expect(total == 3000)
        let error = try #require(thrown as? AudioFileError)
        #expect(error.description == "cannot read 'bad.wav': Error while reading: Input/output error")
        #expect(fake.closes.load(ordering: .relaxed) == 0)
        source = nil
        #expect(fake.closes.load(ordering: .relaxed) == 1, "the handle is closed exactly once, when the source goes")
    }

    @Test func aFileRefusedAfterOpeningIsClosedOnce() throws {
        let fake = FakeFile(info: SoundFileInfo(frames: 10, sampleRate: 1_000, channels: 1, format: 0), failAfter: nil)
        #expect(throws: AudioFileError(path: "low.wav", reason: .unsupportedSampleRate(1_000))) {
            _ = try AudioFileSource(path: "low.wav", library: fake.library)
        }
        #expect(fake.closes.load(ordering: .relaxed) == 1)
    }

    @Test func aSystemErrorFromOpenKeepsLibsndfilesReason() throws {
        var library = SoundFileLibrary.libsndfile
        library.inspect = { _ in .file(bytes: 44) }
        library.openForReading = { _ in
            .failure(SoundFileOpenFailure(code: 2, message: "System error : Permission denied."))
        }
        #expect(throws: AudioFileError(path: "locked.wav", reason: .unreadable(detail: "Permission denied"))) {
            _ = try AudioFileSource(path: "locked.wav", library: library)
        }
    }
}
