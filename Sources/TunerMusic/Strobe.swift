import TunerBridge

/// A strobe band: a striped pattern that drifts left when flat and right when sharp, at a speed
/// proportional to the cents error, and stands still in tune — as on a strobe tuner, where a
/// tenth of a cent shows as a slow crawl.
///
/// Pure model: `advance` moves the phase by reading time, `render` draws the band at the phase.
/// Nothing here depends on the screen's frame rate.
public struct Strobe: Sendable, Equatable {
    /// Cells the pattern moves per second per cent of error (5 ¢ sharp: 5 cells/s to the right).
    public var cellsPerSecondPerCent: Double
    /// Length of one dark + light stripe pair, in cells.
    public let period: Int
    /// The pattern's offset in cells, in [0, period): the band at `render` is shifted right by it.
    public private(set) var phase: Double = 0
    /// Errors beyond this move the band no faster (a far-off string would only flicker).
    public var maximumCents: Cents
    private var lastTime: Double?

    public init(cellsPerSecondPerCent: Double = 1, period: Int = 4, maximumCents: Cents = Cents(50)) {
        self.cellsPerSecondPerCent = cellsPerSecondPerCent
        self.period = max(2, period)
        self.maximumCents = maximumCents
    }

    /// Moves the band for `seconds` at the speed for `cents` (positive: sharp, to the right).
    public mutating func advance(cents: Cents, seconds: Double) {
        guard cents.value.isFinite, seconds.isFinite, seconds > 0 else { return }
        let limited = cents.clamped(to: -maximumCents.value...maximumCents.value).value
        let p = Double(period)
        var next = (phase + limited * cellsPerSecondPerCent * seconds).truncatingRemainder(dividingBy: p)
        if next < 0 { next += p }
        phase = next
    }

    /// Moves the band by the reading time since the previous update; with no pitch (nil) it
    /// stands still. The first update only sets the clock.
    public mutating func update(cents: Cents?, at time: Double) {
        defer { lastTime = time }
        guard let lastTime, let cents else { return }
        advance(cents: cents, seconds: time - lastTime)
    }

    /// The band as `width` cells: "▓" dark, "░" light, "▒" a cell the stripe edge is crossing.
    public func render(width: Int) -> String {
        let half = Double(period) / 2
        var out = ""
        out.unicodeScalars.reserveCapacity(width)
        for i in 0..<max(0, width) {
            // Fraction of cell [i, i+1) that is dark; dark where (x - phase) mod period < half.
            let dark = darkCoverage(from: Double(i) - phase, half: half)
            out += dark >= 0.75 ? "▓" : (dark <= 0.25 ? "░" : "▒")
        }
        return out
    }

    /// How much of the unit interval starting at pattern position `x` is dark.
    private func darkCoverage(from x: Double, half: Double) -> Double {
        let p = Double(period)
        var start = x.truncatingRemainder(dividingBy: p)
        if start < 0 { start += p }
        // The dark stripes in [0, 2p) are [0, half) and [p, p + half).
        var covered = 0.0
        for stripe in [0.0, p] {
            covered += max(0, min(start + 1, stripe + half) - max(start, stripe))
        }
        return covered
    }
}
