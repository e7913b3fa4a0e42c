/// Locale-independent, exponent-free decimal text for numbers: always `.` as the separator,
/// whatever `LANG` or `LC_NUMERIC` say, because nothing here goes through the C locale.
/// Shared with the command (`package`), which writes every record's numbers with it.
package enum NumberFormatting {
    private static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `value` rounded half away from zero to `decimals` places (0...9), such as `64.1504321`.
    /// Non-finite values (and those beyond 9e18) have no text and give `nil`.
    package static func fixed(_ value: Double, decimals: Int) -> String? {
        var bytes: [UInt8] = []
        guard append(value, decimals: decimals, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` as a person reads it in a message: as many decimals as it needs (up to 6), none
    /// for a whole number (`17.2`, `0.25`, `30`, `-90`). The one way numbers become text in
    /// messages, so a user never sees `1 s` in one and `1.0 s` in another.
    package static func plain(_ value: Double) -> String {
        guard var text = fixed(value, decimals: 6) else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Appends `fixed(value, decimals:)` to `bytes`, with no intermediate string.
    /// - Returns: `false` (appending nothing) when the value has no text.
    package static func append(_ value: Double, decimals: Int, to bytes: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        let scale = powersOfTen[decimals]
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 9e18 else { return false }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        if value < 0, units != 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(units / divisor, width: 1, to: &bytes)
        guard decimals > 0 else { return true }
        bytes.append(UInt8(ascii: "."))
        appendDigits(units % divisor, width: decimals, to: &bytes)
        return true
    }

    /// Appends `value` in decimal, with leading zeros up to `width` digits (at most 20).
    /// (The digits are made from the right into a buffer on the stack, by division by the
    /// constant 10 only, then appended in order: the hot path of every record.)
    package static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var digits = InlineArray<20, UInt8>(repeating: UInt8(ascii: "0"))
        var count = 0
        var rest = value
        repeat {
            digits[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            count += 1
        } while rest > 0
        count = min(max(count, width), 20)
        while count > 0 {
            count -= 1
            bytes.append(digits[count])
        }
    }
}
