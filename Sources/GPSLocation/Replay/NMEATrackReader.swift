import LocateFormats
import LocateSupport

/// An NMEA 0183 log as a track, read as it comes: RMC and GGA sentences (any talker: GP, GN,
/// GL ...) of one epoch (the same time of day) make one fix; RMC gives the date, speed and
/// course, GGA the altitude, satellites and HDOP; when the two disagree on the position (some
/// receivers' do), the first of the epoch stands, as gpsd reports it. A sentence whose checksum
/// is wrong or that is cut short is skipped, as gpsd skips it; one that says there is no fix
/// (RMC status V, GGA quality 0) or has empty fields gives no fix; other sentences are ignored.
/// Fixes before the first RMC date have no time.
///
/// The fields of a sentence whose checksum is right and that says it has a fix are checked
/// against the sentence's grammar:
/// a coordinate is `ddmm.mmm` (or `dddmm.mmm`) with minutes under 60 and no sign, a hemisphere
/// is a letter of its axis, a time of day and a date are real ones, speeds, courses, HDOP and
/// satellites are unsigned. A field that breaks it is an error on its line: a receiver does not
/// write one, so it is not guessed at.
struct NMEATrackReader {
    /// One epoch being gathered.
    private struct Epoch {
        let timeOfDay: [UInt8]
        var latitude: Double?
        var longitude: Double?
        var date: [UInt8]?
        var hasFix = true
        var speed: Double?
        var course: Double?
        var altitude: Double?
        var geoidSeparation: Double?
        var satellites: Int?
        var hdop: Double?
        /// GGA's quality, as a fix type.
        var fix: Location.FixType?
    }

    private var lines: TrackLines
    private var epoch: Epoch?
    private var lastDate: [UInt8]?
    private var fields: [Range<Int>] = []

    init(_ input: TrackInput) {
        lines = TrackLines(input)
    }

    /// The next fix, or `nil` at the end of the log.
    /// - Throws: `TrackProblem` for a field that breaks its sentence's grammar, or input that cannot be read.
    mutating func next() throws(TrackProblem) -> Location? {
        while let (number, line) = try lines.next() {
            if let fix = try take(line, number: number) { return fix }
        }
        defer { epoch = nil }
        return finish(epoch)
    }

    /// Adds one line to the epoch; the fix of the epoch before when the line starts a new one.
    private mutating func take(_ line: ArraySlice<UInt8>, number: Int) throws(TrackProblem) -> Location? {
        let bytes = Array(line)
        guard Self.sentenceFields(bytes, into: &fields), fields.count >= 7, fields[0].count >= 5 else { return nil }
        let kind = bytes[(fields[0].upperBound - 3)..<fields[0].upperBound]
        let isRMC = kind.elementsEqual("RMC".utf8)
        guard isRMC || kind.elementsEqual("GGA".utf8), !fields[1].isEmpty else { return nil }
        guard isRMC ? fields.count >= 10 : fields.count >= 12 else { return nil }
        let sentence = Sentence(bytes: bytes, fields: fields, line: number, name: isRMC ? "RMC" : "GGA")
        let timeOfDay = Array(bytes[fields[1]])
        let claimsFix = isRMC ? sentence.text(2) == "A" : (sentence.text(6).first.map { ("1"..."9").contains($0) } ?? false)
        let hasTime = UTCTimestamp.secondsOfDay(nmea: Substring(decoding: timeOfDay, as: UTF8.self)) != nil
        // A sentence without a fix says only that: receivers fill its other fields with anything
        // (an MTK-3301 writes a latitude of 8960.000000 before its first fix).
        guard claimsFix || hasTime else { return nil }
        guard hasTime else { throw sentence.problem(1, "a time of day (hhmmss)") }
        // A new time of day is a new epoch: the one before is finished.
        var finished: Location?
        if let previous = epoch, previous.timeOfDay != timeOfDay {
            finished = finish(previous)
            epoch = nil
        }
        var current = epoch ?? Epoch(timeOfDay: timeOfDay)
        defer { epoch = current }
        guard claimsFix else {
            current.hasFix = false
            return finished
        }
        if isRMC {
            let latitude = try sentence.coordinate(3, degreeDigits: 2)
            let longitude = try sentence.coordinate(5, degreeDigits: 3)
            current.latitude = current.latitude ?? latitude
            current.longitude = current.longitude ?? longitude
            current.speed = try sentence.unsigned(7, upTo: 10_000, "a speed in knots").map { $0 * 1852 / 3600 }
            current.course = try sentence.unsigned(8, upTo: 360, "a course in degrees")
            if !fields[9].isEmpty {
                let date = Array(bytes[fields[9]])
                guard
                    UTCTimestamp.nmea(
                        date: Substring(decoding: date, as: UTF8.self), time: Substring(decoding: timeOfDay, as: UTF8.self)) != nil
                else { throw sentence.problem(9, "a real date (ddmmyy)") }
                current.date = date
            }
        } else {
            let latitude = try sentence.coordinate(2, degreeDigits: 2)
            let longitude = try sentence.coordinate(4, degreeDigits: 3)
            current.latitude = current.latitude ?? latitude
            current.longitude = current.longitude ?? longitude
            current.fix = sentence.text(6).first.flatMap(Self.fixType(quality:))
            current.satellites = try sentence.unsigned(7, upTo: 99, "a number of satellites").map { Int($0) }
            current.hdop = try sentence.unsigned(8, upTo: 99.99, "an HDOP")
            current.altitude = try sentence.signed(9, in: -10_000...100_000, "an altitude in metres")
            current.geoidSeparation = try sentence.signed(11, in: -1000...1000, "a geoid separation in metres")
        }
        if current.latitude == nil || current.longitude == nil { current.hasFix = false }
        return finished
    }

