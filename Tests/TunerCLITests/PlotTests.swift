import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TunerTestSupport
import TunerAudio
import TunerBridge
import TunerMusic
@testable import TunerCLI

/// `tuner --file F --plot P.svg`: the SVG is parsed as XML and its axes, band, path and labels checked
/// against the readings of the same file.
@Suite struct PlotTests {
    /// A2 +5 ¢ for 1.5 s, 0.5 s of silence, E2 −10 ¢ for 1.5 s.
    static func recording(_ dir: TemporaryDirectory) throws -> String {
        let a2 = Synth.sine(Note(midi: 45).frequency().shifted(by: Cents(5)), seconds: 1.5, sampleRate: 48000)
        let e2 = Synth.sine(Note(midi: 40).frequency().shifted(by: Cents(-10)), seconds: 1.5, sampleRate: 48000)
        let samples = a2 + [Float](repeating: 0, count: 24000) + e2
        return try dir.write("two.wav", [samples], rate: 48000, format: .init(.wav, .float32))
    }

    /// An attribute's value by its name (looked up in the list: FoundationXML on Linux does not find
    /// un-prefixed attributes of an element in the SVG namespace with `attribute(forName:)`).
    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name || $0.localName == name }?.stringValue
    }

    static func elements(_ document: XMLDocument, _ xpath: String) throws -> [XMLElement] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    @Test func theSVGHasAxesABandThePathOfTheReadingsAndTheNotes() throws {
        let dir = try TemporaryDirectory("tuner-plot")
        let file = try Self.recording(dir)
        let svgPath = dir.path("two.svg")
        let result = try TunerBinary.run(["--file", file, "--plot", svgPath])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("Wrote \(svgPath): "))

        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: svgPath), options: [])
        let svg = try #require(document.rootElement())
        #expect(svg.name == "svg")
        #expect(Self.attribute(svg, "viewBox") == "0 0 1000 420")
        #expect(Self.attribute(svg, "width") == "1000")

        // Axes with their titles and units.
        let axes = try Self.elements(document, "//*[@class='axis']")
        #expect(Set(axes.compactMap { Self.attribute($0, "id") }) == ["x-axis", "y-axis"])
        let titles = try Self.elements(document, "//*[@class='axis-title']").compactMap(\.stringValue)
        #expect(titles == ["time (s)", "cents from the nearest note (¢)"])
        let yLabels = try Self.elements(document, "//*[@class='y-label']").compactMap(\.stringValue)
        #expect(yLabels.first == "-50" && yLabels.last == "+50" && yLabels.contains("0") && yLabels.count == 11)
        let xLabels = try Self.elements(document, "//*[@class='x-label']").compactMap(\.stringValue)
        #expect(xLabels.first == "0" && xLabels.count >= 5, "\(xLabels)")

        // The tolerance band: ±3 ¢ by default.
        let band = try #require(try Self.elements(document, "//*[@class='tolerance']").first)
        let bandY = Double(Self.attribute(band, "y") ?? "") ?? .nan
        let bandHeight = Double(Self.attribute(band, "height") ?? "") ?? .nan
        #expect(abs(bandY - PlotSVG.y(3)) < 0.01 && abs(bandY + bandHeight - PlotSVG.y(-3)) < 0.01)

        // The path: one subpath per run of pitched readings (the silence is a gap), one point per reading.
        let path = try #require(try Self.elements(document, "//*[@id='readings']").first)
        let d = try #require(Self.attribute(path, "d"))
        let subpaths = d.split(separator: "M").map { $0.split(separator: "L").map { pair -> (Double, Double) in
            let xy = pair.split(separator: " ").compactMap { Double($0) }
            return (xy[0], xy[1])
        } }
        #expect(subpaths.count == 2, "two runs of notes around the silence: \(subpaths.count)")
        let jsonl = try TunerBinary.run(["--file", file, "--output", "jsonl"])
        let readings = jsonl.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let pitched = readings.filter { $0["note"] is String }
        #expect(subpaths.map(\.count).reduce(0, +) == pitched.count)
        // The points sit where the readings' cents put them: A2 +5 ¢, then E2 −10 ¢.
        let middleOfA2 = subpaths[0][subpaths[0].count / 2].1, middleOfE2 = subpaths[1][subpaths[1].count / 2].1
        #expect(abs(middleOfA2 - PlotSVG.y(5)) < 0.5, "\(middleOfA2) vs \(PlotSVG.y(5))")
        #expect(abs(middleOfE2 - PlotSVG.y(-10)) < 0.5, "\(middleOfE2) vs \(PlotSVG.y(-10))")
        let lastTime = try #require(readings.last?["time"] as? Double)
        #expect(abs((subpaths[1].last?.0 ?? 0) - PlotSVG.x(lastTime, duration: lastTime)) < 1, "ends at the right edge")

        // Note names where the note changes.
        let notes = try Self.elements(document, "//*[@class='note']").compactMap(\.stringValue)
        #expect(notes == ["A2", "E2"])
    }

    @Test func withATuningTheCentsAreFromTheTargetString() throws {
        let dir = try TemporaryDirectory("tuner-plot-tuning")
        let file = try Self.recording(dir)
        let svgPath = dir.path("guitar.svg")
        let result = try TunerBinary.run(["--file", file, "--plot", svgPath, "--tuning", "guitar"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: svgPath), options: [])
        let titles = try Self.elements(document, "//*[@class='axis-title']").compactMap(\.stringValue)
        #expect(titles.last == "cents from the target string (¢)")
        #expect(try Self.elements(document, "//*[@class='note']").compactMap(\.stringValue) == ["A2", "E2"])
    }

    @Test(arguments: [
        (["--plot", "x.svg"], 64, "Error: '--plot' needs '--file'"),
        (["--file", "x.wav", "--plot", "x.svg", "--output", "text"], 64,
         "Error: '--plot' and '--output' cannot be used together"),
        (["--file", "x.wav", "--plot", "/no/such/folder/x.svg"], 1,
         "Error: cannot write the plot to '/no/such/folder/x.svg': the folder '/no/such/folder' does not exist."),
    ])
    func badPlotArguments(arguments: [String], status: Int32, message: String) throws {
        let result = try TunerBinary.run(arguments)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }
}
