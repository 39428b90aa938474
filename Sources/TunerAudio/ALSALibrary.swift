#if canImport(Glibc)
import Glibc
#endif

/// A sample format the capture path can ask alsa-lib for.
public enum ALSASampleFormat: Sendable, Equatable, CustomStringConvertible {
    /// 32-bit float, little endian (`SND_PCM_FORMAT_FLOAT_LE`); read straight into the engine's buffer.
    case floatLE
    /// 16-bit signed integer, little endian (`SND_PCM_FORMAT_S16_LE`); converted to float after each read.
    case s16LE

    /// Bytes per mono frame.
    public var bytesPerFrame: Int { self == .floatLE ? 4 : 2 }
    public var description: String { self == .floatLE ? "float" : "16-bit" }
}

/// What the capture path asks of a PCM: interleaved mono in the first of `formats` the device takes,
/// near `rate`, with periods near `periodFrames` — or `serverPeriodFrames` when the PCM is a sound
/// server's plugin — and a buffer of `periodsPerBuffer` periods.
public struct ALSARequest: Sendable, Equatable {
    public var formats: [ALSASampleFormat]
    public var rate: Int
    /// Frames per period from a card (`hw:`/`plughw:`, the `file` plugin …): 10 ms, one engine hop.
    public var periodFrames: Int
    /// Frames per period from a sound server's plugin (PulseAudio's or PipeWire's, an `ioplug` PCM):
    /// 20 ms, two engine hops. The server buffers the audio anyway, and every period there costs
    /// wake-ups in the server, in its client library's thread and in the analysis thread (measured
    /// with `Benchmarks/live.py`: 6.36 % of a core with 10 ms periods, 4.88 % with 20 ms; pluck-to-reading
    /// latency unchanged within the spread of runs, medians 52–57 ms for both — see docs/pulseaudio.md).
    public var serverPeriodFrames: Int
    public var periodsPerBuffer: Int
    public init(formats: [ALSASampleFormat] = [.floatLE, .s16LE], rate: Int = 48000,
                periodFrames: Int? = nil, serverPeriodFrames: Int? = nil, periodsPerBuffer: Int = 4) {
        self.formats = formats
        self.rate = rate
        self.periodFrames = periodFrames ?? max(16, rate / 100)  // 10 ms; alsa-lib may round up
        self.serverPeriodFrames = serverPeriodFrames ?? max(16, rate / 50)  // 20 ms
        self.periodsPerBuffer = periodsPerBuffer
    }
}

/// What the device agreed to (`snd_pcm_hw_params_get_*` after `snd_pcm_hw_params`).
public struct ALSAHardware: Sendable, Equatable {
    public var format: ALSASampleFormat
    public var rate: Int
    public var periodFrames: Int
    public var bufferFrames: Int
    /// True when the PCM is a sound server's plugin (`snd_pcm_type` is `SND_PCM_TYPE_IOPLUG`: pulse,
    /// PipeWire), which was asked for `ALSARequest.serverPeriodFrames`.
    public var soundServer: Bool
    public init(format: ALSASampleFormat, rate: Int, periodFrames: Int, bufferFrames: Int, soundServer: Bool = false) {
        self.format = format
        self.rate = rate
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.soundServer = soundServer
    }
}

/// An open capture or playback PCM: the `snd_pcm_t` and, for a PCM opened from a configuration text, the
/// `snd_config_t` tree it was opened from (kept alive until `close`).
public struct ALSAHandle {
    public var pcm: OpaquePointer
    public var configuration: OpaquePointer?
    public init(pcm: OpaquePointer, configuration: OpaquePointer? = nil) {
        self.pcm = pcm
        self.configuration = configuration
    }
}

/// One PCM a user can pass to `--device`, from `snd_device_name_hint`.
public struct ALSADeviceHint: Sendable, Equatable {
    public var name: String
    /// One line (alsa-lib's descriptions have line breaks; they are joined with " — ").
    public var description: String
    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }
}

