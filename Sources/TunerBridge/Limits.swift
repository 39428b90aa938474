/// Every range the tuner accepts, stated once: parsing, clamps, error messages and help lines read
/// them from here. The engine's own ranges are here; the musical ones (A4, tolerance, octaves) are
/// added in TunerMusic (`Limits+Music.swift`), so that `Limits.` names them all.
public enum Limits {
    /// Sample rates the engine accepts, in Hz (`ct_config.sample_rate`; `ct_engine_create` refuses others).
    public static let sampleRate = 8_000...192_000
    /// The fundamentals searched, in Hz (`ct_config.min_frequency`/`max_frequency`): 29 Hz is under
    /// B0 (30.87 Hz, a five-string bass), 4200 Hz over C8 (4186 Hz, a piano's top key).
    public static let frequency = 29.0...4200.0
}
