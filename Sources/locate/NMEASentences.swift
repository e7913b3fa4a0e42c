import FoundationEssentials
import GPSLocation
import LocateSupport

/// NMEA 0183 sentences made from a released location (GGA, RMC and GSA, checksummed, CR LF), for
/// `locate serve`'s clients that watch NMEA (`gpspipe -r`). Nothing is passed through from the
/// receiver: a sentence says only what the gate released (under reduced accuracy, the grid
/// cell, without altitude, speed, course, dilution or the number of satellites).
enum NMEASentences {
    /// The three sentences of one fix; none for a location without a fix mode or time.
    static func sentences(for location: Location) -> [UInt8] {
        guard let mode = location.mode, let time = location.time, let (year, month, day, secondOfDay) = UTCTimestamp.civil(time) else {
            return []
        }
        let clock =
            digits(Int(secondOfDay) / 3600, 2) + digits(Int(secondOfDay) / 60 % 60, 2)
            + (NumberFormatting.fixed(secondOfDay.truncatingRemainder(dividingBy: 60) + 100, decimals: 2).map { String($0.dropFirst()) }
                ?? "00.00")
        let latitude = angle(abs(location.latitude), degreeDigits: 2) + (location.latitude < 0 ? ",S" : ",N")
        let longitude = angle(abs(location.longitude), degreeDigits: 3) + (location.longitude < 0 ? ",W" : ",E")
        let precise = location.accuracy == .fullAccuracy
        let hdop = precise ? location.hdop.flatMap { NumberFormatting.fixed($0, decimals: 1) } ?? "" : ""
        let altitude = precise ? location.altitudeMSL.flatMap { NumberFormatting.fixed($0, decimals: 1) } : nil
        let used = precise ? location.satellitesUsed.map { digits(min($0, 99), 2) } ?? "" : ""
        let knots = precise ? location.speed.flatMap { NumberFormatting.fixed($0 * 3600 / 1852, decimals: 3) } ?? "" : ""
        let course = precise ? location.course.flatMap { NumberFormatting.fixed($0, decimals: 1) } ?? "" : ""
        let gga = "GPGGA,\(clock),\(latitude),\(longitude),1,\(used),\(hdop),\(altitude ?? ""),M,,M,,"
        let rmc =
            "GPRMC,\(clock),A,\(latitude),\(longitude),\(knots),\(course),\(digits(day, 2))\(digits(month, 2))\(digits(year % 100, 2)),,,A"
        let gsa = "GPGSA,A,\(mode == .threeDimensional ? 3 : 2),,,,,,,,,,,,,,\(hdop),"
        return [gga, rmc, gsa].flatMap(sentence)
    }

    /// `$BODY*CS\r\n`, the checksum the XOR of the body's bytes.
    static func sentence(_ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        let checksum = bytes.reduce(UInt8(0), ^)
        let hex = Array("0123456789ABCDEF".utf8)
        return [UInt8(ascii: "$")] + bytes + [UInt8(ascii: "*"), hex[Int(checksum >> 4)], hex[Int(checksum & 15)], 0x0D, 0x0A]
    }

    /// Degrees as NMEA writes them: whole degrees (`degreeDigits` wide) and minutes to 4 decimals.
    private static func angle(_ value: Double, degreeDigits: Int) -> String {
        var degrees = Int(value.rounded(.down))
        var minutes = ((value - Double(degrees)) * 60 * 10_000).rounded() / 10_000
        if minutes >= 60 {
            degrees += 1
            minutes -= 60
        }
        let text = NumberFormatting.fixed(minutes + 100, decimals: 4).map { String($0.dropFirst()) } ?? "00.0000"
        return digits(degrees, degreeDigits) + text
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        var bytes: [UInt8] = []
        NumberFormatting.appendDigits(UInt64(max(0, value)), width: width, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
