import FoundationEssentials

/// An NMEA 0183 log as a track: RMC and GGA sentences (any talker: GP, GN, GL ...) of one epoch
/// (the same time of day) make one fix; RMC gives the date, speed and course, GGA the altitude,
/// satellites and HDOP. A sentence whose checksum is wrong, that is cut short, or that says
/// there is no fix (RMC status V, GGA quality 0) is skipped, as gpsd skips it; other sentences
/// are ignored. Fixes before the first RMC date have no time.
enum NMEATrackReader {
    /// One epoch being gathered.
    private struct Epoch {
        let timeOfDay: ArraySlice<UInt8>
        var latitude: Double?
        var longitude: Double?
        var date: ArraySlice<UInt8>?
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
        var epoch: Epoch?
        var lastDate: ArraySlice<UInt8>?
        func finish(_ epoch: Epoch?) {
            guard let epoch, epoch.hasFix, let latitude = epoch.latitude, let longitude = epoch.longitude else { return }
            if let date = epoch.date { lastDate = date }
            let time = lastDate.flatMap {
                UTCTimestamp.nmea(date: Substring(decoding: $0, as: UTF8.self), time: Substring(decoding: epoch.timeOfDay, as: UTF8.self))
            }
            locations.append(
                Location(
                    latitude: latitude, longitude: longitude, time: time, altitudeMSL: epoch.altitude,
                    altitudeHAE: epoch.altitude.flatMap { altitude in epoch.geoidSeparation.map { altitude + $0 } },
                    horizontalAccuracy: epoch.hdop.map { $0 * ReplayTrack.metresPerHDOP }, speed: epoch.speed, course: epoch.course,
                    hdop: epoch.hdop, mode: epoch.altitude == nil ? .twoDimensional : .threeDimensional,
                    satellitesUsed: epoch.satellites, source: .replay))
        }
        for (_, line) in trackLines(bytes) {
            guard let fields = sentenceFields(line), fields.count >= 7, fields[0].count >= 5 else { continue }
            let kind = fields[0].suffix(3)
            let isRMC = kind.elementsEqual("RMC".utf8)
            guard isRMC || kind.elementsEqual("GGA".utf8), fields[1].count >= 6 else { continue }
            if let current = epoch, !current.timeOfDay.elementsEqual(fields[1]) {
                finish(current)
                epoch = nil
            }
            var current = epoch ?? Epoch(timeOfDay: fields[1])
            if isRMC {
                guard fields.count >= 10 else { continue }
                current.hasFix = current.hasFix && fields[2].elementsEqual("A".utf8)
                current.latitude = coordinate(fields[3], hemisphere: fields[4], degreeDigits: 2) ?? current.latitude
                current.longitude = coordinate(fields[5], hemisphere: fields[6], degreeDigits: 3) ?? current.longitude
                current.speed = number(fields[7], in: 0...10_000).map { $0 * 1852 / 3600 }
                current.course = number(fields[8], in: 0...360)
                if fields[9].count == 6 { current.date = fields[9] }
            } else {
                guard fields.count >= 12 else { continue }
                current.hasFix = current.hasFix && number(fields[6], in: 1...9) != nil
                current.latitude = coordinate(fields[2], hemisphere: fields[3], degreeDigits: 2) ?? current.latitude
                current.longitude = coordinate(fields[4], hemisphere: fields[5], degreeDigits: 3) ?? current.longitude
                current.satellites = number(fields[7], in: 0...99).map { Int($0) }
                current.hdop = number(fields[8], in: 0...99.99)
                current.altitude = number(fields[9], in: -10_000...100_000)
                current.geoidSeparation = number(fields[11], in: -1000...1000)
            }
            if current.latitude == nil || current.longitude == nil { current.hasFix = false }
            epoch = current
        }
        finish(epoch)
        return locations
    }

    /// The comma-separated fields of a sentence (`$` or `!` to `*`), or `nil` when it is not one
    /// or its checksum is wrong.
    private static func sentenceFields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        guard let start = line.firstIndex(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") }) else { return nil }
        var body = line[(start + 1)...]
        if let star = body.lastIndex(of: UInt8(ascii: "*")) {
            let digits = body[(star + 1)...].prefix(2)
            guard digits.count == 2, let expected = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
            body = body[..<star]
            guard body.reduce(0, ^) == expected else { return nil }
        }
        return body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    }

    /// `ddmm.mmmm` (or `dddmm.mmmm`) and `N`/`S` (`E`/`W`) as signed degrees, or `nil`.
    private static func coordinate(_ field: ArraySlice<UInt8>, hemisphere: ArraySlice<UInt8>, degreeDigits: Int) -> Double? {
        guard field.count > degreeDigits + 1, let degrees = number(field.prefix(degreeDigits), in: 0...180),
            let minutes = number(field.dropFirst(degreeDigits), in: 0..<60)
        else { return nil }
        let value = degrees + minutes / 60
        guard value <= (degreeDigits == 2 ? 90 : 180) else { return nil }
        switch hemisphere.first {
        case UInt8(ascii: "N"), UInt8(ascii: "E"): return value
        case UInt8(ascii: "S"), UInt8(ascii: "W"): return -value
        default: return nil
        }
    }

    /// A plain decimal number in `range`, or `nil` (empty fields are unknown values).
    private static func number(_ field: ArraySlice<UInt8>, in range: some RangeExpression<Double>) -> Double? {
        guard !field.isEmpty, field.count <= 20,
            field.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            ),
            let value = Double(String(decoding: field, as: UTF8.self)), value.isFinite, range.contains(value)
        else { return nil }
        return value
    }
}
