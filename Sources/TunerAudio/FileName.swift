#if canImport(Glibc)
import Glibc
#endif

/// A file name as the kernel sees it — bytes — carried in a Swift `String` without loss.
///
/// Linux file names need not be UTF-8 (`café.wav` saved in Latin-1 is `caf\xE9.wav`), but
/// `CommandLine.arguments` decodes argv lossily (the byte becomes U+FFFD), so a name decoded that way
/// names another file. `decode` keeps every byte: valid UTF-8 as its characters, and each byte that is
/// not part of valid UTF-8 as a code point of its own, U+10FF00 + byte (the end of Supplementary Private
/// Use Area-B, which no text uses; a genuine U+10FF00…U+10FFFF in a name is itself stored byte by byte,
/// so the mapping stays one-to-one). `withCString` gives the original bytes back for `stat`/`sf_open`;
/// `display` shows the name in a message on one line, bad bytes as `\xE9`.
public enum FileName {
    /// The first of the 256 code points standing for raw bytes.
    static let rawByteBase: UInt32 = 0x10FF00

    /// The name argv holds (`bytes`, without the terminating NUL), as a lossless `String`.
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            if length > 0, i + length <= bytes.count,
               let text = String(validating: bytes[i..<i + length], as: UTF8.self),
               let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1,
               scalar.value < rawByteBase {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(rawByteBase + UInt32(lead))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `name` stands for: what `decode` was given.
    public static func bytes(of name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if scalar.value >= rawByteBase {
                bytes.append(UInt8(truncatingIfNeeded: scalar.value - rawByteBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the NUL-terminated bytes of `name` (for `stat`, `open`, `sf_open`).
    public static func withCString<R>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        let terminated = bytes(of: name).map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `name` for a one-line message: raw bytes as `\xE9`, control characters (a newline in a name) as
    /// `\n`, `\t` or `\x1B`, everything else as it is.
    public static func display(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case rawByteBase...: out += hex(UInt8(truncatingIfNeeded: scalar.value - rawByteBase))
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F: out += hex(UInt8(scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    /// The process's arguments (without the program name), each decoded losslessly from argv's bytes.
    public static func processArguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return decode(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self),
                                              count: strlen(argument)))
        }
    }
}
