/// Where samples come from: an audio file, an ALSA capture device, the built-in demo.
///
/// A source is driven by one thread only, the analysis thread of a `TunerSession`: it is created on
/// any thread, then handed over and never touched by its creator again.
public protocol AudioSource: AnyObject {
    /// Samples per second of what `read` delivers.
    var sampleRate: Double { get }
    /// A short human description for status lines, e.g. "file a2.wav, 44100 Hz".
    var label: String { get }
    /// Fills `buffer` with up to `buffer.count` mono samples and returns how many it wrote.
    /// Returns 0 at the end of the input; blocks until samples are there for live input.
    /// Must not allocate for a live device. Throws when the input fails (e.g. a device vanished).
    func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
}
