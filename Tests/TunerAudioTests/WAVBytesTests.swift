import Testing
@testable import TunerAudio

/// The WAV `espeak-ng --stdout` writes, decoded in memory.
@Suite struct WAVBytesTests {
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
    static func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xff) } }

    static func wav(channels: Int, rate: Int, bits: Int = 16, samples: [Int16], dataSize: Int? = nil,
                    extraChunk: Bool = false) -> [UInt8] {
        var data: [UInt8] = []
        for s in samples { data += le16(Int(UInt16(bitPattern: s))) }
        var bytes = Array("RIFF".utf8) + le32(0x7fff_f000) + Array("WAVE".utf8)
        if extraChunk { bytes += Array("LIST".utf8) + le32(3) + [1, 2, 3, 0] }  // odd size: padded
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate)
        bytes += le32(rate * channels * bits / 8) + le16(channels * bits / 8) + le16(bits)
        return bytes + Array("data".utf8) + le32(dataSize ?? data.count) + data
    }

    @Test func espeakStyleHeaderWithAPlaceholderSizeTakesTheBytesThatAreThere() throws {
        let sound = try WAVBytes.decode(Self.wav(channels: 1, rate: 22050, samples: [0, 16384, -32768, 32767],
                                                 dataSize: 0x7fff_f000))
        #expect(sound.rate == 22050)
        #expect(sound.samples == [0, 0.5, -1, Float(32767) / 32768])
    }

    @Test func stereoIsMixedAndOtherChunksAreSkipped() throws {
        let sound = try WAVBytes.decode(Self.wav(channels: 2, rate: 16000, samples: [16384, 0, -16384, -16384],
                                                 extraChunk: true))
        #expect(sound.rate == 16000)
        #expect(sound.samples == [0.25, -0.5])
    }

    @Test(arguments: [[UInt8](), Array("not a wav at all".utf8)])
    func notAWAVIsAnError(bytes: [UInt8]) {
        #expect(throws: WAVBytes.Failure.self) { try WAVBytes.decode(bytes) }
    }

    @Test func floatWAVIsRefusedByName() {
        var bytes = Self.wav(channels: 1, rate: 22050, samples: [1, 2])
        bytes[20] = 3  // WAVE_FORMAT_IEEE_FLOAT
        #expect(throws: WAVBytes.Failure(description: "the WAV is not integer PCM")) { try WAVBytes.decode(bytes) }
    }
}
