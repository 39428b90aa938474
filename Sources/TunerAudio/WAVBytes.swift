/// A RIFF/WAVE file held in memory — what `espeak-ng --stdout` writes — as a mono `Sound`.
///
/// Only what a speech synthesiser writes is taken: integer PCM of 8 or 16 bits (channels mixed to
/// mono). A program writing to a pipe cannot go back to fill in the sizes, so espeak-ng leaves a
/// placeholder in the data chunk's size; the data is taken up to the size or the end of the bytes,
/// whichever comes first.
public enum WAVBytes {
    /// Why the bytes are not a WAV this can play.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static func decode(_ bytes: [UInt8]) throws(Failure) -> Sound {
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else {
            throw Failure(description: "not a WAV file (no RIFF/WAVE header)")
        }
        var format: (channels: Int, rate: Int, bits: Int)?
        var at = 12
        while at + 8 <= bytes.count {
            let id = tag(at), size = u32(at + 4), body = at + 8
            if id == "fmt " {
                guard body + 16 <= bytes.count, u16(body) == 1 else {
                    throw Failure(description: "the WAV is not integer PCM")
                }
                format = (u16(body + 2), u32(body + 4), u16(body + 14))
            } else if id == "data" {
                guard let format, format.channels >= 1, format.rate > 0, format.bits == 16 || format.bits == 8 else {
                    throw Failure(description: "the WAV's format (before its data) is missing or not 8/16-bit PCM")
                }
                let end = min(bytes.count, body + size)
                let frameBytes = format.channels * format.bits / 8
                let frames = (end - body) / frameBytes
                var samples = [Float](repeating: 0, count: frames)
                for frame in 0..<frames {
                    var sum: Float = 0
                    for channel in 0..<format.channels {
                        let p = body + frame * frameBytes + channel * format.bits / 8
                        sum += format.bits == 16 ? Float(Int16(bitPattern: UInt16(u16(p)))) / 32768
                            : (Float(bytes[p]) - 128) / 128
                    }
                    samples[frame] = sum / Float(format.channels)
                }
                return Sound(samples: samples, rate: format.rate)
            }
            at = body + size + (size & 1)
        }
        throw Failure(description: "the WAV has no data")
    }
}
