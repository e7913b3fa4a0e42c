import FoundationEssentials
import LocateSupport

/// `Location` as `locate`'s JSON records write it: the same keys (`lat`, `lon`, `time`, `h_acc`,
/// ...), times as ISO 8601 text in UTC, unknown values as `null`. Decoding takes a record back
/// (extra keys such as `type` or `age` are ignored) and refuses what no fix can be: a latitude
/// or longitude out of range, a non-finite or negative accuracy, an unknown mode or source.
extension Location: Codable {
    enum CodingKeys: String, CodingKey {
        case time
        case latitude = "lat"
        case longitude = "lon"
        case altitudeMSL = "alt_msl"
        case altitudeHAE = "alt_hae"
        case horizontalAccuracy = "h_acc"
        case verticalAccuracy = "v_acc"
        case speed
        case speedAccuracy = "speed_acc"
        case course
        case courseAccuracy = "course_acc"
        case climb, hdop, mode
        case satellitesUsed = "sats_used"
        case device, source, accuracy
    }

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
    }

    /// A record's fields, checked: the one mapping from record keys to a `Location`, for
    /// `Decodable` and for the JSON Lines of a replayed track alike.
    init(record values: some RecordValues) throws(RecordProblem) {
        func number(_ key: CodingKeys, in range: ClosedRange<Double> = -1e9...1e9) throws(RecordProblem) -> Double? {
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
        let metres = 0.0...1e9
        guard let latitude = try number(.latitude, in: -90...90), let longitude = try number(.longitude, in: -180...180) else {
            throw RecordProblem(key: .latitude, message: "a location needs lat and lon")
        }
        var time: Date?
        if let text = try values.text(.time) {
            guard let parsed = UTCTimestamp.parse(text) else { throw RecordProblem(key: .time, message: "not an ISO 8601 time") }
            time = parsed
        }
        let satellites = try number(.satellitesUsed, in: 0...1000)
        self.init(
            latitude: latitude, longitude: longitude, time: time,
            altitudeMSL: try number(.altitudeMSL), altitudeHAE: try number(.altitudeHAE),
            horizontalAccuracy: try number(.horizontalAccuracy, in: metres), verticalAccuracy: try number(.verticalAccuracy, in: metres),
            speed: try number(.speed), speedAccuracy: try number(.speedAccuracy, in: metres),
            course: try number(.course, in: 0...360), courseAccuracy: try number(.courseAccuracy, in: 0...360),
            climb: try number(.climb), hdop: try number(.hdop, in: 0...1000),
            mode: try word(.mode, as: FixMode.self), satellitesUsed: satellites.map { Int($0) },
            device: try values.text(.device).map { UntrustedText.visible($0, limit: 256) },
            source: try word(.source, as: LocationSource.self) ?? .gpsd,
            accuracy: try word(.accuracy, as: AccuracyAuthorization.self) ?? .fullAccuracy)
    }
}

/// Where a record's values come from (a `Decoder`'s container, or the members `FlatJSON` read):
/// a number or a text for a key, `nil` when the key is missing or `null`.
protocol RecordValues {
    func number(_ key: Location.CodingKeys) throws(RecordProblem) -> Double?
    func text(_ key: Location.CodingKeys) throws(RecordProblem) -> String?
}

/// A record field that no fix can have, and why.
struct RecordProblem: Error {
    let key: Location.CodingKeys
    let message: String
}

/// A `Decoder`'s container as record values.
private struct DecodedRecord: RecordValues {
    let container: KeyedDecodingContainer<Location.CodingKeys>

    func number(_ key: Location.CodingKeys) throws(RecordProblem) -> Double? {
        do {
            return try container.decodeIfPresent(Double.self, forKey: key)
        } catch {
            throw RecordProblem(key: key, message: "not a number")
        }
    }

    func text(_ key: Location.CodingKeys) throws(RecordProblem) -> String? {
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

    func number(_ key: Location.CodingKeys) throws(RecordProblem) -> Double? {
        switch members[key.rawValue] {
        case .number(let value)?: return value
        case .null?, nil: return nil
        default: throw RecordProblem(key: key, message: "not a number")
        }
    }

    func text(_ key: Location.CodingKeys) throws(RecordProblem) -> String? {
        switch members[key.rawValue] {
        case .string(let value)?: return value
        case .null?, nil: return nil
        default: throw RecordProblem(key: key, message: "not a string")
        }
    }
}
