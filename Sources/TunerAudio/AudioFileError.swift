import TunerBridge

/// Why an audio file cannot be tuned. Its `description` is one line that names the file and the reason.
public struct AudioFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// Nothing at the path.
        case missing
        /// The path is a directory.
        case directory
        /// The file is 0 bytes long.
        case emptyFile
        /// The file is audio but holds no frames.
        case noFrames
        /// libsndfile does not recognise the contents as audio (its words in `detail`).
        case notAudio(detail: String)
        /// Standard input (`--file -`) starts with no header libsndfile knows: raw samples, most likely.
        case rawStream
        /// The file cannot be opened or read for another reason (permission, I/O error…), in words.
        case unreadable(detail: String)
        /// The sample rate is outside what the engine accepts.
        case unsupportedSampleRate(Int)
        /// A channel was asked for that the file does not have (`requested` is 1-based).
        case channelOutOfRange(requested: Int, available: Int)
    }

    /// The path as the user gave it.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let file = path == "-" ? "standard input" : "'\(FileName.display(path))'"
        switch reason {
        case .missing:
            return "cannot read \(file): no such file"
        case .directory:
            return "cannot read \(file): it is a directory, not an audio file"
        case .emptyFile:
            return "cannot read \(file): \(path == "-" ? "it is" : "the file is") empty (0 bytes)"
        case .noFrames:
            return "cannot read \(file): it holds no audio (0 frames)"
        case .notAudio(let detail):
            return "cannot read \(file): not an audio file libsndfile can read (\(detail))"
        case .rawStream:
            return "cannot read standard input: it has no audio header (raw samples?); give it one, e.g. "
                + "'arecord -f S16_LE -r 48000 -c 1 -t wav' or 'sox -t raw -r 48000 -e signed -b 16 -c 1 - -t wav -'"
        case .unreadable(let detail):
            return "cannot read \(file): \(detail)"
        case .unsupportedSampleRate(let rate):
            let range = Limits.sampleRate
            return "cannot tune \(file): its sample rate \(rate) Hz is outside \(range.lowerBound)…\(range.upperBound) Hz; "
                + "resample it first (e.g. sox in.wav -r 48000 out.wav)"
        case .channelOutOfRange(let requested, let available):
            return "cannot use channel \(requested) of \(file): it has \(available) channel\(available == 1 ? "" : "s") (1…\(available))"
        }
    }
}
