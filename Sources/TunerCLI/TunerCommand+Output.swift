#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TunerAudio
import TunerBridge
import TunerMusic
import TunerScreen

/// The readings as lines (`--output text`/`jsonl`, `--announce`), dropped readings reported, and `--plot`.
extension TunerCommand {
    /// `--output text`/`jsonl`: each measurement through `pipeline` on this task, in order (as the
    /// screen does), and the `lines` of each step (the reading; with a tuning, its target string and
    /// the settled notes) to standard output through one buffer, until the stream ends. For `live`
    /// input the buffer is written as soon as no further measurement is ready (one `write(2)` per
    /// capture block, whose readings arrive together, instead of one per reading): a file is done in a
    /// moment, but a capture runs on, and its readings must not wait for 64 KiB to pile up.
    static func printLines(of session: TunerSession, through pipeline: ReadingPipeline, live: Bool = false,
                           io: SystemIO, _ lines: (TuningTracker.Step) -> String) async -> ExitCode {
        var pipeline = pipeline
        return await printLines(of: session, live: live, io: io) { lines(pipeline.process($0)) }
    }

    /// The lines `text` makes of each measurement of `session`, in order, as above (`--poly` too), then
    /// what `end` makes once the stream has ended.
    static func printLines<Measurement>(of session: AnalysisSession<Measurement>, live: Bool, io: SystemIO,
                                        _ text: (Measurement) -> String,
                                        end: () -> String = { "" }) async -> ExitCode {
        let output = BufferedOutput(descriptor: SystemIO.standardOutput, io: io)
        // One iterator to the end of the stream: after the reader has gone (e.g. `| head -1`) the session
        // is told to stop and the few readings still coming are dropped, so the analysis thread has
        // finished (and released the engine and the file) before the process exits.
        var measurements = session.measurements.makeAsyncIterator()
        var warned = false
        while let measurement = await measurements.next() {
            if output.isOpen && !output.write(text(measurement)) { session.stop() }
            if live && output.isOpen && !session.hasReadyMeasurement && !output.flush() { session.stop() }
            if live && !warned && session.dropped > 0 { warned = reportDropped(by: session, io: io, soFar: true) }
        }
        if output.isOpen { output.write(end()) }
        output.flush()
        if let code = output.failure {
            io.printError("Error: cannot write the readings: \(String(cString: strerror(code)))\n")
            return .failure
        }
        return .success
    }

    /// One line on stderr when a live source's readings were dropped because the output fell more than
    /// `TunerSession.queueCapacity` behind (`soFar`: as soon as it happens, since a live run may never end;
    /// else the total at the end). Returns whether it printed.
    @discardableResult
    static func reportDropped<Measurement>(by session: AnalysisSession<Measurement>, io: SystemIO,
                                           soFar: Bool) -> Bool {
        let dropped = session.dropped
        guard dropped > 0 else { return false }
        io.printError("Warning: \(dropped) reading\(dropped == 1 ? "" : "s") dropped\(soFar ? " so far" : ""): the "
            + "output fell more than \(TunerSession.queueCapacity) readings behind the capture device\n")
        return true
    }

    /// `--plot`: every measurement of the file through a `ReadingPipeline` (as the screen takes them), then
    /// the SVG, and one line saying what was written.
    static func writePlot(of session: TunerSession, options: TunerOptions, system: TargetSystem,
                          io: SystemIO) async -> ExitCode {
        guard let path = options.plot, let file = options.file else { return .usage }
        let name = URL(fileURLWithPath: file).lastPathComponent
        var plot = PlotSVG(title: "\(name) — A4 \(TunerFlags.number(options.a4.value)) Hz, tolerance ±"
                           + "\(TunerFlags.number(options.tolerance.value)) ¢",
                           tolerance: options.tolerance.value,
                           reference: options.tuning == nil ? "nearest note" : "target string")
        var pipeline = ReadingPipeline(settings: options.settings, system: system, tuning: options.tuning)
        for await measurement in session.measurements { plot.add(pipeline.process(measurement), tuning: options.tuning) }
        if let failed = reportFailure(of: session, io: io) { return failed }
        do {
            try plot.render().write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            io.printError("Error: cannot write the plot to '\(path)': \(error.localizedDescription)\n")
            return .failure
        }
        let pitched = plot.points.filter { $0.cents != nil }.count
        let seconds = String(format: "%.1f", plot.points.last?.time ?? 0)
        let line = "Wrote \(path): \(pitched) pitched readings of \(plot.points.count) over \(seconds) s.\n"
        return print(line, io: io) == ExitCode.success.rawValue ? .success : .failure
    }
}
