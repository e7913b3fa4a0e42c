import FoundationEssentials
import GPSLocation

/// ISO 8601 text for instants, in UTC with milliseconds: `2026-01-01T08:00:05.000Z`.
/// Computed from the Unix time directly (days-from-civil), independent of locale and time zone.
enum UTCTimestamp {
    /// The text for `date`, or `nil` when it is not finite or outside the years 0000 to 9999,
    /// which ISO 8601's four-digit years cannot write.
    static func iso8601(_ date: Date) -> String? {
        var bytes: [UInt8] = []
        guard append(date, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601(date)` to `bytes`; `false`, appending nothing, when it has no text.
    static func append(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        let unixTime = date.timeIntervalSince1970
        guard unixTime.isFinite, (-62_167_219_200...253_402_300_799).contains(unixTime) else { return false }
        let totalMilliseconds = Int64((unixTime * 1000).rounded(.down))
        let (days, dayMilliseconds) = floorDivide(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let seconds = dayMilliseconds / 1000
        func part(_ value: Int64, _ width: Int, _ separator: Unicode.Scalar) {
            NumberFormatting.appendDigits(UInt64(value), width: width, to: &bytes)
            bytes.append(UInt8(ascii: separator))
        }
        part(year, 4, "-")
        part(month, 2, "-")
        part(day, 2, "T")
        part(seconds / 3600, 2, ":")
        part(seconds / 60 % 60, 2, ":")
        part(seconds % 60, 2, ".")
        part(dayMilliseconds % 1000, 3, "Z")
        return true
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day count.
    private static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