/// Every alsa-lib call the capture and playback paths make, in one place a test can replace.
///
/// Failures are negative errno codes as alsa-lib returns them; `describe` turns one into words
/// (`snd_strerror`). `SystemALSA` is the real thing; tests hand `ALSACaptureSource` a fake to
/// simulate overruns, a vanishing device or a busy one.
public protocol ALSALibrary {
    /// Keeps alsa-lib's own diagnostics off stderr (`snd_lib_error_set_handler` with an empty handler).
    func silenceErrors()
    /// Opens `name` for blocking capture (`snd_pcm_open`), or, given `configuration` text, from that
    /// configuration alone (`snd_config_load` + `snd_pcm_open_lconf`). Returns the handle or a code.
    func openCapture(name: String, configuration: String?) -> Result<ALSAHandle, ALSACode>
    /// Opens `name` for blocking playback, as `openCapture` does for capture.
    func openPlayback(name: String, configuration: String?) -> Result<ALSAHandle, ALSACode>
    /// Sets up interleaved mono capture or playback (whichever the handle was opened for) as close to `request` as the device allows
    /// (`snd_pcm_hw_params_*`, then `snd_pcm_prepare`).
    func configure(_ handle: ALSAHandle, _ request: ALSARequest) -> Result<ALSAHardware, ALSACode>
    /// Blocks until `frames` frames are read into `buffer` (`snd_pcm_readi`); returns the number of
    /// frames or a negative code.
    func read(_ handle: ALSAHandle, into buffer: UnsafeMutableRawPointer, frames: Int) -> Int
    /// Blocks until `frames` frames from `buffer` are queued for playback (`snd_pcm_writei`); returns
    /// the number of frames taken or a negative code.
    func write(_ handle: ALSAHandle, from buffer: UnsafeRawPointer, frames: Int) -> Int
    /// Waits until everything written has been played (`snd_pcm_drain`), then makes the PCM ready for
    /// the next sound (`snd_pcm_prepare`); 0 or a negative code.
    func drain(_ handle: ALSAHandle) -> Int32
    /// Brings the PCM back after an overrun or suspend (`snd_pcm_recover`, silent); 0 when it worked.
    func recover(_ handle: ALSAHandle, from code: Int32) -> Int32
    /// Closes the PCM (`snd_pcm_close`) and frees the configuration tree (`snd_config_delete`).
    func close(_ handle: ALSAHandle)
    /// alsa-lib's words for a code (`snd_strerror`).
    func describe(_ code: Int32) -> String
    /// The PCMs that can capture or play (`snd_device_name_hint`, `IOID` absent, or "Input" for
    /// capture and "Output" for playback).
    func devices(_ direction: ALSAError.Direction) -> Result<[ALSADeviceHint], ALSACode>
}

/// A negative errno code from alsa-lib.
public struct ALSACode: Error, Equatable, Sendable {
    public var value: Int32
    public init(_ value: Int32) { self.value = value }
}

extension ALSAHardware {
    /// A buffer for one period of 16-bit frames, for a device that agreed to `.s16LE` (converted to or
    /// from float around each transfer); nil for a float device, whose frames move in place. The
    /// caller owns it and deallocates it.
    func makeScratch() -> UnsafeMutableBufferPointer<Int16>? {
        guard format == .s16LE else { return nil }
        let scratch = UnsafeMutableBufferPointer<Int16>.allocate(capacity: max(1, periodFrames))
        scratch.initialize(repeating: 0)
        return scratch
    }
}

/// What a `snd_pcm_readi`/`snd_pcm_writei` result means for the capture and playback loops.
enum ALSATransfer: Equatable {
    /// This many frames moved.
    case moved(Int)
    /// Nothing moved but nothing is wrong (0, EAGAIN, EINTR): try again.
    case again
    /// An overrun or underrun (`xrun`) or a suspend was mended by `snd_pcm_recover`: go on.
    case mended(xrun: Bool)
    /// A failure that could not be mended; the code names it.
    case failed(Int32)
}

extension ALSALibrary {
    /// Interprets `got`, the result of a read or a write on `handle`, mending overruns, underruns and
    /// suspends with `recover` (silent).
    func transfer(_ handle: ALSAHandle, _ got: Int) -> ALSATransfer {
        if got > 0 { return .moved(got) }
        if got == 0 || got == -Int(EAGAIN) || got == -Int(EINTR) { return .again }
        let code = Int32(clamping: got)
        guard code == -EPIPE || code == -ESTRPIPE else { return .failed(code) }
        let rc = recover(handle, from: code)
        return rc == 0 ? .mended(xrun: code == -EPIPE) : .failed(rc)
    }
}
