import FoundationEssentials

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
    /// - Throws: `DecodingError.dataCorrupted` for a value out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func number(_ key: CodingKeys, in range: ClosedRange<Double> = -1e9...1e9) throws -> Double? {
            guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
            guard range.contains(value) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(value) is out of range")
            }
            return value
        }
        let metres = 0.0...1e9
        guard let latitude = try number(.latitude, in: -90...90), let longitude = try number(.longitude, in: -180...180) else {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: "a location needs lat and lon")
        }
        var time: Date?
        if let text = try container.decodeIfPresent(String.self, forKey: .time) {
            guard let parsed = UTCTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(forKey: .time, in: container, debugDescription: "not an ISO 8601 time")
            }
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
            mode: try container.decodeIfPresent(FixMode.self, forKey: .mode),
            satellitesUsed: satellites.map { Int($0) },
            device: try container.decodeIfPresent(String.self, forKey: .device).map { UntrustedText.visible($0, limit: 256) },
            source: try container.decodeIfPresent(LocationSource.self, forKey: .source) ?? .gpsd,
            accuracy: try container.decodeIfPresent(AccuracyAuthorization.self, forKey: .accuracy) ?? .fullAccuracy)
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
}
