import TunerCLI

@main
struct TunerMain {
    static func main() async {
        let code = await TunerCommand.run(arguments: TunerCommand.processArguments())
        TunerCommand.exit(code)
    }
}
