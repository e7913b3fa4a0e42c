import FoundationEssentials
import GPSLocation
import LocateSupport

/// NMEA 0183 sentences of a grid cell, for the clients of `locate serve` whose app has reduced
/// accuracy and that read NMEA (`gpspipe -r`, GeoClue's NMEA source): GGA, RMC and GSA,
/// checksummed, CR LF, saying the cell's centre and time and nothing finer (no altitude, speed,
/// course, dilution or number of satellites). A client with full accuracy gets the receiver's
/// own sentences instead, as gpsd relays them.
enum NMEASentences {
    /// The three sentences of a cell; none for a location without a fix mode or time.
    static func sentences(ofCell cell: Location) -> [UInt8] {
        guard let mode = cell.mode, let time = cell.time, let (year, month, day, secondOfDay) = UTCTimestamp.civil(time) else {
            return []
        }
        let clock =
            digits(Int(secondOfDay) / 3600, 2) + digits(Int(secondOfDay) / 60 % 60, 2)
            + (NumberFormatting.fixed(secondOfDay.truncatingRemainder(dividingBy: 60) + 100, decimals: 2).map { String($0.dropFirst()) }
                ?? "00.00")
        let latitude = angle(abs(cell.latitude), degreeDigits: 2) + (cell.latitude < 0 ? ",S" : ",N")
        let longitude = angle(abs(cell.longitude), degreeDigits: 3) + (cell.longitude < 0 ? ",W" : ",E")
        let gga = "GPGGA,\(clock),\(latitude),\(longitude),1,,,,M,,M,,"
        let rmc = "GPRMC,\(clock),A,\(latitude),\(longitude),,,\(digits(day, 2))\(digits(month, 2))\(digits(year % 100, 2)),,,A"
        let gsa = "GPGSA,A,\(mode == .threeDimensional ? 3 : 2),,,,,,,,,,,,,,,"
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
