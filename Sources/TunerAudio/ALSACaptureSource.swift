import TunerBridge
#if canImport(Glibc)
import Glibc
#endif

/// Live input from an ALSA capture PCM: mono samples from the microphone, read with blocking
/// `snd_pcm_readi` on the thread that analyses them (the `TunerSession` analysis thread).
///
/// Ownership: the source owns the PCM handle (closed in `deinit`) and one scratch buffer for 16-bit
/// devices, both made in `init`; `read` allocates nothing. Every alsa-lib call goes through
/// `library` (`SystemALSA` unless a test hands in another).
///
/// A `hw:` name is opened as `plughw:` so that the `plug` layer converts whatever the card records
/// to mono float at a rate near the one asked for; `default` already goes through `plug`.
public final class ALSACaptureSource: AudioSource {
    /// The PCM name as given by the user (shown in messages and the status line).
    public let device: String
    /// What the device agreed to: format, rate, period and buffer size in frames.
    public let hardware: ALSAHardware
    public let sampleRate: Double
    public let label: String
    /// Overruns (`-EPIPE`) mended by `snd_pcm_recover` so far; the stream carried on after each.
    public private(set) var overruns = 0

    private let library: any ALSALibrary
    private let handle: ALSAHandle
    /// Where 16-bit frames land before conversion; nil for float devices, which read in place.
    private let scratch: UnsafeMutableBufferPointer<Int16>?

    /// Opens and sets up `device` for capture (`snd_pcm_open`, or `snd_pcm_open_lconf` when
    /// `configuration` holds alsa-lib configuration text that defines `device` on its own — used by
    /// tests to feed the real capture path from a file with the `file` plugin).
    ///
    /// - Parameters:
    ///   - rate: the sample rate to ask for; the device's nearest rate is taken.
    ///   - periodFrames: frames per period; default 10 ms (one engine hop) from a card, so a reading
    ///     follows the string at once without waking more often than readings are made, and 20 ms from
    ///     a sound server's plugin (`pulse`, or `default` routed to the server), which buffers anyway
    ///     and where each period costs wake-ups in three threads (`ALSARequest.serverPeriodFrames`).
    ///     A value given here is used for both.
    /// - Throws: `ALSAError` naming the device and alsa-lib's reason.
    public init(device: String = "default", rate: Int = 48000, periodFrames: Int? = nil,
                formats: [ALSASampleFormat] = [.floatLE, .s16LE], configuration: String? = nil,
                library: any ALSALibrary = SystemALSA()) throws(ALSAError) {
        library.silenceErrors()
        let pcmName = configuration == nil ? Self.pluggedName(device) : device
        let handle: ALSAHandle
        switch library.openCapture(name: pcmName, configuration: configuration) {
        case .success(let h): handle = h
        case .failure(let code):
            throw ALSAError.opening(device, code: code.value, reason: library.describe(code.value))
        }
        let request = ALSARequest(formats: formats, rate: rate, periodFrames: periodFrames,
                                  serverPeriodFrames: periodFrames)
        switch library.configure(handle, request) {
        case .success(let hw):
            hardware = hw
        case .failure(let code):
            library.close(handle)
            throw ALSAError(kind: .unsupported, device: device, code: code.value,
                            reason: library.describe(code.value))
        }
        self.device = device
        self.library = library
        self.handle = handle
        sampleRate = Double(hardware.rate)
        label = "ALSA \(device), \(hardware.rate) Hz"
        scratch = hardware.makeScratch()
    }

    deinit {
        library.close(handle)
        scratch?.deallocate()
    }

    /// Reads at most one period (never more than the PCM buffer holds), blocking until it is there.
    /// Overruns and suspends are mended with `snd_pcm_recover` and reading goes on; any other failure
    /// throws `ALSAError.Kind.vanished`.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let frames = min(buffer.count, hardware.periodFrames)
        while true {
            let target = scratch.map { UnsafeMutableRawPointer($0.baseAddress!) } ?? UnsafeMutableRawPointer(base)
            switch library.transfer(handle, library.read(handle, into: target, frames: frames)) {
            case .moved(let got):
                if let scratch {
                    for i in 0..<got { base[i] = Float(scratch[i]) * (1 / 32768) }
                }
                return got
            case .again: continue
            case .mended(let xrun): if xrun { overruns += 1 }
            case .failed(let code):
                throw ALSAError(kind: .vanished, device: device, code: code, reason: library.describe(code))
            }
        }
    }

    /// The PCMs a user can pass to `--device` (capture) or `--playback-device` (playback)
    /// (`snd_device_name_hint`).
    public static func devices(_ direction: ALSAError.Direction = .capture,
                               library: any ALSALibrary = SystemALSA()) throws(ALSAError) -> [ALSADeviceHint] {
        library.silenceErrors()
        switch library.devices(direction) {
        case .success(let list):
            guard !list.isEmpty else {
                throw ALSAError(kind: .listing, device: "", code: -ENOENT,
                                reason: "it defines no PCM, not even \"null\"", direction: direction)
            }
            return list
        case .failure(let code):
            throw ALSAError(kind: .listing, device: "", code: code.value, reason: library.describe(code.value),
                            direction: direction)
        }
    }

    /// "hw:1,0" → "plughw:1,0"; other names unchanged.
    static func pluggedName(_ device: String) -> String {
        device.hasPrefix("hw:") ? "plug" + device : device
    }
}
