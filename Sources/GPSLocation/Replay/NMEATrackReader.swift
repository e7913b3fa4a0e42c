/// An NMEA 0183 log as a track: RMC and GGA sentences (any talker: GP, GN, GL ...) of one epoch
/// (the same time of day) make one fix; RMC gives the date, speed and course, GGA the altitude,
/// satellites and HDOP; when the two disagree on the position (some receivers' do), the first
/// of the epoch stands, as gpsd reports it. A sentence whose checksum is wrong, that is cut short, or that says
/// there is no fix (RMC status V, GGA quality 0) is skipped, as gpsd skips it; other sentences
/// are ignored. Fixes before the first RMC date have no time.
///
/// The log is read in place: fields are ranges of the file's bytes, numbers are read from their
/// digits (exactly as `strtod` reads them), so a long log costs little more than its fixes.
enum NMEATrackReader {
    /// One epoch being gathered; texts are ranges of the file's bytes.
    private struct Epoch {
        let timeOfDay: Range<Int>
        var latitude: Double?
        var longitude: Double?
        var date: Range<Int>?
        var hasFix = true
        var speed: Double?
        var course: Double?
        var altitude: Double?
        var geoidSeparation: Double?
        var satellites: Int?
        var hdop: Double?
    }

    static func locations(in bytes: [UInt8]) throws(TrackProblem) -> [Location] {
        var locations: [Location] = []
        // As many fixes as RMC or GGA sentences, at most: room for them at once, so a long log
        // never holds a grown array and its copy at the same time.
        locations.reserveCapacity(fixSentenceCount(in: bytes))
        var epoch: Epoch?
        var lastDate: Range<Int>?
        var fields: [Range<Int>] = []
        func text(_ range: Range<Int>) -> Substring { Substring(decoding: bytes[range], as: UTF8.self) }
        func finish(_ epoch: Epoch?) {
            guard let epoch, epoch.hasFix, let latitude = epoch.latitude, let longitude = epoch.longitude else { return }
            if let date = epoch.date { lastDate = date }
            let time = lastDate.flatMap { UTCTimestamp.nmea(date: text($0), time: text(epoch.timeOfDay)) }
            locations.append(
                Location(
                    latitude: latitude, longitude: longitude, time: time, altitudeMSL: epoch.altitude,
                    altitudeHAE: epoch.altitude.flatMap { altitude in epoch.geoidSeparation.map { altitude + $0 } },
                    horizontalAccuracy: epoch.hdop, speed: epoch.speed, course: epoch.course,
                    hdop: epoch.hdop, mode: epoch.altitude == nil ? .twoDimensional : .threeDimensional,
                    satellitesUsed: epoch.satellites, source: .replay))
        }
        func number(_ index: Int, in range: ClosedRange<Double>) -> Double? {
            decimal(bytes, fields[index]).flatMap { range.contains($0) ? $0 : nil }
        }
        func coordinate(_ index: Int, degreeDigits: Int) -> Double? {
            let field = fields[index]
            guard field.count > degreeDigits + 1, let degrees = decimal(bytes, field.lowerBound..<(field.lowerBound + degreeDigits)),
                let minutes = decimal(bytes, (field.lowerBound + degreeDigits)..<field.upperBound), minutes < 60
            else { return nil }
            let value = degrees + minutes / 60
            guard value <= (degreeDigits == 2 ? 90 : 180), fields[index + 1].count == 1 else { return nil }
            switch bytes[fields[index + 1].lowerBound] {
            case UInt8(ascii: "N"), UInt8(ascii: "E"): return value
            case UInt8(ascii: "S"), UInt8(ascii: "W"): return -value
            default: return nil
            }
        }
        forEachLine(of: bytes) { _, line in
            guard sentenceFields(bytes, line, into: &fields), fields.count >= 7, fields[0].count >= 5 else { return true }
            let kind = bytes[(fields[0].upperBound - 3)..<fields[0].upperBound]
            let isRMC = kind.elementsEqual("RMC".utf8)
            guard isRMC || kind.elementsEqual("GGA".utf8), fields[1].count >= 6 else { return true }
            if let current = epoch, !bytes[current.timeOfDay].elementsEqual(bytes[fields[1]]) {
                finish(current)
                epoch = nil
            }
            var current = epoch ?? Epoch(timeOfDay: fields[1])
            if isRMC {
                guard fields.count >= 10 else { return true }
                current.hasFix = current.hasFix && fields[2].count == 1 && bytes[fields[2].lowerBound] == UInt8(ascii: "A")
                current.latitude = current.latitude ?? coordinate(3, degreeDigits: 2)
                current.longitude = current.longitude ?? coordinate(5, degreeDigits: 3)
                current.speed = number(7, in: 0...10_000).map { $0 * 1852 / 3600 }
                current.course = number(8, in: 0...360)
                if fields[9].count == 6 { current.date = fields[9] }
            } else {
                guard fields.count >= 12 else { return true }
                current.hasFix = current.hasFix && number(6, in: 1...9) != nil
                current.latitude = current.latitude ?? coordinate(2, degreeDigits: 2)
                current.longitude = current.longitude ?? coordinate(4, degreeDigits: 3)
                current.satellites = number(7, in: 0...99).map { Int($0) }
                current.hdop = number(8, in: 0...99.99)
                current.altitude = number(9, in: -10_000...100_000)
                current.geoidSeparation = number(11, in: -1000...1000)
            }
            if current.latitude == nil || current.longitude == nil { current.hasFix = false }
            epoch = current
            return true
        }
        finish(epoch)
        return locations
    }

