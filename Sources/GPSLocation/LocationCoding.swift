import FoundationEssentials
import LocateFormats
import LocateSupport

/// `Location` as `locate`'s JSON records write it: the same keys (`lat`, `lon`, `time`, `h_acc`,
/// ...), times as ISO 8601 text in UTC, unknown values as `null`. Decoding takes a record back
/// (extra keys such as `type` or `age` are ignored) and refuses what no fix can be: a latitude
/// or longitude out of range, a non-finite or negative accuracy, an unknown mode or source.
extension Location: Codable {
    /// The record's keys: the one table of them (`RecordKey`), shared with the command.
    typealias CodingKeys = RecordKey

    /// Decodes a record.
    /// - Throws: `DecodingError.dataCorrupted` for a value out of range or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do throws(RecordProblem) {
            try self.init(record: DecodedRecord(container: container))
        } catch {
            throw DecodingError.dataCorruptedError(forKey: error.key, in: container, debugDescription: error.message)
        }
    }

    /// Encodes the record's keys, with `null` for what is unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func put<Value: Encodable>(_ value: Value?, _ key: CodingKeys) throws {
            if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
        }
        try put(time.flatMap(UTCTimestamp.iso8601), .time)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try put(altitudeMSL, .altitudeMSL)
        try put(altitudeHAE, .altitudeHAE)
        try put(horizontalAccuracy, .horizontalAccuracy)
        try put(verticalAccuracy, .verticalAccuracy)
        try put(speed, .speed)
        try put(speedAccuracy, .speedAccuracy)
        try put(course, .course)
        try put(courseAccuracy, .courseAccuracy)
        try put(climb, .climb)
        try put(hdop, .hdop)
        try put(mode, .mode)
        try put(satellitesUsed, .satellitesUsed)
        try put(device, .device)
        try container.encode(source, forKey: .source)
        try container.encode(accuracy, forKey: .accuracy)
        try put(details.fix, .fix)
        try put(details.vdop, .vdop)
        try put(details.pdop, .pdop)
        try put(details.tdop, .tdop)
        try put(details.gdop, .gdop)
        try put(details.xAccuracy, .xAccuracy)
        try put(details.yAccuracy, .yAccuracy)
        try put(details.timeAccuracy, .timeAccuracy)
        try put(details.heading, .heading)
        try put(details.magneticVariation, .magneticVariation)
        try put(details.geoidSeparation, .geoidSeparation)
    }

    /// A record's fields, checked: the one mapping from record keys to a `Location`, for
    /// `Decodable` and for the JSON Lines of a replayed track alike.
    init(record values: some RecordValues) throws(RecordProblem) {
        func number(_ key: CodingKeys, in range: ClosedRange<Double> = Plausible.altitude) throws(RecordProblem) -> Double? {
            guard let value = try values.number(key) else { return nil }
            guard range.contains(value) else { throw RecordProblem(key: key, message: "\(value) is out of range") }
            return value
        }
        func word<Word: RawRepresentable<String>>(_ key: CodingKeys, as _: Word.Type) throws(RecordProblem) -> Word? {
            guard let text = try values.text(key) else { return nil }
            guard let word = Word(rawValue: text) else {
                throw RecordProblem(key: key, message: "'\(UntrustedText.visible(text, limit: 40))' is not a known value")
            }
            return word
        }
        guard let latitude = try number(.latitude, in: Plausible.latitude), let longitude = try number(.longitude, in: Plausible.longitude)
        else {
            throw RecordProblem(key: .latitude, message: "a location needs lat and lon")
        }
        var time: Date?
        if let text = try values.text(.time) {
            guard let parsed = UTCTimestamp.parse(text), Plausible.time.contains(parsed.timeIntervalSince1970) else {
                throw RecordProblem(key: .time, message: "not an ISO 8601 time from 1980 to 2200")
            }
            time = parsed
        }
        let satellites = try number(.satellitesUsed, in: Double(Plausible.satellites.lowerBound)...Double(Plausible.satellites.upperBound))
        if let satellites, satellites != satellites.rounded() {
            throw RecordProblem(key: .satellitesUsed, message: "\(satellites) is not a whole number")
        }
        let device = try values.text(.device)
        if let device, device.utf8.count > 256 { throw RecordProblem(key: .device, message: "longer than 256 bytes") }
        self.init(
            unchecked: latitude, longitude: longitude, time: time,
            altitudeMSL: try number(.altitudeMSL), altitudeHAE: try number(.altitudeHAE),
            horizontalAccuracy: try number(.horizontalAccuracy, in: Plausible.error),
            verticalAccuracy: try number(.verticalAccuracy, in: Plausible.error),
            speed: try number(.speed, in: Plausible.speed), speedAccuracy: try number(.speedAccuracy, in: Plausible.error),
            course: try number(.course, in: Plausible.course), courseAccuracy: try number(.courseAccuracy, in: Plausible.error),
            climb: try number(.climb, in: Plausible.climb), hdop: try number(.hdop, in: Plausible.dilution),
            mode: try word(.mode, as: FixMode.self), satellitesUsed: satellites.map { Int($0) },
            device: device.map { UntrustedText.visible($0) },
            source: try word(.source, as: LocationSource.self) ?? .gpsd,
            accuracy: try word(.accuracy, as: AccuracyAuthorization.self) ?? .fullAccuracy,
            details: Details(
                fix: try word(.fix, as: FixType.self), vdop: try number(.vdop, in: Plausible.dilution),
                pdop: try number(.pdop, in: Plausible.dilution), tdop: try number(.tdop, in: Plausible.dilution),
                gdop: try number(.gdop, in: Plausible.dilution), xAccuracy: try number(.xAccuracy, in: Plausible.error),
                yAccuracy: try number(.yAccuracy, in: Plausible.error), timeAccuracy: try number(.timeAccuracy, in: Plausible.error),
                heading: try number(.heading, in: Plausible.course),
                magneticVariation: try number(.magneticVariation, in: Plausible.magneticVariation),
                geoidSeparation: try number(.geoidSeparation, in: Plausible.geoidSeparation)))
    }
}

