// AudioFileSourceFuzz.swift — libFuzzer target over the real file input (Sources/TunerAudio/
// AudioFileSource.swift) and the real bridge (Sources/TunerBridge/PitchEngine.swift) and reading pipeline (Sources/TunerMusic), compiled by
// Fuzz/run-swift.sh with -sanitize=fuzzer,address.
//
// The fuzzer's bytes are the file. AudioFileSource is given a SoundFileLibrary whose `inspect` says
// "a regular file of N bytes" and whose `openForReading` opens the bytes from memory with
// sf_open_virtual; every other call is the real libsndfile one. Then: either the source is refused with
// an AudioFileError whose description is one line naming the file, or it reads to the end through a
// PitchEngine at the file's rate, and every measurement, made a Reading by a ReadingPipeline, is finite
// with cents within ±50.
import CSndfile
import TunerAudio
import TunerBridge
import TunerMusic
#if canImport(Glibc)
import Glibc
#endif

/// The fuzzer's bytes as a read-only file for SF_VIRTUAL_IO. Lives for one input.
final class MemoryFile: @unchecked Sendable {
    let data: UnsafePointer<UInt8>
    let size: Int64
    var position: Int64 = 0
    init(data: UnsafePointer<UInt8>, size: Int) {
        self.data = data
        self.size = Int64(size)
    }
}

private func file(_ user: UnsafeMutableRawPointer?) -> MemoryFile {
    Unmanaged<MemoryFile>.fromOpaque(user!).takeUnretainedValue()
}

nonisolated(unsafe) private var io = SF_VIRTUAL_IO(
    get_filelen: { user in file(user).size },
    seek: { offset, whence, user in
        let f = file(user)
        let base: Int64 = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f.position : f.size
        guard base + offset >= 0 else { return -1 }
        f.position = base + offset
        return f.position
    },
    read: { out, count, user in
        let f = file(user)
        guard count > 0, f.position < f.size else { return 0 }
        let n = min(count, f.size - f.position)
        out!.copyMemory(from: f.data + Int(f.position), byteCount: Int(n))
        f.position += n
        return n
    },
    write: { _, _, _ in 0 },
    tell: { user in file(user).position })

private func fail(_ message: String) -> Never {
    let line = "AudioFileSourceFuzz: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let memory = MemoryFile(data: data, size: size)
    let user = Unmanaged.passUnretained(memory).toOpaque()
    nonisolated(unsafe) let userPointer = user
    var library = SoundFileLibrary.libsndfile
    library.inspect = { _ in .file(bytes: Int64(size)) }
    library.openForReading = { _ in
        var info = SF_INFO()
        guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, userPointer) else {
            return .failure(SoundFileOpenFailure(code: sf_error(nil), message: String(cString: sf_strerror(nil))))
        }
        return .success((handle, SoundFileInfo(frames: info.frames, sampleRate: Int(info.samplerate),
                                               channels: Int(info.channels), format: info.format)))
    }
    // 0 mixes the channels; otherwise channel 1…3 (channels beyond the file's must be refused).
    let channel = size % 4 == 0 ? nil : size % 4
    let source: AudioFileSource
    do {
        source = try AudioFileSource(path: "fuzz.wav", channel: channel, blockFrames: 4096, library: library)
    } catch {
        let text = error.description
        if text.isEmpty || text.contains("\n") || !text.contains("'fuzz.wav'") { fail("bad error text: \(text)") }
        return 0
    }
    var readings = 0
    var last = 0.0
    let engine: PitchEngine
    do {
        let pipeline = ReadingPipeline()
        engine = try PitchEngine(sampleRate: source.sampleRate) { measurement in
            let reading = pipeline.reading(from: measurement)
            readings += 1
            if !reading.time.isFinite || reading.time <= last { fail("reading time \(reading.time) after \(last)") }
            last = reading.time
            if !reading.level.value.isFinite || !reading.confidence.isFinite { fail("non-finite level or confidence") }
            if let pitch = reading.pitch {
                if !pitch.frequency.value.isFinite || pitch.frequency.value <= 0
                    || pitch.frequency.value >= source.sampleRate / 2 { fail("frequency \(pitch.frequency.value)") }
                if !pitch.rawCents.value.isFinite || abs(pitch.rawCents.value) > 50 { fail("cents \(pitch.rawCents.value)") }
            }
        }
    } catch {
        fail("the engine refused a file the source accepted (\(source.sampleRate) Hz): \(error)")
    }
    let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096)
    defer { buffer.deallocate() }
    var total = 0
    while total < 1 << 16 {  // about 1.5 s at 44.1 kHz: keeps one execution short
        let n: Int
        do { n = try source.read(into: buffer) } catch {
            let text = "\(error)"
            if text.isEmpty || text.contains("\n") { fail("bad read error text: \(text)") }
            break
        }
        if n < 0 || n > buffer.count { fail("read returned \(n)") }
        if n == 0 { break }
        engine.process(UnsafeBufferPointer(rebasing: buffer[0..<n]))
        total += n
    }
    if readings != total / engine.hopSize { fail("\(readings) readings for \(total) samples, hop \(engine.hopSize)") }
    return 0
}
