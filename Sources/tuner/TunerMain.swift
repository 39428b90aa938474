import TunerCLI

@main
struct TunerMain {
    static func main() async {
        let code = await TunerCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
        TunerCommand.exit(code)
    }
}
