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
        object.add("time", .text(UTCTimestamp.iso8601(now)))
        for detail in event.details {
            object.add(detail.key, detail.value)
        }
        object.add("message", .text(event.message))
        return .event(object.text)
    }
}

/// Builds one JSON object on one line. Keys are written in the order they are added.
struct JSONObjectWriter {
    private var members: [String] = []

    var text: String { "{" + members.joined(separator: ",") + "}" }

    mutating func add(_ key: String, _ value: FieldValue) {
        let rendered: String
        switch value {
        case .text(let text): rendered = Self.quoted(text)
        case .unknown: rendered = "null"
        case .number, .flag: rendered = value.plainText ?? "null"
        }
        members.append(Self.quoted(key) + ":" + rendered)
    }

    mutating func add(_ key: String, string value: String?) {
        add(key, value.map(FieldValue.text) ?? .unknown)
    }

    mutating func add(_ key: String, bool value: Bool) {
        add(key, .flag(value))
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
