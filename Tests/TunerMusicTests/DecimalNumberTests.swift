import Testing
import TunerMusic

@Suite struct DecimalNumberTests {
    @Test(arguments: [("442", 442.0), ("-1.5", -1.5), ("+3", 3.0), (".5", 0.5), ("5.", 5.0), ("4.4e2", 440.0),
                      ("1E-1", 0.1), ("0", 0.0)])
    func acceptsWhatAMusicianWrites(_ text: String, _ value: Double) {
        #expect(DecimalNumber.parse(text) == value)
    }

    /// Each of these is a Double to Swift (or a near miss of a number): hexadecimal, NaN, infinity,
    /// a bare sign, point or exponent, spaces, units.
    @Test(arguments: ["0x1b8", "0x1p3", "nan", "NaN", "inf", "-infinity", "", "+", ".", "e5", "1e", "1e+",
                      " 440", "440 ", "440Hz", "4 40", "--1", "1e400"])
    func refusesWhatNobodyMeans(_ text: String) {
        #expect(DecimalNumber.parse(text) == nil)
    }
}
