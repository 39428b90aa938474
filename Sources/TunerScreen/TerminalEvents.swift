import Dispatch
import Foundation
import Synchronization
import TunerBridge
import TunerMusic

/// Feeds the screen's one event stream (a bounded `ScreenEventQueue`: readings newest-only, other events
/// kept up to its capacity): measurements forwarded from the session, "keys waiting" from a
/// readable-stdin dispatch source, SIGWINCH as `.resize`, SIGINT/SIGTERM/SIGHUP/SIGQUIT as `.signal` (dispatch
/// signal sources: the signals are set to SIG_IGN so the default action does not kill the process,
/// and no work is done in a signal handler).
///
/// The stdin source suspends itself when it fires and is resumed once the loop has read the keys
/// (`resumeInput`), so a key press becomes exactly one event. `cancel` tears everything down.
public final class TerminalEvents: @unchecked Sendable {
    public let stream: AsyncStream<ScreenEvent>
    /// Where every event goes; bounded whatever the loop does.
    public let queue: ScreenEventQueue
    private let signalSources: [DispatchSourceSignal]
    private let inputSource: DispatchSourceRead
    /// Whether the stdin source is suspended (libdispatch must not release a suspended source).
    private let inputSuspended = SuspendedFlag()
    private var forwarder: Task<Void, Never>?
    /// SIGQUIT (Ctrl-\\) among them: left to Swift's backtracer it would print a report over the screen
    /// and the tuner would run on.
    public static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    public init() {
        let queue = ScreenEventQueue()
        self.queue = queue
        self.stream = queue.stream
        let dispatchQueue = DispatchQueue(label: "tuner-terminal-events")
        var sources: [DispatchSourceSignal] = []
        for number in Self.terminationSignals + [SIGWINCH] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: dispatchQueue)
            source.setEventHandler {
                queue.post(number == SIGWINCH ? .resize : .signal(number))
            }
            source.resume()
            sources.append(source)
        }
        signalSources = sources
        inputSource = DispatchSource.makeReadSource(fileDescriptor: 0, queue: dispatchQueue)
        let suspended = inputSuspended
        let input = inputSource
        inputSource.setEventHandler {
            suspended.value.withLock { isSuspended in
                if !isSuspended { input.suspend(); isSuspended = true }
            }
            queue.post(.input)
        }
        inputSource.resume()
    }

    /// Puts `event` into the stream (e.g. `.soundEnded` from the thread that played a sound).
    public func post(_ event: ScreenEvent) {
        queue.post(event)
    }

    /// Lets the stdin source fire again after the loop read the keys.
    public func resumeInput() {
        let input = inputSource
        inputSuspended.value.withLock { isSuspended in
            if isSuspended { input.resume(); isSuspended = false }
        }
    }

    /// Forwards the session's measurements into this stream (see `forwardReadings`).
    public func forward(_ session: TunerSession) {
        forwarder = Self.forwardReadings(of: session, into: queue)
    }

    /// Forwards the measurements of a switchable session: single-string ones as `.measurement`, strum
    /// ones as `.strum`, then `.readingsEnded`.
    public func forward(_ session: SwitchableSession) {
        let queue = self.queue
        forwarder = Task {
            for await measurement in session.measurements {
                switch measurement {
                case .single(let m): queue.post(.measurement(m))
                case .strum(let m): queue.post(.strum(m))
                }
            }
            if Task.isCancelled { return }
            queue.post(.readingsEnded(failure: session.failure.map { "\($0)" }))
        }
    }

    /// Forwards every measurement of `session` as `.measurement`, then `.readingsEnded` with the session's
    /// failure, if any. Cancelling the task ends the forwarding (and with it the session's stream).
    public static func forwardReadings(of session: TunerSession,
                                       into queue: ScreenEventQueue) -> Task<Void, Never> {
        Task {
            for await measurement in session.measurements { queue.post(.measurement(measurement)) }
            if Task.isCancelled { return }
            queue.post(.readingsEnded(failure: session.failure.map { "\($0)" }))
        }
    }

    /// Stops all sources and the forwarding, finishes the stream and gives the signals back their
    /// default actions.
    public func cancel() {
        forwarder?.cancel()
        for source in signalSources { source.cancel() }
        inputSource.cancel()
        resumeInput()
        queue.finish()
        for number in Self.terminationSignals + [SIGWINCH] { signal(number, SIG_DFL) }
    }
}

/// Shared between the dispatch queue and the loop's task.
private final class SuspendedFlag: Sendable {
    let value = Mutex(false)
}
