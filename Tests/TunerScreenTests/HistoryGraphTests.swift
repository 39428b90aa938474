import Testing
import TunerBridge
import TunerMusic
@testable import TunerScreen

/// The braille history graph on known series: which dots are set, gaps, clipping, the band, and the
/// screen that shows it (key h) giving way on small terminals.
@Suite struct HistoryGraphTests {
    typealias Point = HistoryGraph.Point

    @Test func brailleCellsFollowTheDotNumbering() {
        var c = BrailleCanvas(columns: 2, rows: 1)
        #expect(c.lines == ["\u{2800}\u{2800}"])
        c.set(x: 0, y: 0)  // dot 1
        c.set(x: 1, y: 3)  // dot 8
        c.set(x: 2, y: 3)  // dot 7 of the second cell
        c.set(x: 9, y: 9)  // outside: ignored
        #expect(c.lines == ["\u{2881}\u{2840}"])
        #expect(c.isSet(x: 0, y: 0) && c.isSet(x: 1, y: 3) && c.isSet(x: 2, y: 3) && !c.isSet(x: 3, y: 3))
    }

    /// Every dot that is set, as (x, y).
    static func dots(_ c: BrailleCanvas) -> [(Int, Int)] {
        (0..<c.height).flatMap { y in (0..<c.width).filter { c.isSet(x: $0, y: y) }.map { ($0, y) } }
    }

    @Test func aSteadyZeroIsAFlatLineAcrossTheMiddleAndNothingElse() {
        // 10 s of readings every 10 ms at 0 ¢, tolerance 50 so the band's edges are the top and bottom rows.
        let points = (0...1000).map { Point(time: Double($0) / 100, cents: 0) }
        let c = HistoryGraph.render(points, now: 10, tolerance: 50, columns: 20, rows: 4)  // 40 × 16 dots
        let middle = HistoryGraph.y(0, height: 16)
        #expect(middle == 8)  // (50 − 0) / 100 × 15, rounded
        for x in 0..<40 { #expect(c.isSet(x: x, y: middle), "column \(x)") }
        let others = Self.dots(c).filter { $0.1 != middle && $0.1 != 0 && $0.1 != 15 }
        #expect(others.isEmpty, "\(others)")
        // The band's edges: every other column of the top and bottom rows.
        #expect((0..<40).allSatisfy { c.isSet(x: $0, y: 0) == ($0 % 2 == 0) && c.isSet(x: $0, y: 15) == ($0 % 2 == 0) })
    }

    @Test func aRampRisesLeftToRightAndIsClippedAtFiftyCents() {
        // −100 ¢ to +100 ¢ over the 10 s: the line sits on the bottom edge, climbs, then the top edge.
        let points = (0...1000).map { Point(time: Double($0) / 100, cents: -100 + 0.2 * Double($0)) }
        let c = HistoryGraph.render(points, now: 10, tolerance: 0.1, columns: 20, rows: 4)
        #expect(c.isSet(x: 0, y: 15) && c.isSet(x: 5, y: 15), "clipped at −50 ¢ for the first quarter")
        #expect(c.isSet(x: 39, y: 0) && c.isSet(x: 34, y: 0), "clipped at +50 ¢ for the last quarter")
        #expect(c.isSet(x: 20, y: 8) || c.isSet(x: 19, y: 8), "0 ¢ at the middle of the time axis")
        // Nothing outside the canvas rows: every column has its dots within 0…15 and the line is continuous.
        for x in 0..<40 {
            #expect((0..<16).contains { c.isSet(x: x, y: $0) }, "column \(x) has a dot")
        }
    }

    @Test func noPitchLeavesAGapAndTheGraphEndsAtTheNewestReading() {
        // +20 ¢ for 0…4 s, no pitch 4…6 s, −20 ¢ 6…10 s.
        let points = (0...1000).map { i -> Point in
            let t = Double(i) / 100
            return Point(time: t, cents: t < 4 ? 20 : t < 6 ? nil : -20)
        }
        let c = HistoryGraph.render(points, now: 10, tolerance: 1, columns: 20, rows: 4)
        let high = HistoryGraph.y(20, height: 16), low = HistoryGraph.y(-20, height: 16)
        #expect(high == 5 && low == 11)
        #expect(c.isSet(x: 5, y: high) && !c.isSet(x: 5, y: low))
        #expect(c.isSet(x: 34, y: low) && !c.isSet(x: 34, y: high))
        let gap = HistoryGraph.x(4.3, now: 10, width: 40)...HistoryGraph.x(5.7, now: 10, width: 40)
        let inGap = Self.dots(c).filter { gap.contains($0.0) && $0.1 != HistoryGraph.y(1, height: 16)
            && $0.1 != HistoryGraph.y(-1, height: 16) }
        #expect(inGap.isEmpty, "no line where there was no pitch: \(inGap)")
        #expect(!(high...low).contains { c.isSet(x: gap.lowerBound + 1, y: $0) && $0 != 7 && $0 != 8 },
                "the two pitched parts are not joined across the gap")
        // Scrolling: with the right edge at 15 s only the −20 ¢ part is left, now on the left half.
        let later = HistoryGraph.render(points, now: 15, tolerance: 1, columns: 20, rows: 4)
        #expect(!Self.dots(later).contains { $0.1 == high })
        #expect(later.isSet(x: 10, y: low) && !later.isSet(x: 30, y: low))
    }

