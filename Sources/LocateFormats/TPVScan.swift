/// A fast reading of gpsd's most frequent report, the TPV, for the lines in the plain form gpsd
/// itself writes: `{"class":"TPV",...}` with `"key":value` members, no white space, no escapes,
/// numbers and short strings only. Such a line is read here in one pass; any other line (and any
/// TPV this reader is not sure of) is left to libgps's parser, so the two agree by construction:
/// what is read here is what libgps would have read (a differential test holds them side by side).
///
/// It finds the members, their kinds and where their values are; turning a number's text into a
/// `Double` is left to libgps's own `safe_atof` (in `LibGPS.swift`), so even the last bit agrees.
/// What libgps would refuse (a string where it wants a number, a device path longer than its
/// field, a `class` other than TPV) is never read here: it goes to libgps, which refuses it.
///
/// Modelled on libgps 3.22's reading of a TPV, which the tests hold it to (a member the scan does
/// not know is a number libgps ignores, or a string it leaves to libgps). One difference is
/// deliberate: under a comma-decimal C locale libgps's `strtod` stops at a time's
/// `.` and drops its fraction; the scan reads the time gpsd sent, whatever the locale.
package struct TPVScan {
    /// The numbers libgps keeps that a fix is made of, in the order of `TPVScan.realKeys`.
    package enum Real: Int, CaseIterable, Sendable {
        case latitude, longitude, altHAE, altMSL, eph, epv, speed, eps, track, epd, climb, epx, epy, ept, magvar, geoidSep

        /// gpsd's member.
        var key: GPSDReports.Key {
            switch self {
            case .latitude: .lat
            case .longitude: .lon
            case .altHAE: .altHAE
            case .altMSL: .altMSL
            case .eph: .eph
            case .epv: .epv
            case .speed: .speed
            case .eps: .eps
            case .track: .track
            case .epd: .epd
            case .climb: .climb
            case .epx: .epx
            case .epy: .epy
            case .ept: .ept
            case .magvar: .magvar
            case .geoidSep: .geoidSep
            }
        }
    }

    /// Where each number of `Real` is in the line.
    private var reals = InlineArray<16, Range<Int>>(repeating: 0..<0)

    /// Where the number of `real` is in the line (an empty range: absent).
    package func range(of real: Real) -> Range<Int> { reals[real.rawValue] }
    /// `mode` and `status` (libgps's defaults: 0 when absent).
    package private(set) var mode: Int32 = 0
    package private(set) var status: Int32 = 0
    /// `time`, as libgps's `iso8601_to_timespec` makes it; (0, 0) when absent.
    package private(set) var seconds = 0
    package private(set) var nanoseconds = 0
    /// The device path's bytes (empty when absent, as libgps leaves it).
    package private(set) var device: Range<Int> = 0..<0

    private static func bytes(_ key: GPSDReports.Key) -> [UInt8] { Array(key.rawValue.utf8) }
    private static let realKeys = Real.allCases.map { bytes($0.key) }
    private static let prefix = GPSDReports.start(.tpv)
    private static let classKey = bytes(.class)
    private static let tpv = Array(GPSDReports.Class.tpv.rawValue.utf8)
    private static let deviceKey = bytes(.device)
    private static let timeKey = bytes(.time)
    private static let datumKey = bytes(.datum)
    /// The members libgps reads as integers: `mode` and `status` first.
    private static let integerKeys = [GPSDReports.Key.mode, .status, .leapseconds, .dgpsSta].map(bytes)

    /// The longest value read here: longer ones go to libgps, whose limits (a device path of
    /// 127 bytes, a datum of 39, 512 bytes of any value) are then its own to apply.
    private static let longestValue = 39
    /// The longest key (libgps's limit too).
    private static let longestKey = 30

    /// Reads `line` (one message without its line end) when it is a TPV in gpsd's plain form;
    /// `nil` leaves it to libgps.
    package init?(_ line: borrowing Span<UInt8>) {
        let count = line.count
        guard count > Self.prefix.count + 1, line[count - 1] == UInt8(ascii: "}") else { return nil }
        for index in 0..<Self.prefix.count where line[index] != Self.prefix[index] { return nil }
        var index = Self.prefix.count
        // Each member: `,"key":value`, until the closing brace.
        while index < count - 1 {
            guard line[index] == UInt8(ascii: ","), index + 1 < count, line[index + 1] == UInt8(ascii: "\"") else { return nil }
            let keyStart = index + 2
            var keyEnd = keyStart
            while keyEnd < count, Self.isKeyByte(line[keyEnd]) { keyEnd += 1 }
            guard keyEnd > keyStart, keyEnd - keyStart <= Self.longestKey, keyEnd + 2 < count,
                line[keyEnd] == UInt8(ascii: "\""), line[keyEnd + 1] == UInt8(ascii: ":")
            else { return nil }
            let valueStart = keyEnd + 2
            let key = keyStart..<keyEnd
            if line[valueStart] == UInt8(ascii: "\"") {
                var valueEnd = valueStart + 1
                while valueEnd < count, line[valueEnd] != UInt8(ascii: "\"") {
                    let byte = line[valueEnd]
                    guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
                    valueEnd += 1
                }
                guard valueEnd < count, valueEnd - valueStart - 1 <= Self.longestValue else { return nil }
                guard take(string: valueStart + 1..<valueEnd, key: key, in: line) else { return nil }
                index = valueEnd + 1
            } else {
                guard let valueEnd = Self.numberEnd(from: valueStart, in: line), valueEnd - valueStart <= Self.longestValue,
                    take(number: valueStart..<valueEnd, key: key, in: line)
                else { return nil }
                index = valueEnd
            }
        }
        guard index == count - 1 else { return nil }
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The end of a JSON number (`-?digits(.digits)?([eE][+-]?digits)?`) that starts at
    /// `start` and is followed by `,` or `}`; `nil` when there is none.
    private static func numberEnd(from start: Int, in line: borrowing Span<UInt8>) -> Int? {
        var index = start
        if line[index] == UInt8(ascii: "-") { index += 1 }
        guard let integerEnd = digitsEnd(from: index, in: line) else { return nil }
        index = integerEnd
        if index < line.count, line[index] == UInt8(ascii: ".") {
            guard let fractionEnd = digitsEnd(from: index + 1, in: line) else { return nil }
            index = fractionEnd
        }
        if index < line.count, line[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < line.count, line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "-") { index += 1 }
            guard let exponentEnd = digitsEnd(from: index, in: line) else { return nil }
            index = exponentEnd
        }
        guard index < line.count, line[index] == UInt8(ascii: ",") || line[index] == UInt8(ascii: "}") else { return nil }
        return index
    }

    /// The end of the digits from `start`; `nil` when there is not one.
    private static func digitsEnd(from start: Int, in line: borrowing Span<UInt8>) -> Int? {
        var index = start
        while index < line.count, isDigit(line[index]) { index += 1 }
        return index > start ? index : nil
    }

    private static func matches(_ key: Range<Int>, _ name: [UInt8], in line: borrowing Span<UInt8>) -> Bool {
        guard key.count == name.count else { return false }
        for offset in 0..<name.count where line[key.lowerBound + offset] != name[offset] { return false }
        return true
    }

    /// Takes a string member: `device`, `time`, `class` (TPV only) or `datum`; any other key
    /// with a string value is left to libgps (a number's key would make it refuse the line).
    private mutating func take(string value: Range<Int>, key: Range<Int>, in line: borrowing Span<UInt8>) -> Bool {
        if Self.matches(key, Self.deviceKey, in: line) {
            device = value
            return true
        }
        if Self.matches(key, Self.timeKey, in: line) {
            guard let time = Self.time(value, in: line) else { return false }
            (seconds, nanoseconds) = time
            return true
        }
        if Self.matches(key, Self.classKey, in: line) { return Self.matches(value, Self.tpv, in: line) }
        return Self.matches(key, Self.datumKey, in: line)
    }

    /// Takes a number member: one of `Real`, `mode` or `status`, or any other key of a number,
    /// which libgps reads as a number or ignores.
    private mutating func take(number value: Range<Int>, key: Range<Int>, in line: borrowing Span<UInt8>) -> Bool {
        for slot in 0..<Self.realKeys.count where Self.matches(key, Self.realKeys[slot], in: line) {
            reals[slot] = value
            return true
        }
        for slot in 0..<Self.integerKeys.count where Self.matches(key, Self.integerKeys[slot], in: line) {
            // libgps reads these with atoi: a plain integer here, anything else is its to read.
            guard let integer = Self.integer(value, in: line) else { return false }
            if slot == 0 { mode = integer } else if slot == 1 { status = integer }
            return true
        }
        // "class", "device", "time" and "datum" take strings: a number there is libgps's to refuse.
        return !Self.matches(key, Self.classKey, in: line) && !Self.matches(key, Self.deviceKey, in: line)
            && !Self.matches(key, Self.timeKey, in: line) && !Self.matches(key, Self.datumKey, in: line)
    }

    /// A plain integer of at most 9 digits, with its sign.
    private static func integer(_ range: Range<Int>, in line: borrowing Span<UInt8>) -> Int32? {
        var index = range.lowerBound
        let negative = line[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard range.upperBound - index <= 9 else { return nil }
        var value: Int32 = 0
        while index < range.upperBound {
            guard isDigit(line[index]) else { return nil }
            value = value * 10 + Int32(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        return negative ? -value : value
    }

    /// gpsd's `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, read as libgps's `iso8601_to_timespec` reads it
    /// (strptime's fields into gpsd's `mkgmtime`, the fraction through `strtod` and truncated to
    /// nanoseconds); `nil` for any other text, which goes to libgps.
    private static func time(_ range: Range<Int>, in line: borrowing Span<UInt8>) -> (Int, Int)? {
        let start = range.lowerBound
        guard range.count >= 20, line[range.upperBound - 1] == UInt8(ascii: "Z"), line[start + 4] == UInt8(ascii: "-"),
            line[start + 7] == UInt8(ascii: "-"), line[start + 10] == UInt8(ascii: "T"), line[start + 13] == UInt8(ascii: ":"),
            line[start + 16] == UInt8(ascii: ":"), let year = number(start..<start + 4, in: line),
            let month = number(start + 5..<start + 7, in: line), let day = number(start + 8..<start + 10, in: line),
            let hour = number(start + 11..<start + 13, in: line), let minute = number(start + 14..<start + 16, in: line),
            let second = number(start + 17..<start + 19, in: line), year >= 1970, (1...12).contains(month),
            (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var nanoseconds = 0
        if range.count > 20 {
            // ".fff...Z": strtod's value of ".fff..." times 1e9, truncated. Up to 15 digits, the
            // digits as an integer over a power of ten is exact until the one rounding of the
            // division, so it is strtod's correctly rounded value; more go to libgps.
            let digits = start + 20..<range.upperBound - 1
            guard line[start + 19] == UInt8(ascii: "."), (1...15).contains(digits.count), let fraction = number(digits, in: line)
            else { return nil }
            nanoseconds = Int(Double(fraction) / powersOfTen[digits.count] * 1e9)
        }
        return (mkgmtime(year: year, month: month - 1, day: day, hour: hour, minute: minute, second: second), nanoseconds)
    }

    private static let powersOfTen: [Double] = (0...15).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    /// The digits in `range` as a number; `nil` when a byte is not a digit.
    private static func number(_ range: Range<Int>, in line: borrowing Span<UInt8>) -> Int? {
        var value = 0
        for index in range {
            guard isDigit(line[index]) else { return nil }
            value = value * 10 + Int(line[index] - UInt8(ascii: "0"))
        }
        return value
    }

    /// gpsd's `mkgmtime` (libgps/gpsutils.c), for a month of 0...11.
    private static func mkgmtime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        let cumulativeDays = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        var result = (year - 1970) * 365 + cumulativeDays[month]
        result += (year - 1968) / 4
        result -= (year - 1900) / 100
        result += (year - 1600) / 400
        if year % 4 == 0, year % 100 != 0 || year % 400 == 0, month < 2 { result -= 1 }
        result += day - 1
        return ((result * 24 + hour) * 60 + minute) * 60 + second
    }
}
