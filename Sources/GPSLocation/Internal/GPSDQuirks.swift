import LocateFormats

/// What gpsd 3.22 gets wrong in its own JSON, put right before it is parsed.
enum GPSDQuirks {
    /// `{"class":"ATT",`: the start of an ATT report with more members.
    private static let attitudeStart = GPSDReports.start(.att) + [UInt8(ascii: ",")]

    /// gpsd 3.22 writes an ATT report of an NMEA receiver's `$GPHDT` with a doubled comma and a
    /// missing one around its time (`"device":"/dev/pts/1",,"time":"…Z""heading":123.4`), which
    /// no JSON parser takes. The report with both put right, or `nil` for a line that is no
    /// such ATT report (or needs nothing put right).
    static func repairedAttitude(_ line: ArraySlice<UInt8>) -> [UInt8]? {
        guard line.starts(with: attitudeStart) else { return nil }
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        var repaired: [UInt8] = []
        repaired.reserveCapacity(line.count + 1)
        var previous: UInt8 = 0
        var inString = false
        var changed = false
        for byte in line {
            if !inString, byte == comma, previous == comma {
                changed = true
                continue
            }
            if !inString, byte == quote, previous == quote {
                // A string just ended and a key starts with no comma between them.
                repaired.append(comma)
                changed = true
            }
            if byte == quote, !(inString && previous == UInt8(ascii: "\\")) { inString.toggle() }
            repaired.append(byte)
            previous = byte
        }
        return changed ? repaired : nil
    }
}
