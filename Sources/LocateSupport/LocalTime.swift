import Glibc

/// The local time zone's calendar (`TZ`, else /etc/localtime), as people name days: a day's
/// date for an instant, and the instant a local date and time names.
package enum LocalTime {
    /// `YYYY-MM-DD` of the local day `seconds` (Unix) falls in; `nil` past what the system knows.
    package static func date(of seconds: Double) -> String? {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        var time = time_t(seconds.rounded(.down))
        var fields = tm()
        guard localtime_r(&time, &fields) != nil else { return nil }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(fields.tm_year + 1900)-\(two(fields.tm_mon + 1))-\(two(fields.tm_mday))"
    }

    /// The Unix seconds of a local date and time (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM` or
    /// `YYYY-MM-DDTHH:MM:SS`, the `T` or a space); `nil` for anything else or a time that does not exist.
    package static func seconds(parsing text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard [10, 16, 19].contains(bytes.count) else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var fields = tm()
        (fields.tm_year, fields.tm_mon, fields.tm_mday, fields.tm_isdst) = (year - 1900, month - 1, day, -1)
        if bytes.count > 10 {
            guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
                let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60
            else { return nil }
            (fields.tm_hour, fields.tm_min) = (hour, minute)
            if bytes.count == 19 {
                guard bytes[16] == UInt8(ascii: ":"), let second = number(17..<19), second < 60 else { return nil }
                fields.tm_sec = second
            }
        }
        let wanted = (fields.tm_year, fields.tm_mon, fields.tm_mday)
        let seconds = mktime(&fields)
        // mktime carries an impossible date (February 30) over into the next month: not a date.
        guard seconds != -1 || wanted.0 == 69, (fields.tm_year, fields.tm_mon, fields.tm_mday) == wanted else { return nil }
        return Double(seconds)
    }
}
