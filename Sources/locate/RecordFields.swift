import FoundationEssentials
import GPSLocation

/// The value of one field of a record, before it is written in a format.
enum FieldValue: Equatable {
    case number(Double, decimals: Int)
    case text(String)
    case flag(Bool)
    case unknown
}

/// One field of a record: its name (the JSON key and CSV column) and how it is read off a location.
struct RecordField: Sendable {
    let name: String
    let value: @Sendable (Location, Date) -> FieldValue
}

/// The fields of a record, in README's order. JSON, CSV and `--format` all write from this one
/// table, so they agree on names, units and precision (coordinates 7 decimals, metres 0.1,
/// speeds 0.01, degrees 0.1, seconds 0.1).
enum RecordFields {
    static let all: [RecordField] = [
        RecordField(name: "type") { _, _ in .text("fix") },
        RecordField(name: "time") { location, _ in location.time.flatMap(UTCTimestamp.iso8601).map(FieldValue.text) ?? .unknown },
        RecordField(name: "lat") { location, _ in .number(location.latitude, decimals: 7) },
        RecordField(name: "lon") { location, _ in .number(location.longitude, decimals: 7) },
        RecordField(name: "alt_msl") { location, _ in number(location.altitudeMSL, 1) },
        RecordField(name: "alt_hae") { location, _ in number(location.altitudeHAE, 1) },
        RecordField(name: "h_acc") { location, _ in number(location.horizontalAccuracy, 1) },
        RecordField(name: "v_acc") { location, _ in number(location.verticalAccuracy, 1) },
        RecordField(name: "speed") { location, _ in number(location.speed, 2) },
        RecordField(name: "speed_acc") { location, _ in number(location.speedAccuracy, 2) },
        RecordField(name: "course") { location, _ in number(location.course, 1) },
        RecordField(name: "course_acc") { location, _ in number(location.courseAccuracy, 1) },
        RecordField(name: "climb") { location, _ in number(location.climb, 2) },
        RecordField(name: "mode") { location, _ in location.mode.map { .text($0.rawValue) } ?? .unknown },
        RecordField(name: "sats_used") { location, _ in number(location.satellitesUsed.map(Double.init), 0) },
        RecordField(name: "device") { location, _ in location.device.map(FieldValue.text) ?? .unknown },
        RecordField(name: "source") { location, _ in .text(location.source.rawValue) },
        RecordField(name: "age") { location, now in number(location.age(at: now), 1) },
        RecordField(name: "accuracy") { location, _ in .text(location.accuracy.rawValue) },
        RecordField(name: "reason") { location, _ in location.reason.map { .text($0.rawValue) } ?? .unknown },
        RecordField(name: "timed_out") { location, _ in .flag(location.timedOut) },
    ]

    /// The field named `name`.
    static func named(_ name: String) -> RecordField? {
        all.first { $0.name == name }
    }

    private static func number(_ value: Double?, _ decimals: Int) -> FieldValue {
        value.map { .number($0, decimals: decimals) } ?? .unknown
    }
}

extension FieldValue {
    /// The value as bare text (numbers fixed-point, `true`/`false`), or `nil` when unknown.
    var plainText: String? {
        switch self {
        case .number(let value, let decimals): NumberFormatting.fixed(value, decimals: decimals)
        case .text(let text): text
        case .flag(let flag): flag ? "true" : "false"
        case .unknown: nil
        }
    }
}