extension Location {
    /// The location as one line of JSON with the record keys `Codable` uses (`lat`, `lon`,
    /// `time` as ISO 8601 UTC, `h_acc`, ...; unknown values `null`), written without a coder:
    /// what the last-fix cache keeps, and what ``init(jsonRecord:)`` reads back.
    public var jsonRecord: String {
        func number(_ value: Double?, _ decimals: Int) -> String {
            value.flatMap { NumberFormatting.fixed($0, decimals: decimals) } ?? "null"
        }
        var object = JSONObjectWriter()
        object.add(CodingKeys.time.rawValue, string: time.flatMap(UTCTimestamp.iso8601))
        object.add(CodingKeys.latitude.rawValue, json: number(latitude, 9))
        object.add(CodingKeys.longitude.rawValue, json: number(longitude, 9))
        for (key, value) in [
            (CodingKeys.altitudeMSL, altitudeMSL), (.altitudeHAE, altitudeHAE), (.horizontalAccuracy, horizontalAccuracy),
            (.verticalAccuracy, verticalAccuracy), (.speed, speed), (.speedAccuracy, speedAccuracy), (.course, course),
            (.courseAccuracy, courseAccuracy), (.climb, climb), (.hdop, hdop),
        ] {
            object.add(key.rawValue, json: number(value, 3))
        }
        object.add(CodingKeys.mode.rawValue, string: mode?.rawValue)
        object.add(CodingKeys.satellitesUsed.rawValue, json: number(satellitesUsed.map(Double.init), 0))
        object.add(CodingKeys.device.rawValue, string: device)
        object.add(CodingKeys.source.rawValue, string: source.rawValue)
        object.add(CodingKeys.accuracy.rawValue, string: accuracy.rawValue)
        object.add(CodingKeys.fix.rawValue, string: details.fix?.rawValue)
        for (key, value) in [
            (CodingKeys.vdop, details.vdop), (.pdop, details.pdop), (.tdop, details.tdop), (.gdop, details.gdop),
            (.xAccuracy, details.xAccuracy), (.yAccuracy, details.yAccuracy), (.timeAccuracy, details.timeAccuracy),
            (.heading, details.heading), (.magneticVariation, details.magneticVariation), (.geoidSeparation, details.geoidSeparation),
        ] {
            object.add(key.rawValue, json: number(value, 3))
        }
        return object.text
    }

    /// A location read back from a JSON object with the record keys (``jsonRecord``, a line of
    /// `locate --json`; other keys are ignored), checked as `Decodable` checks one: a position
    /// on the globe, values in their ranges.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` naming the key at fault.
    public init(jsonRecord bytes: [UInt8]) throws(GPSLocationError) {
        guard let members = FlatJSON.parse(bytes) else {
            throw .invalidArgument(name: "jsonRecord", reason: "not one flat JSON object")
        }
        do throws(RecordProblem) {
            try self.init(record: FlatJSONRecord(members: members))
        } catch {
            throw .invalidArgument(name: "jsonRecord", reason: "'\(error.key.rawValue)': \(error.message)")
        }
    }
}

/// Where a record's values come from (a `Decoder`'s container, or the members `FlatJSON` read):
/// a number or a text for a key, `nil` when the key is missing or `null`.
protocol RecordValues {
    func number(_ key: RecordKey) throws(RecordProblem) -> Double?
    func text(_ key: RecordKey) throws(RecordProblem) -> String?
}

/// A record field that no fix can have, and why.
struct RecordProblem: Error {
    let key: RecordKey
    let message: String
}

/// A `Decoder`'s container as record values.
private struct DecodedRecord: RecordValues {
    let container: KeyedDecodingContainer<RecordKey>

    func number(_ key: RecordKey) throws(RecordProblem) -> Double? {
        do {
            return try container.decodeIfPresent(Double.self, forKey: key)
        } catch {
            throw RecordProblem(key: key, message: "not a number")
        }
    }

    func text(_ key: RecordKey) throws(RecordProblem) -> String? {
        do {
            return try container.decodeIfPresent(String.self, forKey: key)
        } catch {
            throw RecordProblem(key: key, message: "not a string")
        }
    }
}

/// The members of a flat JSON object as record values.
struct FlatJSONRecord: RecordValues {
    let members: [String: FlatJSON.Value]

    func number(_ key: RecordKey) throws(RecordProblem) -> Double? {
        switch members[key.rawValue] {
        case .number(let value)?: return value
        case .null?, nil: return nil
        default: throw RecordProblem(key: key, message: "not a number")
        }
    }

    func text(_ key: RecordKey) throws(RecordProblem) -> String? {
        switch members[key.rawValue] {
        case .string(let value)?: return value
        case .null?, nil: return nil
        default: throw RecordProblem(key: key, message: "not a string")
        }
    }
}
