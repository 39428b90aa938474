import Dispatch
import TunerBridge
import TunerMusic

/// A sound made ahead of time: mono samples at a sample rate. Playing one copies nothing.
public struct Sound: Sendable, Equatable {
    public var samples: [Float]
    public var rate: Int
    public init(samples: [Float], rate: Int) {
        self.samples = samples
        self.rate = rate
    }
    public var seconds: Double { Double(samples.count) / Double(rate) }
}

/// Plays `Sound`s through ALSA playback (`--playback-device`) on a thread of its own — a serial
/// dispatch queue that does nothing else — so that neither the analysis thread nor the task that
/// shows readings ever blocks on the sound card. One sound at a time, in the order asked.
///
/// The PCM is opened at the first sound's rate (or by `open(rate:)`, to report a missing device
/// before anything starts), kept open between sounds (drained after each) and reopened only when a
/// sound comes at another rate (speech from espeak-ng is 22050 Hz).
public final class SoundPlayer: @unchecked Sendable {
    /// The PCM name as the user gave it.
    public let device: String
    private let configuration: String?
    private let makeLibrary: @Sendable () -> any ALSALibrary
    /// The one thread sounds are played from. Everything below is touched only there.
    private let queue = DispatchQueue(label: "tuner.playback", qos: .userInitiated)
    private var playback: ALSAPlayback?
    private var openRate = 0

    /// `configuration`: alsa-lib configuration text defining `device` on its own (tests).
    public init(device: String = "default", configuration: String? = nil,
                library: @escaping @Sendable () -> any ALSALibrary = { SystemALSA() }) {
        self.device = device
        self.configuration = configuration
        self.makeLibrary = library
    }

    /// Opens the device at `rate` now, so that a missing or busy device is reported before the
    /// tuner starts rather than at the first sound.
    public func open(rate: Int) throws(ALSAError) {
        let result: Result<Void, ALSAError> = queue.sync { self.ensureOpen(rate: rate) }
        try result.get()
    }

    /// Plays `sound` to its end (written and drained) and returns then; throws when the device
    /// cannot be opened or fails.
    public func play(_ sound: Sound) async throws(ALSAError) {
        let result: Result<Void, ALSAError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.playNow(sound))
            }
        }
        try result.get()
    }

    /// Closes the device (after any sound still queued).
    public func close() {
        queue.sync {
            playback = nil
            openRate = 0
        }
    }

    private func ensureOpen(rate: Int) -> Result<Void, ALSAError> {
        if playback != nil && openRate == rate { return .success(()) }
        playback = nil
        do {
            playback = try ALSAPlayback(device: device, rate: rate, configuration: configuration, library: makeLibrary())
            openRate = rate
            return .success(())
        } catch {
            openRate = 0
            return .failure(error)
        }
    }

    private func playNow(_ sound: Sound) -> Result<Void, ALSAError> {
        if case .failure(let error) = ensureOpen(rate: sound.rate) { return .failure(error) }
        guard let playback else { return .success(()) }
        do {
            try sound.samples.withUnsafeBufferPointer { samples throws(ALSAError) in try playback.play(samples) }
            return .success(())
        } catch {
            // A device that failed mid-sound is opened afresh for the next one.
            self.playback = nil
            openRate = 0
            return .failure(error)
        }
    }
}
