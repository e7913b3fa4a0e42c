import FoundationEssentials
import GPSLocation

/// `--json`: one object per line, numbers as numbers and unknown values as `null`; with
/// `--events`, status events join the stream as `{"type":"status",...}` objects.
struct JSONFormat: OutputFormat {
    let includesEvents: Bool

    mutating func record(_ location: Location, now: Date) -> String? {
        var object = JSONObjectWriter()
        for field in RecordFields.all {
            object.add(field.name, field.value(location, now))
        }
        return object.text
    }

    mutating func status(_ event: StatusEvent, now: Date) -> StatusOutput {
        guard includesEvents else { return .none }
        var object = JSONObjectWriter()
        object.add("type", .text("status"))
        object.add("event", .text(event.name))
        object.add("time", string: UTCTimestamp.iso8601(now))
        for detail in event.details {
            object.add(detail.key, detail.value)
        }
        object.add("message", .text(event.message))
        return .event(object.text)
    }
}

extension JSONObjectWriter {
    /// Adds a record field: text quoted, numbers and flags as they are, unknown as `null`.
    mutating func add(_ key: String, _ value: FieldValue) {
        switch value {
        case .text(let text): add(key, string: text)
        case .unknown: add(key, json: "null")
        case .number, .flag: add(key, json: value.plainText ?? "null")
        }
    }
}
