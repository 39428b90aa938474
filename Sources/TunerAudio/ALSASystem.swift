import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The real alsa-lib (`libasound`): the only code in the program that calls it.
public struct SystemALSA: ALSALibrary {
    public init() {}

    public func silenceErrors() { ctuner_alsa_silence_errors() }

    public func openCapture(name: String, configuration: String?) -> Result<ALSAHandle, ALSACode> {
        open(name: name, stream: SND_PCM_STREAM_CAPTURE, configuration: configuration)
    }

    public func openPlayback(name: String, configuration: String?) -> Result<ALSAHandle, ALSACode> {
        open(name: name, stream: SND_PCM_STREAM_PLAYBACK, configuration: configuration)
    }

    private func open(name: String, stream: snd_pcm_stream_t, configuration: String?) -> Result<ALSAHandle, ALSACode> {
        var pcm: OpaquePointer?
        guard let configuration else {
            let rc = snd_pcm_open(&pcm, name, stream, 0)
            guard rc == 0, let pcm else { return .failure(ALSACode(rc < 0 ? rc : -EINVAL)) }
            return .success(ALSAHandle(pcm: pcm))
        }
        // A private configuration: parsed into its own tree, the global one is never read.
        var top: OpaquePointer?
        var rc = snd_config_top(&top)
        guard rc == 0, let top else { return .failure(ALSACode(rc < 0 ? rc : -ENOMEM)) }
        var input: OpaquePointer?
        rc = configuration.withCString { text in snd_input_buffer_open(&input, text, strlen(text)) }
        guard rc == 0, let input else {
            snd_config_delete(top)
            return .failure(ALSACode(rc < 0 ? rc : -ENOMEM))
        }
        rc = snd_config_load(top, input)
        snd_input_close(input)
        guard rc == 0 else {
            snd_config_delete(top)
            return .failure(ALSACode(rc))
        }
        rc = snd_pcm_open_lconf(&pcm, name, stream, 0, top)
        guard rc == 0, let pcm else {
            snd_config_delete(top)
            return .failure(ALSACode(rc < 0 ? rc : -EINVAL))
        }
        return .success(ALSAHandle(pcm: pcm, configuration: top))
    }