    /// The fix of a finished epoch, if it had one.
    private mutating func finish(_ epoch: Epoch?) -> Location? {
        guard let epoch, epoch.hasFix, let latitude = epoch.latitude, let longitude = epoch.longitude else { return nil }
        if let date = epoch.date { lastDate = date }
        let time = lastDate.flatMap {
            UTCTimestamp.nmea(date: Substring(decoding: $0, as: UTF8.self), time: Substring(decoding: epoch.timeOfDay, as: UTF8.self))
        }
        return Location(
            unchecked: latitude, longitude: longitude, time: time, altitudeMSL: epoch.altitude,
            altitudeHAE: epoch.altitude.flatMap { altitude in epoch.geoidSeparation.map { altitude + $0 } },
            horizontalAccuracy: epoch.hdop, speed: epoch.speed, course: epoch.course,
            hdop: epoch.hdop, mode: epoch.altitude == nil ? .twoDimensional : .threeDimensional,
            satellitesUsed: epoch.satellites, source: .replay,
            details: Location.Details(fix: epoch.fix, geoidSeparation: epoch.geoidSeparation))
    }

    /// GGA's quality indicator as a fix type (NMEA 0183 4.10: 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed,
    /// 5 RTK float, 6 dead reckoning, 7 manual, 8 simulator); `nil` for no fix or another digit.
    private static func fixType(quality: Character) -> Location.FixType? {
        switch quality {
        case "1": .gps
        case "2": .dgps
        case "3": .pps
        case "4": .rtkFixed
        case "5": .rtkFloat
        case "6": .deadReckoning
        case "7": .surveyed
        case "8": .simulated
        default: nil
        }
    }

    /// The comma-separated fields of the sentence in `bytes` (`$` or `!` to `*`), into `fields`;
    /// `false` when there is none, or its checksum is wrong.
    private static func sentenceFields(_ bytes: [UInt8], into fields: inout [Range<Int>]) -> Bool {
        guard let start = bytes.firstIndex(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") }) else { return false }
        var end = bytes.count
        if let star = bytes[(start + 1)...].lastIndex(of: UInt8(ascii: "*")) {
            guard star + 3 <= bytes.count, let high = hexDigit(bytes[star + 1]), let low = hexDigit(bytes[star + 2]) else {
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
}

/// One checksummed sentence's fields, read by the sentence's grammar; an empty field is an
/// unknown value, anything else must be what its place says.
private struct Sentence {
    let bytes: [UInt8]
    let fields: [Range<Int>]
    let line: Int
    let name: String

    func problem(_ index: Int, _ expected: String) -> TrackProblem {
        let text = String(decoding: bytes[fields[index]], as: UTF8.self)
        return TrackProblem(
            line: line, reason: "\(name) field \(index) is '\(UntrustedText.visible(text, limit: 24))', not \(expected)")
    }

    /// The field's text.
    func text(_ index: Int) -> String {
        String(decoding: bytes[fields[index]], as: UTF8.self)
    }

    /// The field as one of `allowed`, or `nil` when it is empty.
    func word(_ index: Int, allowed: [String], _ expected: String) throws(TrackProblem) -> String? {
        guard !fields[index].isEmpty else { return nil }
        let text = String(decoding: bytes[fields[index]], as: UTF8.self)
        guard allowed.contains(text) else { throw problem(index, expected) }
        return text
    }

    /// An unsigned decimal up to `limit`.
    func unsigned(_ index: Int, upTo limit: Double, _ expected: String) throws(TrackProblem) -> Double? {
        let field = fields[index]
        guard !field.isEmpty else { return nil }
        guard bytes[field.lowerBound] != UInt8(ascii: "-"), let value = NMEADecimal.value(bytes, field), value <= limit else {
            throw problem(index, expected)
        }
        return value
    }

    /// A decimal, signed or not, within `range`.
    func signed(_ index: Int, in range: ClosedRange<Double>, _ expected: String) throws(TrackProblem) -> Double? {
        let field = fields[index]
        guard !field.isEmpty else { return nil }
        guard let value = NMEADecimal.value(bytes, field), range.contains(value) else { throw problem(index, expected) }
        return value
    }

    /// `ddmm.mmm` (two degree digits) or `dddmm.mmm` (three) at `index`, with its hemisphere
    /// (`N`/`S` or `E`/`W`) at `index + 1`; `nil` when both are empty.
    func coordinate(_ index: Int, degreeDigits: Int) throws(TrackProblem) -> Double? {
        let field = fields[index]
        let hemisphere = fields[index + 1]
        guard !field.isEmpty || !hemisphere.isEmpty else { return nil }
        let isLatitude = degreeDigits == 2
        let form = isLatitude ? "a latitude (ddmm.mmm, no sign)" : "a longitude (dddmm.mmm, no sign)"
        guard field.count > degreeDigits + 1,
            bytes[field.lowerBound..<(field.lowerBound + degreeDigits)].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            ),
            let degrees = NMEADecimal.value(bytes, field.lowerBound..<(field.lowerBound + degreeDigits)),
            bytes[field.lowerBound + degreeDigits] != UInt8(ascii: "-"),
            let minutes = NMEADecimal.value(bytes, (field.lowerBound + degreeDigits)..<field.upperBound), minutes < 60
        else { throw problem(index, form) }
        let value = degrees + minutes / 60
        guard value <= (isLatitude ? 90 : 180) else { throw problem(index, form) }
        let (positive, negative) = isLatitude ? ("N", "S") : ("E", "W")
        guard let side = try word(index + 1, allowed: [positive, negative], "\(positive) or \(negative)") else {
            throw problem(index + 1, "\(positive) or \(negative)")
        }
        return side == positive ? value : -value
    }
}
