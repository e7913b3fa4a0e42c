/// Plain decimals as NMEA writes them, read from their digits.
package enum NMEADecimal {
    /// Powers of ten a double holds exactly.
    private static let powersOfTen: [Double] = (0...15).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

    /// A plain decimal (`-`, digits, one `.`) of at most 15 digits, or `nil`. The digits as an
    /// integer divided by a power of ten: both exact, so the quotient is the correctly rounded
    /// value, as `strtod` gives.
    package static func value(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        value(bytes[range])
    }

    /// ``value(_:_:)`` of the bytes of `text`.
    package static func value(_ text: ArraySlice<UInt8>) -> Double? {
        value(text, less: 0)
    }

    /// ``value(_:)`` less `offset`, subtracted in the decimal's own digits, so that the quotient
    /// is still the correctly rounded value while the difference's digits fit a double's 53 bits
    /// (`346.8` less 360 is the double nearest -13.2, which `346.8 - 360` is not).
    package static func value(_ text: ArraySlice<UInt8>, less offset: Int) -> Double? {
        let bytes = text
        let range = text.indices
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawPoint = false
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                if sawPoint { fractionDigits += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if offset == 0 {
            // Kept apart so that `-0` is still negative zero.
            let value = Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        let (scaled, overflow) = Int64(offset).multipliedReportingOverflow(by: Int64(powersOfTen[fractionDigits]))
        guard !overflow else { return nil }
        return Double((negative ? -mantissa : mantissa) - scaled) / powersOfTen[fractionDigits]
    }
}
