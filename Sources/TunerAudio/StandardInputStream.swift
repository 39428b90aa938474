import CSndfile
#if canImport(Glibc)
import Glibc
#endif

/// Standard input as libsndfile's virtual I/O (`sf_open_virtual`), for `--file -`.
///
/// A pipe cannot seek, but libsndfile's readers do, and through virtual I/O they take the input for a
/// seekable file (`sf_open_fd` on a pipe avoids that, but then FLAC's decoder loses its sync):
/// - they read the first bytes to tell the format and seek back to 0, and the FLAC decoder reads its
///   header twice: so the first `retainLimit` bytes read are kept, and a seek back into them is served
///   from memory;
/// - the WAV and AIFF readers, while opening, seek past the audio to look for chunks after it, then seek
///   back to the audio: on a pipe that would mean holding all of it (a live `arecord | tuner --file -`
///   never ends). So while `opening`, a seek beyond what was read only moves the position and reading
///   there finds nothing (as at the end of a file): the reader stops looking, seeks back to the audio,
///   and from then on reads it front to back from the pipe.
/// The length is unknown: `get_filelen` answers `Int64.max`, and reading ends where the pipe does.
/// Past `retainLimit` nothing is kept, so a long stream is read in constant memory.
/// One instance per process, as there is one standard input; used by one thread at a time (the
/// open, then the session's reading thread).
final class StandardInputStream: @unchecked Sendable {
    static let shared = StandardInputStream(descriptor: 0)

    /// How much of the stream's start is kept for seeking back: headers are far smaller (a WAV header
    /// with metadata chunks, FLAC's STREAMINFO, seek table and tags are a few KiB); 1 MiB leaves room for
    /// embedded cover art before the audio, measured against nothing larger than that.
    static let retainLimit = 1 << 20

    private let descriptor: Int32
    /// Bytes 0..<retained.count of the stream, while `retaining`.
    private var retained: [UInt8] = []
    private var retaining = true
    /// The reader's position, and how many bytes came out of the descriptor so far.
    private var position: Int64 = 0
    private var consumed: Int64 = 0
    private var ended = false
    /// True while libsndfile opens the stream (`sf_open_virtual`): reads beyond `consumed` find nothing.
    var opening = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    func read(_ destination: UnsafeMutableRawPointer, _ count: Int64) -> Int64 {
        var done: Int64 = 0
        while done < count {
            if position < consumed {
                // Served from the kept start (a seek back put the position there).
                let n = min(count - done, consumed - position)
                retained.withUnsafeBytes { bytes in
                    (destination + Int(done)).copyMemory(from: bytes.baseAddress! + Int(position), byteCount: Int(n))
                }
                position += n
                done += n
                continue
            }
            if ended || opening && position > consumed { break }
            if position > consumed {
                skip(to: position)
                continue
            }
            let n = Glibc.read(descriptor, destination + Int(done), Int(count - done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                ended = true
                break
            }
            if retaining {
                if consumed + Int64(n) <= Int64(Self.retainLimit) {
                    retained.append(contentsOf: UnsafeRawBufferPointer(start: destination + Int(done), count: n))
                } else {
                    retaining = false
                    retained = []
                }
            }
            consumed += Int64(n)
            position += Int64(n)
            done += Int64(n)
        }
        return done
    }

    func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let target: Int64
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        default: return -1  // SEEK_END: the end of a pipe is not known
        }
        guard target >= 0 else { return -1 }
        if target <= consumed {
            guard retaining || target == consumed else { return -1 }
            position = target
            return position
        }
        position = target  // read() skips to it, or finds nothing there while opening
        return position
    }

    /// Reads and drops the bytes up to `target` (a seek forward on a pipe).
    private func skip(to target: Int64) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        position = consumed
        while position < target && !ended {
            let want = min(Int64(scratch.count), target - position)
            if scratch.withUnsafeMutableBytes({ read($0.baseAddress!, want) }) <= 0 { break }
        }
        if position < target { ended = true }
    }

    var tell: Int64 { position }
    /// True when the stream ended before its first byte.
    var endedEmpty: Bool { ended && consumed == 0 }

    /// The callbacks libsndfile calls with `user_data` pointing at `shared`.
    static var virtualIO: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { _ in Int64.max },
            seek: { offset, whence, user in StandardInputStream.stream(user).seek(offset, whence) },
            read: { destination, count, user in
                guard let destination else { return 0 }
                return StandardInputStream.stream(user).read(destination, count)
            },
            write: { _, _, _ in 0 },
            tell: { user in StandardInputStream.stream(user).tell })
    }

    private static func stream(_ user: UnsafeMutableRawPointer?) -> StandardInputStream {
        Unmanaged<StandardInputStream>.fromOpaque(user!).takeUnretainedValue()
    }

    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}
