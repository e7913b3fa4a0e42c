package import FoundationEssentials
import LocateSupport

/// NMEA 0183, read and written here only, its sentences spelled once (``Sentence``): a fix's
/// values as ``Fix``, what ``Reader`` reads of a log and what ``sentences(_:)`` writes (GGA, RMC
/// and GSA). What one writes, the other reads back as it was (coordinates to 0.0001 of a
/// minute, the time to 0.01 s, speed to 0.001 knot, course to 0.01 degree, altitude and geoid
/// separation to 0.1 m, the dilutions to 0.01).
package enum NMEA {
    /// The sentences read or written (the formatter after the talker), each spelled here once.
    package enum Sentence: String, Sendable {
        /// Recommended minimum: the time and date, the position, speed and course.
        case rmc = "RMC"
        /// The fix: the time of day, the position, its quality, satellites, HDOP, altitude.
        case gga = "GGA"
        /// The fix's mode (2D or 3D), the satellites used and the dilutions.
        case gsa = "GSA"
    }

    /// GSA's fix mode, of those that say there is a fix.
    package enum Mode: Int, Sendable, CaseIterable {
        case twoDimensional = 2
        case threeDimensional = 3
    }

    /// The talker of the sentences written: a GPS receiver's.
    static let talker = "GP"

    /// GGA's quality indicator (NMEA 0183 4.10).
    package enum Quality: Int, Sendable, CaseIterable {
        case gps = 1
        case dgps, pps, rtkFixed, rtkFloat, deadReckoning, manual, simulator
    }

    /// A fix's values, as RMC, GGA and GSA of one epoch carry them; `nil` is a field left empty
    /// (or, for the mode and the dilutions GSA carries, no GSA).
    package struct Fix: Sendable, Equatable {
        /// Degrees, north and east positive.
        package var latitude: Double
        package var longitude: Double
        /// The epoch's instant: RMC's date (the last one given, for a GGA alone) and the time
        /// of day; `nil` before a log's first date.
        package var time: Date?
        /// RMC's speed over ground, in knots, as NMEA gives it.
        package var knots: Double?
        /// RMC's course over ground, degrees from true north.
        package var course: Double?
        /// GGA's quality, satellites used (or else the number GSA lists) and HDOP (or else GSA's).
        package var quality: Quality?
        package var satellites: Int?
        package var hdop: Double?
        /// GSA's mode and its positional and vertical dilutions of precision.
        package var mode: Mode?
        package var pdop: Double?
        package var vdop: Double?
        /// GGA's altitude above mean sea level and the geoid's separation from the WGS 84
        /// ellipsoid, metres.
        package var altitude: Double?
        package var geoidSeparation: Double?

        /// A fix at `latitude` and `longitude` without any other value.
        package init(latitude: Double, longitude: Double) {
            (self.latitude, self.longitude) = (latitude, longitude)
        }
    }

    /// The checksum of a sentence's body (between `$` and `*`): the XOR of its bytes.
    static func checksum(_ body: some Sequence<UInt8>) -> UInt8 {
        body.reduce(0, ^)
    }
}

// MARK: - Writing