    @Test func readingsFarApartAreNotJoined() {
        let points = [Point(time: 1, cents: 40), Point(time: 9, cents: -40)]
        let c = HistoryGraph.render(points, now: 10, tolerance: 50, columns: 20, rows: 4)
        let lineDots = Self.dots(c).filter { $0.1 != 0 && $0.1 != 15 }
        #expect(lineDots.count == 2, "two lone dots: \(lineDots)")
    }

    // MARK: On the screen

    func model(rows: Int, columns: Int = 80) -> ScreenModel {
        var m = ScreenModel(sourceLabel: "test", sampleRate: 48000, size: ScreenSize(rows: rows, columns: columns))
        for i in 0...500 {
            var r = reading(midi: 45, cents: i < 250 ? 8 : -2)
            r.time = Double(i) / 100
            m.apply(r)
        }
        return m
    }

    @Test func keyHShowsTheGraphWithItsAxesAndHidesIt() {
        var m = model(rows: 30)
        let plain = TextCanvas(size: m.size)
        ScreenRenderer.draw(m, on: plain)
        #expect(!plain.text.contains("now"))
        #expect(m.handle(.history) == .viewChanged)
        let c = TextCanvas(size: m.size)
        ScreenRenderer.draw(m, on: c)
        let graphRows = c.lines.filter { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }
        #expect(graphRows.count >= ScreenRenderer.minimumGraphRows, "\(c.text)")
        #expect(c.text.contains("+50¢") && c.text.contains("-50¢") && c.text.contains("  0¢"))
        #expect(c.lines.contains { $0.contains("-10 s") && $0.contains("-5 s") && $0.hasSuffix("now") })
        #expect(c.text.contains("level"), "the level meter stays when there is room")
        _ = m.handle(.history)
        let hidden = TextCanvas(size: m.size)
        ScreenRenderer.draw(m, on: hidden)
        #expect(hidden.text == plain.text)
    }

    @Test func theGraphGivesWayOnSmallTerminals() {
        var m = model(rows: 14)
        _ = m.handle(.history)
        // 14 rows: 12 between the bars; note 5 + numbers 1 + scale 2 = 8, so 4 are left: 3 braille + axis.
        #expect(ScreenRenderer.parts(m, available: 12) == [.note, .numbers, .scale, .graph(rows: 3)])
        var small = model(rows: 12)
        _ = small.handle(.history)
        #expect(!ScreenRenderer.parts(small, available: 10).contains { if case .graph = $0 { return true } else { return false } })
        let c = TextCanvas(size: small.size)
        ScreenRenderer.draw(small, on: c)
        #expect(c.text.contains("A2"), "the tuner itself is still drawn")
    }

    @Test func theModelKeepsOnlyTheLastTenSeconds() {
        var m = ScreenModel(sourceLabel: "t", sampleRate: 48000, size: ScreenSize(rows: 24, columns: 80))
        for i in 0...3000 {
            var r = reading(cents: 1)
            r.time = Double(i) / 100
            m.apply(r)
        }
        #expect(m.history.count <= Int((HistoryGraph.span + HistoryGraph.joinGap) * 100) + 1)
        #expect(m.history.first!.time >= 30 - HistoryGraph.span - HistoryGraph.joinGap)
    }
}
