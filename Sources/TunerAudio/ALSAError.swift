/// Why ALSA capture or playback could not start or stopped: always names the device and gives
/// alsa-lib's reason (`snd_strerror`) in one line.
public struct ALSAError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// `snd_pcm_open` found no such PCM or card (ENOENT, ENODEV, ENXIO, …).
        case noDevice
        /// Another program holds the device (EBUSY).
        case busy
        /// The device takes no mono float/16-bit capture near the asked rate (hw params failed).
        case unsupported
        /// Reading failed mid-run in a way `snd_pcm_recover` could not mend (e.g. unplugged: ENODEV).
        case vanished
        /// Listing devices failed (`snd_device_name_hint`), or listed none at all: ALSA's configuration
        /// could not be read or parsed (alsa.conf always defines "null", so an empty list means it was not
        /// loaded, e.g. a wrong `ALSA_CONFIG_PATH` or an unreadable file). EX_CONFIG for the command line.
        case listing
    }

    /// Which way the audio goes: in from `--device` or out to `--playback-device`.
    public enum Direction: Sendable, Equatable {
        case capture, playback
    }

    public var direction: Direction
    public var kind: Kind
    /// The PCM name as the user gave it, e.g. "default" or "hw:1,0".
    public var device: String
    /// The negative errno code alsa-lib returned.
    public var code: Int32
    /// alsa-lib's words for `code`, e.g. "No such file or directory".
    public var reason: String

    public init(kind: Kind, device: String, code: Int32, reason: String, direction: Direction = .capture) {
        self.direction = direction
        self.kind = kind
        self.device = device
        self.code = code
        self.reason = reason
    }

    public var description: String {
        if direction == .playback {
            switch kind {
            case .noDevice:
                return "cannot open playback device \"\(device)\" (ALSA: \(reason)); name another with --playback-device (see --list-playback-devices)"
            case .busy:
                return "playback device \"\(device)\" is busy (ALSA: \(reason)); close the program using it"
            case .unsupported:
                return "playback device \"\(device)\" cannot play mono audio here (ALSA: \(reason)); try another --playback-device"
            case .vanished:
                return "playback device \"\(device)\" stopped playing (ALSA: \(reason))"
            case .listing:
                return "cannot list playback devices: ALSA's configuration could not be read (ALSA: \(reason)); "
                    + "check ~/.asoundrc, /etc/asound.conf and ALSA_CONFIG_PATH"
            }
        }
        switch kind {
        case .noDevice:
            return "cannot open capture device \"\(device)\" (ALSA: \(reason)); see --list-devices"
        case .busy:
            return "capture device \"\(device)\" is busy (ALSA: \(reason)); close the program using it"
        case .unsupported:
            return "capture device \"\(device)\" cannot record mono audio here (ALSA: \(reason)); try --rate or another --device"
        case .vanished:
            return "capture device \"\(device)\" stopped delivering audio (ALSA: \(reason))"
        case .listing:
            return "cannot list capture devices: ALSA's configuration could not be read (ALSA: \(reason)); "
                + "check ~/.asoundrc, /etc/asound.conf and ALSA_CONFIG_PATH"
        }
    }

    /// Classifies an error code of `snd_pcm_open`.
    static func opening(_ device: String, code: Int32, reason: String, direction: Direction = .capture) -> ALSAError {
        ALSAError(kind: code == -EBUSY ? .busy : .noDevice, device: device, code: code, reason: reason,
                  direction: direction)
    }
}

#if canImport(Glibc)
import Glibc
#endif
