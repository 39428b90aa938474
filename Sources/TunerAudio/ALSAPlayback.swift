import TunerBridge
import TunerMusic
#if canImport(Glibc)
import Glibc
#endif

/// Sound out through an ALSA playback PCM: mono float samples written with blocking `snd_pcm_writei`,
/// then drained. Used for the reference tone (`--tone`, key t), the chimes (`--chime`) and speech
/// (`--speak`), always from a thread of its own (`SoundPlayer`), never from the analysis thread.
///
/// Ownership: the PCM handle (closed in `deinit`) and one scratch buffer for 16-bit devices, both
/// made in `init`; `play` allocates nothing. Every alsa-lib call goes through `library`.
/// A `hw:` name is opened as `plughw:`, as for capture, so the `plug` layer converts rate and format.
public final class ALSAPlayback {
    /// 16-bit first: every device plays it, it is more than a tone or a chime needs, and alsa-lib's
    /// `file` plugin (format "wav") labels float samples as 32-bit integers in its WAV header (seen
    /// 2026-12-01: 0.25 came back as 0.488), so float first would make recordings of the output wrong.
    public static let defaultFormats: [ALSASampleFormat] = [.s16LE, .floatLE]

    /// The PCM name as given by the user (`--playback-device`).
    public let device: String
    /// What the device agreed to.
    public let hardware: ALSAHardware
    /// Underruns (`-EPIPE`) mended by `snd_pcm_recover` so far.
    public private(set) var underruns = 0

    private let library: any ALSALibrary
    private let handle: ALSAHandle
    /// Where samples are converted for a 16-bit device; nil for float devices, written in place.
    private let scratch: UnsafeMutableBufferPointer<Int16>?

    /// Opens and sets up `device` for playback at (near) `rate`; `configuration` as for
    /// `ALSACaptureSource` (tests define the PCM in a private configuration text).
    /// - Throws: `ALSAError` (direction `.playback`) naming the device and alsa-lib's reason.
    public init(device: String = "default", rate: Int = 48000, formats: [ALSASampleFormat] = defaultFormats,
                configuration: String? = nil, library: any ALSALibrary = SystemALSA()) throws(ALSAError) {
        library.silenceErrors()
        let pcmName = configuration == nil ? ALSACaptureSource.pluggedName(device) : device
        let handle: ALSAHandle
        switch library.openPlayback(name: pcmName, configuration: configuration) {
        case .success(let h): handle = h
        case .failure(let code):
            throw ALSAError.opening(device, code: code.value, reason: library.describe(code.value), direction: .playback)
        }
        // Eight periods of at most 10 ms: the sounds are written ahead, so a longer queue only guards
        // against a busy machine starving the device between two writes.
        let request = ALSARequest(formats: formats, rate: rate, periodsPerBuffer: 8)
        switch library.configure(handle, request) {
        case .success(let hw): hardware = hw
        case .failure(let code):
            library.close(handle)
            throw ALSAError(kind: .unsupported, device: device, code: code.value,
                            reason: library.describe(code.value), direction: .playback)
        }
        self.device = device
        self.library = library
        self.handle = handle
        scratch = hardware.makeScratch()
    }

    deinit {
        library.close(handle)
        scratch?.deallocate()
    }

    /// The sample rate the device plays at.
    public var rate: Int { hardware.rate }

    /// Writes `samples` (mono, −1…1; clipped for 16-bit devices) a period at a time, blocking while
    /// the device's buffer is full, then waits until they have been played (`drain`). Underruns are
    /// mended with `snd_pcm_recover` and writing goes on; any other failure throws `.vanished`.
    public func play(_ samples: UnsafeBufferPointer<Float>) throws(ALSAError) {
        try write(samples)
        let rc = library.drain(handle)
        if rc < 0 { throw failure(rc) }
    }

    /// Writes `samples` without waiting for them to be played.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(ALSAError) {
        guard let base = samples.baseAddress else { return }
        var done = 0
        while done < samples.count {
            let frames = min(samples.count - done, hardware.periodFrames)
            let source: UnsafeRawPointer
            if let scratch {
                for i in 0..<frames {
                    scratch[i] = Int16((base[done + i].clamped(to: -1...1) * 32767).rounded())
                }
                source = UnsafeRawPointer(scratch.baseAddress!)
            } else {
                source = UnsafeRawPointer(base + done)
            }
            switch library.transfer(handle, library.write(handle, from: source, frames: frames)) {
            case .moved(let frames): done += frames
            case .again: continue
            case .mended(let xrun): if xrun { underruns += 1 }
            case .failed(let code): throw failure(code)
            }
        }
    }

    private func failure(_ code: Int32) -> ALSAError {
        ALSAError(kind: .vanished, device: device, code: code, reason: library.describe(code), direction: .playback)
    }
}

extension Float {
    fileprivate func clamped(to range: ClosedRange<Float>) -> Float { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
