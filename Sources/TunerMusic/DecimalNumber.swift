/// A number as a musician writes it: decimal digits with an optional sign, point and exponent
/// ("442", "-1.5", "+3", ".5", "4.4e2"). Swift's `Double(_:)` also takes hexadecimal ("0x1b8" = 440),
/// "nan" and "inf", which nobody means in a tuning or a flag: they are refused here, in one place,
/// for the flags, the config file and Scala files alike.
public enum DecimalNumber {
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        var digits = 0
        var index = text.startIndex
        func skipDigits() {
            while index < text.endIndex, text[index].isASCII, text[index].isNumber {
                digits += 1
                index = text.index(after: index)
            }
        }
        if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
        skipDigits()
        if index < text.endIndex, text[index] == "." {
            index = text.index(after: index)
            skipDigits()
        }
        guard digits > 0 else { return nil }
        if index < text.endIndex, text[index] == "e" || text[index] == "E" {
            index = text.index(after: index)
            if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
            let before = digits
            skipDigits()
            guard digits > before else { return nil }
        }
        guard index == text.endIndex, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }
}
