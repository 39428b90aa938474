import Testing
import TunerAudio

/// File names are bytes: `FileName` carries any of them in a `String` and gives them back unchanged.
@Suite struct FileNameTests {
    static let names: [[UInt8]] = [
        Array("a2.wav".utf8),
        Array("café.wav".utf8),                   // UTF-8
        [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x77],     // "caf\xE9.w": Latin-1
        [0xFF, 0xFE, 0x00 + 0x41],                // bytes that never start UTF-8
        [0xE2, 0x82],                             // a UTF-8 sequence cut short
        [0xED, 0xA0, 0x80],                       // an encoded surrogate (invalid UTF-8)
        [0xC0, 0xAF],                             // an overlong "/"
        Array("\u{10FFE9}x".utf8),                // a genuine code point of the range used for raw bytes
    ]

    @Test(arguments: names)
    func bytesSurviveTheRoundTrip(_ bytes: [UInt8]) {
        #expect(FileName.bytes(of: FileName.decode(bytes)) == bytes)
    }

    @Test func validUTF8DecodesAsText() {
        #expect(FileName.decode(Array("café ♯.wav".utf8)) == "café ♯.wav")
    }

    @Test func displayIsOneLineWithBadBytesEscaped() {
        #expect(FileName.display(FileName.decode([0x63, 0x61, 0x66, 0xE9])) == "caf\\xE9")
        #expect(FileName.display("two\nlines\t\u{1B}") == "two\\nlines\\t\\x1B")
        #expect(FileName.display("café") == "café")
    }
}
