#if canImport(Glibc)
import Glibc
#endif

/// PLACEHOLDER entry point — the CLI is being written.
public enum TunerCommand {
    public static func run(arguments: [String]) async -> Int32 { 0 }
    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }
}
