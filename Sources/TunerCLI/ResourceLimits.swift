#if canImport(Glibc)
import Glibc
#endif

/// The process limits a run needs, checked before any thread or descriptor is made: below them the
/// Swift runtime and libdispatch fail in ways that say nothing (a thread's malloc arena cannot be
/// reserved under `ulimit -v 100000` and the run waits for ever; libdispatch traps with SIGILL when
/// `ulimit -n 4` leaves it no eventfd), so the tuner says which limit is too low and exits 71.
enum ResourceLimits {
    /// Address space (`ulimit -v`, `RLIMIT_AS`) below which a run is refused. Measured on Debian 12,
    /// x86-64, Swift 6: a file run starts from about 120 MB and `--device null` from about 140 MB of
    /// address space (each thread reserves an 8 MiB stack and glibc a 64 MiB malloc arena — reserved,
    /// not used: the resident size stays near 30 MB). 256 MiB leaves room for the screen and a sound
    /// server's client library.
    static let minimumAddressSpace: UInt64 = 256 << 20
    /// Open descriptors (`ulimit -n`, `RLIMIT_NOFILE`) below which a run is refused. Measured: a file
    /// run and `--device null` need 8 (three standard streams, libdispatch's epoll and eventfds, the
    /// file); 32 leaves room for the terminal and a PulseAudio connection.
    static let minimumDescriptors: UInt64 = 32

    /// The one-line reason a run cannot start under the current limits, or nil.
    static func problem(addressSpace: UInt64? = softLimit(RLIMIT_AS),
                        descriptors: UInt64? = softLimit(RLIMIT_NOFILE)) -> String? {
        if let limit = addressSpace, limit < minimumAddressSpace {
            return "the address-space limit is \(limit >> 10) KiB (ulimit -v \(limit >> 10)), below the "
                + "\(minimumAddressSpace >> 20) MiB the tuner needs (thread stacks and malloc arenas are reserved "
                + "address space, not memory used); raise it, e.g. 'ulimit -v \(2 * minimumAddressSpace >> 10)'"
        }
        if let limit = descriptors, limit < minimumDescriptors {
            return "only \(limit) open files are allowed (ulimit -n \(limit)), below the \(minimumDescriptors) "
                + "the tuner needs; raise it, e.g. 'ulimit -n 1024'"
        }
        return nil
    }

    /// The soft limit of `resource`, nil when unlimited or unknown.
    static func softLimit(_ resource: __rlimit_resource) -> UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max /* RLIM_INFINITY */ else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
