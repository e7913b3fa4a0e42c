/// The keys of `locate`'s records, each spelled here once: the command's JSON, CSV and
/// `--format` fields, `Location`'s `Codable`, the last-fix cache, the JSON Lines of a replayed
/// track and a fleet's records all name their values through this table. A key is a spelling:
/// `state` is a place's state in a fix record and a region's state in a region record.
package enum RecordKey: String, CodingKey, CaseIterable, Sendable {
    // A fix record, in the order the command writes it.
    case type, time
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
    case climb, mode
    case satellitesUsed = "sats_used"
    case device, source, age, accuracy, reason
    case timedOut = "timed_out"
    // What the receiver said beyond the position, and whether the fix is believable.
    case fix, hdop, vdop, pdop, tdop, gdop
    case xAccuracy = "x_acc"
    case yAccuracy = "y_acc"
    case timeAccuracy = "time_acc"
    case heading
    case magneticVariation = "mag_var"
    case geoidSeparation = "geoid_sep"
    case integrity
    case integrityReason = "integrity_reason"
    // The place of a record (`--geocode`, and the template's tokens).
    case city, state, country
    case countryCode = "country_code"
    case timeZone = "timezone"
    case place, epoch
    // Region and visit records.
    case region, event, since, arrival, departure
    // Geocode records: the place's own point, its population, how far the point asked about is
    // from it, and for `--batch` the line that was no point and why.
    case placeLatitude = "place_lat"
    case placeLongitude = "place_lon"
    case population
    case distance = "distance_m"
    case line, error
    // Status records (`locate status`): how far the system clock is from the receiver's.
    case clockOffset = "clock_offset"
    // A day of the history (`locate history --days --json`).
    case date, points, places
    case movingSeconds = "moving_s"

    /// The fields of a fix record, in order (`--json`, `--csv`).
    package static let fixRecord: [RecordKey] = [
        .type, .time, .latitude, .longitude, .altitudeMSL, .altitudeHAE, .horizontalAccuracy, .verticalAccuracy, .speed, .speedAccuracy,
        .course, .courseAccuracy, .climb, .mode, .satellitesUsed, .device, .source, .age, .accuracy, .reason, .timedOut,
        .fix, .hdop, .vdop, .pdop, .tdop, .gdop, .xAccuracy, .yAccuracy, .timeAccuracy, .heading, .magneticVariation,
        .geoidSeparation, .integrity, .integrityReason,
    ]

    /// The fields `--geocode` adds to a fix record, in order.
    package static let placeFields: [RecordKey] = [.city, .state, .country, .countryCode, .timeZone]

    /// The decimals the command writes a number of this key with (coordinates 7, metres 0.1,
    /// speeds 0.01, degrees 0.1, seconds 0.1, counts 0), `nil` for a key that is no number.
    package var decimals: Int? {
        switch self {
        case .latitude, .longitude: 7
        case .altitudeMSL, .altitudeHAE, .horizontalAccuracy, .verticalAccuracy, .course, .courseAccuracy, .age: 1
        case .xAccuracy, .yAccuracy, .heading, .magneticVariation, .geoidSeparation: 1
        case .speed, .speedAccuracy, .climb, .hdop, .vdop, .pdop, .tdop, .gdop: 2
        case .timeAccuracy, .clockOffset: 3
        case .satellitesUsed, .epoch: 0
        default: nil
        }
    }
}