extension NMEA {
    /// A fix's GGA, RMC and, when it has a mode, GSA, each `$...*CS` and CR LF, with the fields
    /// of what the fix does not have left empty; none for a fix without a time, or one outside
    /// the years 0000 to 9999. A quality not given is written as a GPS fix's.
    package static func sentences(_ fix: Fix) -> [UInt8] {
        // The time to the hundredth written, rounded first so that 59.996 s is the next minute.
        guard let time = fix.time.map({ Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 100).rounded() / 100) }),
            let (year, month, day, secondOfDay) = UTCTimestamp.civil(time)
        else { return [] }
        let hundredths = Int((secondOfDay * 100).rounded())
        let clock =
            digits(hundredths / 360_000, 2) + digits(hundredths / 6000 % 60, 2) + digits(hundredths / 100 % 60, 2) + "."
            + digits(hundredths % 100, 2)
        let latitude = angle(abs(fix.latitude), degreeDigits: 2) + (fix.latitude < 0 ? ",S" : ",N")
        let longitude = angle(abs(fix.longitude), degreeDigits: 3) + (fix.longitude < 0 ? ",W" : ",E")
        func decimal(_ value: Double?, _ decimals: Int) -> String { value.flatMap { NumberFormatting.fixed($0, decimals: decimals) } ?? "" }
        let quality = String((fix.quality ?? .gps).rawValue)
        let satellites = fix.satellites.map { digits($0, 2) } ?? ""
        let gga = [
            talker + Sentence.gga.rawValue, clock, latitude, longitude, quality, satellites, decimal(fix.hdop, 2),
            decimal(fix.altitude, 1), "M", decimal(fix.geoidSeparation, 1), "M", "", "",
        ]
        let date = digits(day, 2) + digits(month, 2) + digits(year % 100, 2)
        let rmc = [
            talker + Sentence.rmc.rawValue, clock, "A", latitude, longitude, decimal(fix.knots, 3), decimal(fix.course, 2), date, "", "",
            "A",
        ]
        var sentences = [gga, rmc]
        if let mode = fix.mode {
            // Which satellites were used is not known here: twelve empty ids, then PDOP, HDOP, VDOP.
            sentences.append(
                [talker + Sentence.gsa.rawValue, "A", String(mode.rawValue)] + Array(repeating: "", count: 12)
                    + [decimal(fix.pdop, 2), decimal(fix.hdop, 2), decimal(fix.vdop, 2)])
        }
        return sentences.flatMap { sentence($0.joined(separator: ",")) }
    }

    /// `$BODY*CS\r\n`.
    private static func sentence(_ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        let checksum = checksum(bytes)
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

// MARK: - Reading

extension NMEA {
    /// An NMEA 0183 log's fixes, read as it comes: RMC and GGA sentences (any talker: GP, GN,
    /// GL ...) of one epoch (the same time of day) make one fix; RMC gives the date, speed and
    /// course, GGA the quality, altitude, satellites and HDOP; when the two disagree on the
    /// position (some receivers' do), the first of the epoch stands, as gpsd reports it. GSA,
    /// which has no time, belongs to the epoch being gathered: it gives the mode (2D or 3D),
    /// PDOP and VDOP, and the HDOP and the number of satellites used where GGA gives none (the
    /// satellites GSA lists, summed over an epoch's GSAs, one a constellation on a multi-GNSS
    /// receiver; of the mode and the dilutions, the first GSA's stand). A sentence whose checksum
    /// is wrong or that is cut short is skipped, as gpsd skips it; one that says there is no fix
    /// (RMC status V, GGA quality 0) or has empty fields gives no fix; a GSA that says no fix
    /// (mode 1) says only that, and changes nothing; other sentences are ignored. Fixes before
    /// the first RMC date have no time.
    ///
    /// The fields of a sentence whose checksum is right and that says it has a fix are checked
    /// against the sentence's grammar: a coordinate is `ddmm.mmm` (or `dddmm.mmm`) with minutes
    /// under 60 and no sign, a hemisphere is a letter of its axis, a time of day and a date are
    /// real ones, speeds, courses, dilutions, satellites and GSA's satellite ids are unsigned. A
    /// field that breaks it is an
    /// error on its line: a receiver does not write one, so it is not guessed at.
    package struct Reader {
        /// One epoch being gathered.
        private struct Epoch {
            let timeOfDay: [UInt8]
            var latitude: Double?
            var longitude: Double?
            var date: [UInt8]?
            var hasFix = true
            var knots: Double?
            var course: Double?
            var altitude: Double?
            var geoidSeparation: Double?
            var satellites: Int?
            var hdop: Double?
            var quality: Quality?
            /// What the epoch's GSAs say: the first mode and dilutions, the satellites of all.
            var mode: Mode?
            var pdop: Double?
            var vdop: Double?
            var listedHDOP: Double?
            var listedSatellites = 0
        }

        private var lines: TrackLines
        private var epoch: Epoch?
        private var lastDate: [UInt8]?
        private var fields: [Range<Int>] = []

        /// A reader of `input`, from its start.
        package init(_ input: TrackInput) {
            lines = TrackLines(input)
        }

        /// The next fix, or `nil` at the end of the log.
        /// - Throws: `TrackProblem` for a field that breaks its sentence's grammar, or input that cannot be read.
        package mutating func next() throws(TrackProblem) -> Fix? {
            while let (number, line) = try lines.next() {
                if let fix = try take(line, number: number) { return fix }
            }
            defer { epoch = nil }
            return finish(epoch)
        }

        /// Adds one line to the epoch; the fix of the epoch before when the line starts a new one.
        private mutating func take(_ line: ArraySlice<UInt8>, number: Int) throws(TrackProblem) -> Fix? {
            let bytes = Array(line)
            guard Self.sentenceFields(bytes, into: &fields), fields.count >= 7, fields[0].count >= 5 else { return nil }
            let kind = bytes[(fields[0].upperBound - 3)..<fields[0].upperBound]
            if kind.elementsEqual(Sentence.gsa.rawValue.utf8) {
                try takeGSA(bytes, number: number)
                return nil
            }
            let isRMC = kind.elementsEqual(Sentence.rmc.rawValue.utf8)
            guard isRMC || kind.elementsEqual(Sentence.gga.rawValue.utf8), !fields[1].isEmpty else { return nil }
            guard isRMC ? fields.count >= 10 : fields.count >= 12 else { return nil }
            let sentence = Fields(bytes: bytes, fields: fields, line: number, name: isRMC ? Sentence.rmc : .gga)
            let timeOfDay = Array(bytes[fields[1]])
            let claimsFix = isRMC ? sentence.text(2) == "A" : (sentence.text(6).first.map { ("1"..."9").contains($0) } ?? false)
            let hasTime = UTCTimestamp.secondsOfDay(nmea: Substring(decoding: timeOfDay, as: UTF8.self)) != nil
            // A sentence without a fix says only that: receivers fill its other fields with anything
            // (an MTK-3301 writes a latitude of 8960.000000 before its first fix).
            guard claimsFix || hasTime else { return nil }
            guard hasTime else { throw sentence.problem(1, "a time of day (hhmmss)") }
            // A new time of day is a new epoch: the one before is finished.
            var finished: Fix?
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
                current.knots = try sentence.unsigned(7, upTo: 10_000, "a speed in knots")
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
                current.quality = bytes[fields[6]].first.flatMap { Quality(rawValue: Int($0) - Int(UInt8(ascii: "0"))) }
                current.satellites = try sentence.unsigned(7, upTo: 99, "a number of satellites").map { Int($0) }
                current.hdop = try sentence.unsigned(8, upTo: 99.99, "an HDOP")
                current.altitude = try sentence.signed(9, in: -10_000...100_000, "an altitude in metres")
                current.geoidSeparation = try sentence.signed(11, in: -1000...1000, "a geoid separation in metres")
            }
            if current.latitude == nil || current.longitude == nil { current.hasFix = false }
            return finished
        }

        /// Adds a GSA to the epoch being gathered (none before a log's first epoch); a GSA
        /// cut short or without a fix (mode 1, or none) changes nothing.
        private mutating func takeGSA(_ bytes: [UInt8], number: Int) throws(TrackProblem) {
            guard var current = epoch, fields.count >= 18 else { return }
            let sentence = Fields(bytes: bytes, fields: fields, line: number, name: .gsa)
            guard fields[2].count == 1, let mode = Mode(rawValue: Int(bytes[fields[2].lowerBound]) - Int(UInt8(ascii: "0"))) else {
                return
            }
            _ = try sentence.word(1, allowed: ["A", "M"], "A or M")
            var listed = 0
            for index in 3...14 {
                guard let id = try sentence.unsigned(index, upTo: 999, "a satellite's id") else { continue }
                guard id == id.rounded(.down) else { throw sentence.problem(index, "a satellite's id") }
                listed += 1
            }
            let pdop = try sentence.unsigned(15, upTo: 99.99, "a PDOP")
            let hdop = try sentence.unsigned(16, upTo: 99.99, "an HDOP")
            let vdop = try sentence.unsigned(17, upTo: 99.99, "a VDOP")
            if current.mode == nil { (current.mode, current.pdop, current.listedHDOP, current.vdop) = (mode, pdop, hdop, vdop) }
            current.listedSatellites += listed
            epoch = current
        }

        /// The fix of a finished epoch, if it had one.
        private mutating func finish(_ epoch: Epoch?) -> Fix? {
            guard let epoch, epoch.hasFix, let latitude = epoch.latitude, let longitude = epoch.longitude else { return nil }
            if let date = epoch.date { lastDate = date }
            var fix = Fix(latitude: latitude, longitude: longitude)
            fix.time = lastDate.flatMap {
                UTCTimestamp.nmea(date: Substring(decoding: $0, as: UTF8.self), time: Substring(decoding: epoch.timeOfDay, as: UTF8.self))
            }
            (fix.knots, fix.course) = (epoch.knots, epoch.course)
            fix.quality = epoch.quality
            fix.satellites = epoch.satellites ?? (epoch.listedSatellites > 0 ? epoch.listedSatellites : nil)
            fix.hdop = epoch.hdop ?? epoch.listedHDOP
            (fix.mode, fix.pdop, fix.vdop) = (epoch.mode, epoch.pdop, epoch.vdop)
            (fix.altitude, fix.geoidSeparation) = (epoch.altitude, epoch.geoidSeparation)
            return fix
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
                guard checksum(bytes[(start + 1)..<star]) == high << 4 | low else { return false }
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
    private struct Fields {
        let bytes: [UInt8]
        let fields: [Range<Int>]
        let line: Int
        let name: Sentence

        func problem(_ index: Int, _ expected: String) -> TrackProblem {
            let text = String(decoding: bytes[fields[index]], as: UTF8.self)
            return TrackProblem(
                line: line, reason: "\(name.rawValue) field \(index) is '\(UntrustedText.visible(text, limit: 24))', not \(expected)")
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
                bytes[field.lowerBound..<(field.lowerBound + degreeDigits)].allSatisfy({
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                }),
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
}
