import Testing
import TunerBridge
@testable import TunerMusic

@Suite struct StrobeTests {
    /// The band rotated `cells` to the right (negative: left).
    func rotated(_ band: String, by cells: Int) -> String {
        let c = Array(band)
        let n = c.count
        return String((0..<n).map { c[((($0 - cells) % n) + n) % n] })
    }

    @Test func sharpDriftsRightFlatLeftInTuneStandsStill() {
        let width = 16  // a multiple of the period, so rotation is exact
        let start = Strobe().render(width: width)
        #expect(start == "▓▓░░▓▓░░▓▓░░▓▓░░")

        var sharp = Strobe(), flat = Strobe(), still = Strobe()
        // 5 ¢ at 1 cell/s per cent for 0.2 s of reading time = one cell, in 20 readings of 10 ms.
        for i in 0...20 {
            let t = Double(i) * 0.01
            sharp.update(cents: Cents(5), at: t)
            flat.update(cents: Cents(-5), at: t)
            still.update(cents: Cents(0), at: t)
        }
        #expect(sharp.render(width: width) == rotated(start, by: 1))
        #expect(flat.render(width: width) == rotated(start, by: -1))
        #expect(still.render(width: width) == start)
        #expect(sharp.render(width: width) != flat.render(width: width))
        #expect(abs(sharp.phase - 1) < 1e-9 && abs(flat.phase - 3) < 1e-9 && still.phase == 0)
    }

    @Test func speedIsProportionalToTheError() {
        var slow = Strobe(), fast = Strobe()
        slow.advance(cents: Cents(0.1), seconds: 5)   // 0.5 cell: a tenth of a cent shows in 5 s
        fast.advance(cents: Cents(2), seconds: 0.25)  // 0.5 cell
        #expect(abs(slow.phase - 0.5) < 1e-9 && abs(fast.phase - 0.5) < 1e-9)
        // Half a cell: the stripe edges are mid-cell, drawn as "▒".
        #expect(slow.render(width: 8) == "▒▓▒░▒▓▒░")
        // Far-off strings move no faster than 50 ¢ would.
        var far = Strobe(), limit = Strobe()
        far.advance(cents: Cents(700), seconds: 0.01)
        limit.advance(cents: Cents(50), seconds: 0.01)
        #expect(far.phase == limit.phase)
    }

    @Test func noPitchFreezesAndTheFirstUpdateOnlySetsTheClock() {
        var strobe = Strobe()
        strobe.update(cents: Cents(10), at: 5)
        #expect(strobe.phase == 0)
        strobe.update(cents: nil, at: 5.5)
        #expect(strobe.phase == 0)
        strobe.update(cents: Cents(10), at: 5.6)
        #expect(abs(strobe.phase - 1) < 1e-9)
        strobe.advance(cents: Cents(.nan), seconds: 1)
        #expect(abs(strobe.phase - 1) < 1e-9)
        #expect(Strobe().render(width: 0) == "")
    }
}
