import Dispatch
import TunerCLI

/// A synchronous `main`: help, version, usage errors and too-low resource limits are answered before
/// the Swift concurrency runtime (and libdispatch under it) starts, which it cannot under `ulimit -n 4`.
/// A run then goes on in a task while the main thread serves the main queue (`dispatchMain`).
@main
struct TunerMain {
    static func main() {
        let arguments = TunerCommand.processArguments()
        if let code = TunerCommand.runBeforeConcurrency(arguments: arguments) { TunerCommand.exit(code) }
        Task.detached { TunerCommand.exit(await TunerCommand.run(arguments: arguments)) }
        dispatchMain()
    }
}
