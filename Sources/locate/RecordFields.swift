import FoundationEssentials
import GPSLocation

/// The value of one field of a record, before it is written in a format.
enum FieldValue: Equatable {
    case number(Double, decimals: Int)
    case text(String)
    case time(Date)
    case flag(Bool)
    case unknown
}

/// One field of a record: its name (the JSON key and CSV column) and how it is read off a location.
struct RecordField: Sendable {
    let name: String
    /// `"name":`, ready for a JSON object.
    let jsonKey: [UInt8]
    let value: @Sendable (Location, Date) -> FieldValue

    init(name: String, value: @escaping @Sendable (Location, Date) -> FieldValue) {
        self.name = name
        jsonKey = Array(FlatJSON.quoted(name).utf8) + [UInt8(ascii: ":")]
        self.value = value
    }
}

/// The fields of a record, in README's order. JSON, CSV and `--format` all write from this one
/// table, so they agree on names, units and precision (coordinates 7 decimals, metres 0.1,
/// speeds 0.01, degrees 0.1, seconds 0.1).
enum RecordFields {
    static let all: [RecordField] = [
        RecordField(name: "type") { _, _ in .text("fix") },
        RecordField(name: "time") { location, _ in location.time.map(FieldValue.time) ?? .unknown },
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
    /// Appends the value as bare text (numbers fixed-point, times ISO 8601, `true`/`false`).
    /// - Returns: `false`, appending nothing, when the value is unknown or has no text.
    func appendPlain(to bytes: inout [UInt8]) -> Bool {
        switch self {
        case .number(let value, let decimals): return NumberFormatting.append(value, decimals: decimals, to: &bytes)
        case .text(let text): bytes += text.utf8
        case .time(let date): return UTCTimestamp.append(date, to: &bytes)
        case .flag(let flag): bytes += flag ? Array("true".utf8) : Array("false".utf8)
        case .unknown: return false
        }
        return true
    }

    /// Appends the value as JSON: text and times quoted, numbers and flags bare, unknown `null`.
    func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .text(let text):
            FlatJSON.appendQuoted(text, to: &bytes)
        case .time:
            bytes.append(UInt8(ascii: "\""))
            _ = appendPlain(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        case .number, .flag, .unknown:
            if !appendPlain(to: &bytes) { bytes += Array("null".utf8) }
        }
    }
}
