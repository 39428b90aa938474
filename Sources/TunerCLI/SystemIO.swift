#if canImport(Glibc)
import Glibc
#endif

/// The C calls the command line makes on its standard streams, in one place a test can replace.
public struct SystemIO: Sendable {
    /// `write(2)`: writes up to `count` bytes of the caller's buffer to `descriptor`; returns the bytes
    /// written, or -1 with the C error number (`errno`) as the second value.
    public var write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> (Int, Int32)
    /// `signal(SIGPIPE, SIG_IGN)`: a closed pipe then fails a write with `EPIPE` instead of killing the process.
    public var ignoreBrokenPipe: @Sendable () -> Void
    /// `isatty(3)`.
    public var isTerminal: @Sendable (_ descriptor: Int32) -> Bool

    public init(write: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> (Int, Int32),
                ignoreBrokenPipe: @escaping @Sendable () -> Void,
                isTerminal: @escaping @Sendable (Int32) -> Bool) {
        self.write = write
        self.ignoreBrokenPipe = ignoreBrokenPipe
        self.isTerminal = isTerminal
    }

    public static let standardOutput: Int32 = 1
    public static let standardError: Int32 = 2

    /// The process's real streams.
    public static let system = SystemIO(
        write: { descriptor, bytes, count in
            let written = Glibc.write(descriptor, bytes, count)
            return (written, written < 0 ? errno : 0)
        },
        ignoreBrokenPipe: { _ = signal(SIGPIPE, SIG_IGN) },
        isTerminal: { isatty($0) == 1 }
    )

    /// Writes all of `text` to standard error, unbuffered (error messages are one line, written once).
    func printError(_ text: String) {
        let output = BufferedOutput(descriptor: SystemIO.standardError, io: self, capacity: 0)
        output.write(text)
        output.flush()
    }
}

/// Text written to a descriptor through a buffer of its own: one `write(2)` per `capacity` bytes rather
/// than one per line. A non-blocking descriptor that is full (`EAGAIN`) is waited on with `poll`. When the reader has gone (`EPIPE`, e.g. `| head -1`) or writing fails, `isOpen`
/// turns false and everything after is dropped.
final class BufferedOutput {
    private let descriptor: Int32
    private let io: SystemIO
    private let capacity: Int
    private var pending: [UInt8] = []
    /// False once a write failed.
    private(set) var isOpen = true
    /// The C error number of a failed write other than a closed pipe (`EPIPE`); nil otherwise.
    private(set) var failure: Int32?

    init(descriptor: Int32, io: SystemIO, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.io = io
        self.capacity = capacity
        pending.reserveCapacity(capacity + 512)
    }

    /// Queues `text`; writes when the buffer is full. Returns false once the output is closed.
    @discardableResult
    func write(_ text: String) -> Bool {
        guard isOpen else { return false }
        pending.append(contentsOf: text.utf8)
        if pending.count >= capacity { flush() }
        return isOpen
    }

    /// Writes everything queued, retrying after interrupted and partial writes. Returns false once closed.
    @discardableResult
    func flush() -> Bool {
        defer { pending.removeAll(keepingCapacity: true) }
        guard isOpen else { return false }
        var offset = 0
        pending.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let (written, error) = io.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && error == EINTR {
                    continue
                } else if written < 0 && (error == EAGAIN || error == EWOULDBLOCK) {
                    // A descriptor the parent made non-blocking (O_NONBLOCK on a shared pipe): the reader
                    // is behind, not gone. Wait until it can take more, as a blocking write would.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    while poll(&ready, 1, -1) < 0 && errno == EINTR {}
                    continue
                } else {
                    isOpen = false
                    if error != EPIPE { failure = written < 0 ? error : EIO }
                    return
                }
            }
        }
        return isOpen
    }
}
