package import FoundationEssentials

/// ISO 8601 text for instants, in UTC with milliseconds (`2026-01-01T08:00:05.000Z`), and back
/// (records, GPX and NMEA times). Computed from the Unix time directly (days-from-civil),
/// independent of locale and time zone.
package enum UTCTimestamp {
    /// The text for `date`, or `nil` when it is not finite or outside the years 0000 to 9999,
    /// which ISO 8601's four-digit years cannot write.
    package static func iso8601(_ date: Date) -> String? {
        var bytes: [UInt8] = []
        guard append(date, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601(date)` to `bytes`; `false`, appending nothing, when it has no text.
    package static func append(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        let unixTime = date.timeIntervalSince1970
        guard unixTime.isFinite, (-62_167_219_200...253_402_300_799).contains(unixTime) else { return false }
        // Truncated to the millisecond; but a time read from text (a whole millisecond) is held
        // a little below it as often as above, so one within a microsecond of a millisecond (or,
        // far from 2001, within a few units in the last place of the date's value) is that
        // millisecond, not the one before.
        let scaled = unixTime * 1000
        let nearest = scaled.rounded()
        let tolerance = max(0.001, 4000 * date.timeIntervalSinceReferenceDate.ulp)
        let totalMilliseconds = Int64(abs(scaled - nearest) <= tolerance ? nearest : scaled.rounded(.down))
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

    /// The instant an ISO 8601 date and time gives, `YYYY-MM-DDTHH:MM:SS`, with any fraction of
    /// a second, and `Z` or an offset `±HH:MM` (GPX writes both); `nil` for anything else,
    /// including a time without a zone (whose instant is unknown) and out-of-range fields.
    package static func parse(_ text: some StringProtocol) -> Date? {
        parse(utf8: Array(text.utf8)[...])
    }

    /// ``parse(_:)`` of UTF-8 bytes, without making a string of them.
    package static func parse(utf8 text: ArraySlice<UInt8>) -> Date? {
        let count = text.count
        guard count >= 20, count <= 40 else { return nil }
        let base = text.startIndex
        func byte(_ index: Int) -> UInt8 { text[base + index] }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = byte(index)
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func isByte(_ index: Int, _ scalar: Unicode.Scalar) -> Bool { byte(index) == UInt8(ascii: scalar) }
        guard isByte(4, "-"), isByte(7, "-"), isByte(10, "T") || isByte(10, "t"), isByte(13, ":"), isByte(16, ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if isByte(index, ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < count, let digit = number(index..<(index + 1)) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index < count else { return nil }
        }
        var offset: Int64 = 0
        if isByte(index, "Z") || isByte(index, "z") {
            index += 1
        } else if isByte(index, "+") || isByte(index, "-"), index + 6 == count, isByte(index + 3, ":"),
            let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6)), hours < 24, minutes < 60
        {
            offset = (hours * 60 + minutes) * 60 * (isByte(index, "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == count else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The instant of an NMEA date (`DDMMYY`, RMC's, years 1980 to 2079) and time of day
    /// (`HHMMSS` with any fraction), in UTC; `nil` when either is not one.
    package static func nmea(date: some StringProtocol, time: some StringProtocol) -> Date? {
        let dateBytes = Array(date.utf8)
        let timeBytes = Array(time.utf8)
        guard dateBytes.count == 6, timeBytes.count >= 6, timeBytes.count <= 12,
            dateBytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        let digits = dateBytes.map { Int64($0 - UInt8(ascii: "0")) }
        let day = digits[0] * 10 + digits[1]
        let month = digits[2] * 10 + digits[3]
        let shortYear = digits[4] * 10 + digits[5]
        let year = shortYear < 80 ? 2000 + shortYear : 1900 + shortYear
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            let seconds = secondsOfDay(nmea: time)
        else { return nil }
        return Date(timeIntervalSince1970: Double(daysSinceEpoch(year: year, month: month, day: day) * 86_400) + seconds)
    }

    /// The seconds since midnight of an NMEA time of day, `HHMMSS` with any fraction.
    package static func secondsOfDay(nmea time: some StringProtocol) -> Double? {
        let bytes = Array(time.utf8)
        guard bytes.count >= 6, bytes.count <= 12,
            bytes[0..<6].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        let digits = bytes[0..<6].map { Double($0 - UInt8(ascii: "0")) }
        let (hours, minutes, seconds) = (digits[0] * 10 + digits[1], digits[2] * 10 + digits[3], digits[4] * 10 + digits[5])
        guard hours < 24, minutes < 60, seconds < 61 else { return nil }
        var fraction = 0.0
        if bytes.count > 6 {
            guard bytes[6] == UInt8(ascii: "."), bytes.count > 7, let value = Double("0" + String(decoding: bytes[6...], as: UTF8.self))
            else { return nil }
            fraction = value
        }
        return hours * 3600 + minutes * 60 + seconds + fraction
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's `days_from_civil`: the day count of a proleptic Gregorian date.
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The UTC calendar date of `date` and its seconds since midnight (NMEA's date and time
    /// fields), or `nil` outside the years 0000 to 9999.
    package static func civil(_ date: Date) -> (year: Int, month: Int, day: Int, secondOfDay: Double)? {
        let unixTime = date.timeIntervalSince1970
        guard unixTime.isFinite, (-62_167_219_200...253_402_300_799).contains(unixTime) else { return nil }
        let days = Int64((unixTime / 86_400).rounded(.down))
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return (Int(year), Int(month), Int(day), unixTime - Double(days) * 86_400)
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