    /// The most fixes `bytes` can hold: its RMC sentences, or its GGA ones when it has more (`$`,
    /// a two-letter talker, the type and a comma at the start of a line), counted in one pass.
    private static func fixSentenceCount(in bytes: [UInt8]) -> Int {
        var rmc = 0
        var gga = 0
        forEachLine(of: bytes) { _, line in
            let start = line.lowerBound
            guard line.count > 7, bytes[start] == UInt8(ascii: "$"), bytes[start + 6] == UInt8(ascii: ",") else { return true }
            let kind = bytes[(start + 3)..<(start + 6)]
            if kind.elementsEqual("RMC".utf8) { rmc += 1 } else if kind.elementsEqual("GGA".utf8) { gga += 1 }
            return true
        }
        return max(rmc, gga)
    }

    /// The comma-separated fields of the sentence in `line` (`$` or `!` to `*`), into `fields`;
    /// `false` when there is none, or its checksum is wrong.
    private static func sentenceFields(_ bytes: [UInt8], _ line: Range<Int>, into fields: inout [Range<Int>]) -> Bool {
        guard let start = bytes[line].firstIndex(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") }) else { return false }
        var end = line.upperBound
        if let star = bytes[(start + 1)..<line.upperBound].lastIndex(of: UInt8(ascii: "*")) {
            guard star + 3 <= line.upperBound, let high = hexDigit(bytes[star + 1]), let low = hexDigit(bytes[star + 2]) else {
                return false
            }
            var sum: UInt8 = 0
            for byte in bytes[(start + 1)..<star] { sum ^= byte }
            guard sum == high << 4 | low else { return false }
            end = star
        }
        fields.removeAll(keepingCapacity: true)
        var fieldStart = start + 1
        for index in (start + 1)..<end where bytes[index] == UInt8(ascii: ",") {
            fields.append(fieldStart..<index)
            fieldStart = index + 1
        }
        fields.append(fieldStart..<end)
        return true
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Powers of ten a double holds exactly.
    private static let powersOfTen: [Double] = (0...15).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

    /// A plain decimal (`-`, digits, one `.`) of at most 15 digits, or `nil` (an empty field is an
    /// unknown value). The digits as an integer divided by a power of ten: both exact, so the
    /// quotient is the correctly rounded value, as `strtod` gives.
    static func decimal(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
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
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if sawPoint { fractionDigits += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }
}
