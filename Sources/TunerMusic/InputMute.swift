/// Input the tuner must not read because it is making a sound itself (speech, the reference tone, a
/// chime): while it is on, and for `tail` seconds of reading time after it is turned off, readings
/// count as having no pitch, so the tuner never tunes to its own sound.
///
/// Reading time, not a clock: the tail is measured on the readings themselves, like everything the
/// display and the settle detector do.
public struct InputMute: Sendable, Equatable {
    /// Seconds of reading time input stays ignored after the sound ends: the echo of the sound still
    /// in the engine's analysis window (up to ~0.2 s for the lowest strings) and the device's
    /// output latency.
    public static let defaultTail = 0.3

    public var tail: Double
    /// True while the sound plays.
    public var isOn = false
    private var until = -Double.infinity

    public init(tail: Double = InputMute.defaultTail) { self.tail = tail }

    /// Whether the reading made at `time` is to be ignored.
    public mutating func ignores(at time: Double) -> Bool {
        if isOn { until = time + tail }
        return time < until
    }
}
