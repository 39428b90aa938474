import CSndfile

/// Writes audio files through libsndfile (`sf_open` with `SFM_WRITE`, `sf_writef_float`): test fixtures
/// in every format the file input reads, and recordings.
public struct AudioFileWriter: Sendable {
    /// The container and the sample encoding of a file.
    public struct Format: Sendable, Equatable, CustomStringConvertible {
        public enum Container: Sendable, Equatable {
            case wav
            /// WAV with WAVE_FORMAT_EXTENSIBLE headers.
            case wavex
            case flac, aiff, ogg
        }
        public enum Encoding: Sendable, Equatable {
            case pcm16, pcm24, pcm32, float32, float64, vorbis
        }
        public var container: Container
        public var encoding: Encoding
        public init(_ container: Container, _ encoding: Encoding) {
            self.container = container
            self.encoding = encoding
        }

        /// libsndfile's `SF_FORMAT_*` major type OR'ed with the subtype.
        public var sndfileFormat: Int32 {
            let major: Int = switch container {
            case .wav: SF_FORMAT_WAV
            case .wavex: SF_FORMAT_WAVEX
            case .flac: SF_FORMAT_FLAC
            case .aiff: SF_FORMAT_AIFF
            case .ogg: SF_FORMAT_OGG
            }
            let minor: Int = switch encoding {
            case .pcm16: SF_FORMAT_PCM_16
            case .pcm24: SF_FORMAT_PCM_24
            case .pcm32: SF_FORMAT_PCM_32
            case .float32: SF_FORMAT_FLOAT
            case .float64: SF_FORMAT_DOUBLE
            case .vorbis: SF_FORMAT_VORBIS
            }
            return Int32(truncatingIfNeeded: major | minor)
        }

        public var description: String { "\(container) \(encoding)" }
    }

    /// Why a file could not be written, naming the file.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var detail: String
        public var description: String { "cannot write '\(path)': \(detail)" }
    }

    public var library: SoundFileLibrary
    public init(library: SoundFileLibrary = .libsndfile) { self.library = library }

    /// Writes `channels` (one array of samples in ±1 per channel, all the same length) to `path`.
    public func write(_ channels: [[Float]], sampleRate: Int, format: Format, to path: String) throws(WriteError) {
        guard let frames = channels.first?.count, !channels.isEmpty,
              channels.allSatisfy({ $0.count == frames }) else {
            throw WriteError(path: path, detail: "channels must be non-empty and of equal length")
        }
        let info = SoundFileInfo(sampleRate: sampleRate, channels: channels.count, format: format.sndfileFormat)
        let handle: OpaquePointer
        switch library.openForWriting(path, info) {
        case .success(let h): handle = h
        case .failure(let failure): throw WriteError(path: path, detail: "\(format): \(failure.message)")
        }
        var interleaved = [Float](repeating: 0, count: frames * channels.count)
        for (c, samples) in channels.enumerated() {
            for i in 0..<frames { interleaved[i * channels.count + c] = samples[i] }
        }
        let written = interleaved.withUnsafeBufferPointer { buffer in
            frames == 0 ? 0 : library.writeFrames(handle, buffer.baseAddress!, frames)
        }
        let error = written == frames ? nil : library.lastError(handle)
        let closed = library.close(handle)
        guard written == frames else {
            throw WriteError(path: path, detail: "wrote \(written) of \(frames) frames (\(error ?? "unknown error"))")
        }
        guard closed == 0 else { throw WriteError(path: path, detail: "sf_close failed (\(closed))") }
    }
}
