import TunerBridge

/// Audio from a file, through libsndfile: WAV (8…32-bit integer, 32/64-bit float, WAVE_FORMAT_EXTENSIBLE),
/// FLAC, AIFF, OGG and everything else libsndfile reads, at 8…192 kHz.
///
/// Multichannel files are mixed to mono (the mean of the channels) unless `channel` picks one.
/// Every buffer is made at `init`; `read` only copies. The file is open from `init` until the source is
/// released (`sf_close` in `deinit`). Like every `AudioSource`, it is used by one thread at a time.
public final class AudioFileSource: AudioSource {
    /// The path as given.
    public let path: String
    /// What libsndfile says the file holds.
    public let info: SoundFileInfo
    /// The 1-based channel read alone, or nil when all channels are mixed.
    public let channel: Int?
    public var sampleRate: Double { Double(info.sampleRate) }
    public let label: String

    private let library: SoundFileLibrary
    /// The `SNDFILE *` this source owns; closed in `deinit`.
    private let handle: OpaquePointer
    /// Interleaved frames as libsndfile delivers them, `blockFrames × channels` floats (multichannel only).
    private let interleaved: UnsafeMutableBufferPointer<Float>
    private let blockFrames: Int
    /// Frames delivered so far: a file whose header promises frames but whose first read finds none (an
    /// OGG cut after its headers) is reported as holding no audio, like a 0-frame WAV.
    private var delivered = 0

    /// Opens `path` for reading. `channel` (1-based) picks one channel; nil mixes all of them.
    /// `blockFrames` bounds how many frames one `read` of a multichannel file delivers.
    /// Throws an `AudioFileError` naming the file and the reason when it cannot be tuned.
    public init(path: String, channel: Int? = nil, blockFrames: Int = 4096,
                library: SoundFileLibrary = .libsndfile) throws(AudioFileError) {
        func fail(_ reason: AudioFileError.Reason) -> AudioFileError { AudioFileError(path: path, reason: reason) }

        switch library.inspect(path) {
        case .missing: throw fail(.missing)
        case .directory: throw fail(.directory)
        case .file(bytes: 0): throw fail(.emptyFile)
        case .file, .standardInput: break
        case .unusable(let reason): throw fail(.unreadable(detail: reason))
        }

        let opened: (OpaquePointer, SoundFileInfo)
        switch library.openForReading(path) {
        case .success(let pair): opened = pair
        case .failure(let failure): throw fail(Self.reason(for: failure, path: path))
        }
        let (handle, info) = opened
        // From here on the handle is ours: close it on every path that does not keep it.
        var keep = false
        defer { if !keep { _ = library.close(handle) } }

        guard info.channels >= 1 else { throw fail(.notAudio(detail: "it reports \(info.channels) channels")) }
        guard Limits.sampleRate.contains(info.sampleRate) else {
            throw fail(.unsupportedSampleRate(info.sampleRate))
        }
        guard info.frames > 0 else { throw fail(.noFrames) }
        if let channel, !(1...info.channels).contains(channel) {
            throw fail(.channelOutOfRange(requested: channel, available: info.channels))
        }

        self.path = path
        self.info = info
        self.channel = channel
        self.library = library
        self.handle = handle
        self.blockFrames = max(1, blockFrames)
        self.interleaved = .allocate(capacity: info.channels > 1 ? self.blockFrames * info.channels : 0)
        let name = path == Self.standardInputPath ? "standard input"
            : FileName.display(path.split(separator: "/").last.map(String.init) ?? path)
        let which = info.channels == 1 ? "mono" : channel.map { "channel \($0) of \(info.channels)" }
            ?? "\(info.channels) channels mixed"
        self.label = (path == Self.standardInputPath ? "" : "file ") + "\(name), \(info.sampleRate) Hz, \(which)"
        keep = true
    }

    /// The path that means standard input (`--file -`).
    public static let standardInputPath = "-"
    static let standardInputIsTerminal = "it is a terminal; pipe audio into it, e.g. 'sox song.mp3 -t wav - | tuner --file -'"

    deinit {
        _ = library.close(handle)
        interleaved.deallocate()
    }

    /// Seconds of audio in the file.
    public var duration: Double { Double(info.frames) / Double(info.sampleRate) }

    /// Reads the next mono samples (`sf_readf_float`); returns 0 at the end of the file.
    /// Throws when libsndfile reports an error in the middle of the file.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        guard let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let channels = info.channels
        let got: Int
        if channels == 1 {
            got = library.readFrames(handle, out, buffer.count)
        } else {
            got = library.readFrames(handle, interleaved.baseAddress!, min(buffer.count, blockFrames))
            if got > 0 { deinterleave(frames: got, channels: channels, into: out) }
        }
        // A short read is the end of the file, or an error: frames read before it are delivered first,
        // and the next read (which then reads nothing) throws.
        if got <= 0, let error = library.lastError(handle) {
            throw AudioFileError(path: path, reason: .unreadable(detail: Self.clean(error)))
        }
        if got <= 0 && delivered == 0 { throw AudioFileError(path: path, reason: .noFrames) }
        delivered += max(0, got)
        return max(0, got)
    }

    private func deinterleave(frames: Int, channels: Int, into out: UnsafeMutablePointer<Float>) {
        let source = interleaved.baseAddress!
        if let channel {
            let offset = channel - 1
            for i in 0..<frames { out[i] = source[i * channels + offset] }
        } else {
            let scale = 1 / Float(channels)
            for i in 0..<frames {
                var sum: Float = 0
                let row = source + i * channels
                for c in 0..<channels { sum += row[c] }
                out[i] = sum * scale
            }
        }
    }

    /// Maps libsndfile's open failure to a reason in words.
    private static func reason(for failure: SoundFileOpenFailure, path: String) -> AudioFileError.Reason {
        switch failure.code {
        case 1 /* SF_ERR_UNRECOGNISED_FORMAT */ where path == standardInputPath:
            return StandardInputStream.shared.endedEmpty ? .emptyFile : .rawStream
        case 1 /* SF_ERR_UNRECOGNISED_FORMAT */, 3 /* SF_ERR_MALFORMED_FILE */, 4 /* SF_ERR_UNSUPPORTED_ENCODING */:
            return .notAudio(detail: clean(failure.message))
        default:
            return .unreadable(detail: clean(failure.message))
        }
    }

    /// "System error : Permission denied." → "Permission denied"; other messages lose only the final period.
    static func clean(_ message: String) -> String {
        var text = Substring(message)
        let system = "System error : "
        if text.hasPrefix(system) { text = text.dropFirst(system.count) }
        while let last = text.last, last == "." || last == " " || last == "\n" { text.removeLast() }
        return String(text)
    }
}
