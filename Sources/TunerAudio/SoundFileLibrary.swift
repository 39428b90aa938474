import CSndfile
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What an audio file holds, as libsndfile describes it (`SF_INFO`).
public struct SoundFileInfo: Sendable, Equatable {
    /// Frames (one sample per channel) in the file.
    public var frames: Int64
    /// Frames per second.
    public var sampleRate: Int
    public var channels: Int
    /// libsndfile's `SF_FORMAT_*` major type OR'ed with its subtype (e.g. `SF_FORMAT_WAV | SF_FORMAT_PCM_24`).
    public var format: Int32

    public init(frames: Int64 = 0, sampleRate: Int, channels: Int, format: Int32) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
    }
}

/// What is at a path, looked at before libsndfile is asked to open it (libsndfile reports a
/// directory as "Format not recognised.").
public enum PathKind: Sendable, Equatable {
    case missing
    case directory
    /// A regular file (or a link to one) of this many bytes.
    case file(bytes: Int64)
    /// Something else (`stat` failed for another reason, or a device or socket): the reason in words.
    case unusable(reason: String)
    /// "-": standard input, which is not a terminal (a pipe or a redirected file).
    case standardInput
}

/// Why libsndfile would not open a file: its error number (`SF_ERR_*`) and `sf_strerror` text.
public struct SoundFileOpenFailure: Error, Sendable, Equatable {
    public var code: Int32
    public var message: String
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
}

/// The one seam through which the file input makes C calls (libsndfile and `stat`). A test can
/// replace any member to simulate a failure the real library cannot be made to produce on demand.
///
/// Ownership: a handle (`SNDFILE *`) returned by `openForReading`/`openForWriting` belongs to the
/// caller, who must pass it to `close` exactly once and not use it afterwards. Sample buffers are
/// always the caller's; libsndfile only reads from or writes into them during the call.
public struct SoundFileLibrary: Sendable {
    /// `stat(2)` on `path`, classified.
    public var inspect: @Sendable (_ path: String) -> PathKind
    /// `sf_open(path, SFM_READ, &info)` (for "-", `sf_open_virtual` on standard input, see `StandardInputStream`); on failure `sf_error(NULL)` and `sf_strerror(NULL)`.
    public var openForReading: @Sendable (_ path: String) -> Result<(OpaquePointer, SoundFileInfo), SoundFileOpenFailure>
    /// `sf_format_check` then `sf_open(path, SFM_WRITE, &info)` with the rate, channels and format in `info`.
    public var openForWriting: @Sendable (_ path: String, _ info: SoundFileInfo) -> Result<OpaquePointer, SoundFileOpenFailure>
    /// `sf_readf_float(handle, frames, count)`: reads up to `count` interleaved frames into the caller's
    /// buffer (which holds at least `count × channels` floats; integer formats come scaled to ±1).
    /// Returns the frames read; fewer than asked at the end of the file.
    public var readFrames: @Sendable (_ handle: OpaquePointer, _ frames: UnsafeMutablePointer<Float>, _ count: Int) -> Int
    /// `sf_writef_float(handle, frames, count)`: writes `count` interleaved frames; returns how many were written.
    public var writeFrames: @Sendable (_ handle: OpaquePointer, _ frames: UnsafePointer<Float>, _ count: Int) -> Int
    /// `sf_error(handle)` and `sf_strerror(handle)`: the handle's last error, nil when there was none.
    public var lastError: @Sendable (_ handle: OpaquePointer) -> String?
    /// `sf_close(handle)`: flushes (when writing) and frees the handle. Returns 0 on success.
    public var close: @Sendable (_ handle: OpaquePointer) -> Int32

    public init(inspect: @escaping @Sendable (String) -> PathKind,
                openForReading: @escaping @Sendable (String) -> Result<(OpaquePointer, SoundFileInfo), SoundFileOpenFailure>,
                openForWriting: @escaping @Sendable (String, SoundFileInfo) -> Result<OpaquePointer, SoundFileOpenFailure>,
                readFrames: @escaping @Sendable (OpaquePointer, UnsafeMutablePointer<Float>, Int) -> Int,
                writeFrames: @escaping @Sendable (OpaquePointer, UnsafePointer<Float>, Int) -> Int,
                lastError: @escaping @Sendable (OpaquePointer) -> String?,
                close: @escaping @Sendable (OpaquePointer) -> Int32) {
        self.inspect = inspect
        self.openForReading = openForReading
        self.openForWriting = openForWriting
        self.readFrames = readFrames
        self.writeFrames = writeFrames
        self.lastError = lastError
        self.close = close
    }

    /// libsndfile keeps the error of a failed `sf_open` in a global; this lock keeps the open and the
    /// reading of that error together when several files are opened on different threads at once.
    private static let openLock = Mutex<Void>(())

    /// The real library.
    public static let libsndfile = SoundFileLibrary(
        inspect: { path in
            if path == AudioFileSource.standardInputPath {
                return isatty(0) == 1 ? .unusable(reason: AudioFileSource.standardInputIsTerminal) : .standardInput
            }
            var status = stat()
            guard FileName.withCString(path, { stat($0, &status) }) == 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR { return .missing }
                return .unusable(reason: String(cString: strerror(code)))
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: return .directory
            case S_IFREG: return .file(bytes: Int64(status.st_size))
            default: return .unusable(reason: "not a regular file")
            }
        },
        openForReading: { path in
            openLock.withLock { _ in
                var info = SF_INFO()
                // "-" is standard input, read through virtual I/O that lets libsndfile seek in its start.
                let opened: OpaquePointer?
                if path == AudioFileSource.standardInputPath {
                    var io = StandardInputStream.virtualIO
                    let stream = StandardInputStream.shared
                    stream.opening = true
                    opened = sf_open_virtual(&io, Int32(SFM_READ), &info, stream.userData)
                    stream.opening = false
                } else {
                    opened = FileName.withCString(path, { sf_open($0, Int32(SFM_READ), &info) })
                }
                guard let handle = opened else {
                    return .failure(SoundFileOpenFailure(code: sf_error(nil), message: String(cString: sf_strerror(nil))))
                }
                return .success((handle, SoundFileInfo(frames: info.frames, sampleRate: Int(info.samplerate),
                                                       channels: Int(info.channels), format: info.format)))
            }
        },
        openForWriting: { path, wanted in
            openLock.withLock { _ in
                var info = SF_INFO()
                info.samplerate = Int32(clamping: wanted.sampleRate)
                info.channels = Int32(clamping: wanted.channels)
                info.format = wanted.format
                guard sf_format_check(&info) != 0 else {
                    return .failure(SoundFileOpenFailure(code: Int32(SF_ERR_UNSUPPORTED_ENCODING),
                                                         message: "Format not supported for writing."))
                }
                guard let handle = FileName.withCString(path, { sf_open($0, Int32(SFM_WRITE), &info) }) else {
                    return .failure(SoundFileOpenFailure(code: sf_error(nil), message: String(cString: sf_strerror(nil))))
                }
                return .success(handle)
            }
        },
        readFrames: { handle, frames, count in Int(sf_readf_float(handle, frames, sf_count_t(count))) },
        writeFrames: { handle, frames, count in Int(sf_writef_float(handle, frames, sf_count_t(count))) },
        lastError: { handle in
            sf_error(handle) == 0 ? nil : String(cString: sf_strerror(handle))
        },
        close: { handle in sf_close(handle) }
    )
}