    public func configure(_ handle: ALSAHandle, _ request: ALSARequest) -> Result<ALSAHardware, ALSACode> {
        let pcm = handle.pcm
        var params: OpaquePointer?
        var rc = snd_pcm_hw_params_malloc(&params)
        guard rc == 0, let params else { return .failure(ALSACode(rc < 0 ? rc : -ENOMEM)) }
        defer { snd_pcm_hw_params_free(params) }

        rc = snd_pcm_hw_params_any(pcm, params)
        if rc < 0 { return .failure(ALSACode(rc)) }
        rc = snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED)
        if rc < 0 { return .failure(ALSACode(rc)) }
        // The first format of the request the device takes.
        guard let format = request.formats.first(where: {
            snd_pcm_hw_params_test_format(pcm, params, Self.code(of: $0)) == 0
        }) else { return .failure(ALSACode(-EINVAL)) }
        rc = snd_pcm_hw_params_set_format(pcm, params, Self.code(of: format))
        if rc < 0 { return .failure(ALSACode(rc)) }
        rc = snd_pcm_hw_params_set_channels(pcm, params, 1)
        if rc < 0 { return .failure(ALSACode(rc)) }
        var rate = UInt32(clamping: request.rate)
        var dir: Int32 = 0
        rc = snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &dir)
        if rc < 0 { return .failure(ALSACode(rc)) }
        // Periods of at most 10 ms where the device allows it (a failed try leaves `params` as it was);
        // at most 20 ms from a sound server's plugin (see `ALSARequest.serverPeriodFrames`).
        let soundServer = snd_pcm_type(pcm) == SND_PCM_TYPE_IOPLUG
        let ceiling = max(1, soundServer ? Int(rate) / 50 : Int(rate) / 100)
        var longest = snd_pcm_uframes_t(ceiling)
        dir = 0
        _ = snd_pcm_hw_params_set_period_size_max(pcm, params, &longest, &dir)
        var period = snd_pcm_uframes_t(max(1, min(soundServer ? request.serverPeriodFrames : request.periodFrames, ceiling)))
        dir = 0
        rc = snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &dir)
        if rc < 0 { return .failure(ALSACode(rc)) }
        var buffer = snd_pcm_uframes_t(Int(period) * max(2, request.periodsPerBuffer))
        rc = snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer)
        if rc < 0 { return .failure(ALSACode(rc)) }
        rc = snd_pcm_hw_params(pcm, params)
        if rc < 0 { return .failure(ALSACode(rc)) }

        // Read back what was installed.
        var actualRate: UInt32 = 0
        dir = 0
        snd_pcm_hw_params_get_rate(params, &actualRate, &dir)
        var actualPeriod: snd_pcm_uframes_t = 0
        dir = 0
        snd_pcm_hw_params_get_period_size(params, &actualPeriod, &dir)
        var actualBuffer: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_buffer_size(params, &actualBuffer)
        rc = snd_pcm_prepare(pcm)
        if rc < 0 { return .failure(ALSACode(rc)) }
        return .success(ALSAHardware(format: format, rate: Int(actualRate), periodFrames: Int(actualPeriod),
                                     bufferFrames: Int(actualBuffer), soundServer: soundServer))
    }

    public func read(_ handle: ALSAHandle, into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        Int(snd_pcm_readi(handle.pcm, buffer, snd_pcm_uframes_t(frames)))
    }

    public func write(_ handle: ALSAHandle, from buffer: UnsafeRawPointer, frames: Int) -> Int {
        Int(snd_pcm_writei(handle.pcm, buffer, snd_pcm_uframes_t(frames)))
    }

    public func drain(_ handle: ALSAHandle) -> Int32 {
        let rc = snd_pcm_drain(handle.pcm)
        return rc < 0 ? rc : snd_pcm_prepare(handle.pcm)
    }

    public func recover(_ handle: ALSAHandle, from code: Int32) -> Int32 {
        snd_pcm_recover(handle.pcm, code, 1)
    }

    public func close(_ handle: ALSAHandle) {
        snd_pcm_close(handle.pcm)
        if let configuration = handle.configuration { snd_config_delete(configuration) }
    }

    public func describe(_ code: Int32) -> String { String(cString: snd_strerror(code)) }

    public func devices(_ direction: ALSAError.Direction) -> Result<[ALSADeviceHint], ALSACode> {
        let wanted = direction == .capture ? "Input" : "Output"
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        let rc = snd_device_name_hint(-1, "pcm", &hints)
        guard rc == 0, let hints else { return .failure(ALSACode(rc < 0 ? rc : -EINVAL)) }
        defer { snd_device_name_free_hint(hints) }
        var devices: [ALSADeviceHint] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            let name = Self.take(snd_device_name_get_hint(hint, "NAME"))
            let description = Self.take(snd_device_name_get_hint(hint, "DESC"))
            let ioid = Self.take(snd_device_name_get_hint(hint, "IOID"))
            guard let name, ioid == nil || ioid == wanted else { continue }
            let oneLine = (description ?? "").split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters() }.filter { !$0.isEmpty }.joined(separator: " — ")
            devices.append(ALSADeviceHint(name: name, description: oneLine))
        }
        return .success(devices)
    }

    /// Copies and frees a string alsa-lib allocated for the caller.
    private static func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    private static func code(of format: ALSASampleFormat) -> snd_pcm_format_t {
        switch format {
        case .floatLE: return SND_PCM_FORMAT_FLOAT_LE
        case .s16LE: return SND_PCM_FORMAT_S16_LE
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        var s = self
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
