/// Numbers and durations read from text: the command line, the settings files and `locate`'s
/// other inputs all go through this one strict conversion and its one range check.
///
/// Only plain decimals are numbers: an optional `-`, digits with an optional fraction, and an
/// optional exponent (`1`, `0.5`, `.5`, `2e3`). Hexadecimal (`0x10`), `nan`, `inf`, spaces,
/// digit groups and decimal commas are not, whatever the locale says. Seconds become a
/// `Duration` in whole milliseconds, rounded once, half away from zero.
package enum NumericText {
    /// The longest duration (10⁹ seconds, about 31.7 years), and in seconds the largest value
    /// of any number: anything larger is an error.
    package static let maximumDuration = Duration.seconds(1_000_000_000)

    /// The number `text` says, if it is in `range` (by default 0 to 10⁹, the seconds of
    /// `maximumDuration`), and not 0 when `excludingZero`.
    /// - Throws: `NumberError` saying what is wrong and what was expected.
    package static func number(
        _ text: String, in range: ClosedRange<Double> = 0...1e9, excludingZero: Bool = false
    ) throws(NumberError) -> Double {
        // The words are made only for an error: a batch reads millions of numbers.
        func expected() -> String {
            if range.lowerBound == 0 { return excludingZero ? "a number above 0" : "a number of 0 or more" }
            return "a number from \(NumberFormatting.plain(range.lowerBound)) to \(NumberFormatting.plain(range.upperBound))"
        }
        guard isPlainDecimal(text), let value = Double(text) else {
            throw NumberError(text: text, problem: .notANumber, expected: expected())
        }
        if value > range.upperBound, range.lowerBound == 0 {
            throw NumberError(text: text, problem: .outOfRange, expected: "a number up to \(NumberFormatting.plain(range.upperBound))")
        }
        guard range.contains(value), !(excludingZero && value == 0) else {
            throw NumberError(text: text, problem: .outOfRange, expected: expected())
        }
        return value
    }

    /// The duration `text` says in seconds, to the millisecond; a value that is not 0 but rounds
    /// to 0 ms is an error, not a zero.
    /// - Throws: `NumberError` saying what is wrong and what was expected.
    package static func seconds(_ text: String, allowingZero: Bool) throws(NumberError) -> Duration {
        let value = try number(text, excludingZero: !allowingZero)
        let milliseconds = (value * 1000).rounded()
        if value > 0, milliseconds == 0 {
            throw NumberError(
                text: text, problem: .belowResolution,
                expected: (allowingZero ? "0 or " : "") + "a number of seconds of at least 0.001")
        }
        return .milliseconds(Int64(milliseconds))
    }

    /// Whether `text` is a plain decimal number (whatever its range).
    package static func isNumber(_ text: String) -> Bool { isPlainDecimal(text) }

    /// Digits with an optional sign, fraction and exponent, and nothing else.
    private static func isPlainDecimal(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

}

/// A number given as text that cannot be used where it was given.
package struct NumberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the number.
    package enum Problem: Sendable, Hashable {
        /// The text is not a plain decimal number.
        case notANumber
        /// The number is outside the accepted range (or 0 where it must be above 0).
        case outOfRange
        /// A duration above 0 that is shorter than a millisecond, which would become 0.
        case belowResolution
    }

    /// The text as given.
    package var text: String
    /// What is wrong with it.
    package var problem: Problem
    /// What would have been accepted, as a phrase such as `a number above 0`.
    package var expected: String

    /// Creates an error.
    package init(text: String, problem: Problem, expected: String) {
        self.text = text
        self.problem = problem
        self.expected = expected
    }

    /// `'TEXT' is not EXPECTED`, for a person.
    package var description: String { "'\(text)' is not \(expected)" }
}
