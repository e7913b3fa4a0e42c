/// Locale-independent, exponent-free decimal text for numbers: always `.` as the separator,
/// whatever `LANG` or `LC_NUMERIC` say, because nothing here goes through the C locale.
/// Shared with the command (`package`), which writes every record's numbers with it.
package enum NumberFormatting {
    private static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `value` rounded half away from zero to `decimals` places (0...9), such as `64.1504321`.
    /// Non-finite values have no text and give `nil`.
    package static func fixed(_ value: Double, decimals: Int) -> String? {
        guard value.isFinite else { return nil }
        let scale = powersOfTen[decimals]
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 9e18 else { return nil }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        let whole = String(units / divisor)
        guard decimals > 0 else { return sign + whole }
        let fraction = String(units % divisor)
        return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
