import FoundationEssentials
import GPSLocation

/// How fixes become lines on stdout. One value per run; `record` is called once per fix.
protocol RecordFormat: Sendable {
    /// The text of one record, without the line end.
    func record(_ location: Location, now: Date) -> String
}

/// The default: `latitude longitude` with six decimals, ready for `read lat lon`.
struct TextRecordFormat: RecordFormat {
    func record(_ location: Location, now: Date) -> String {
        (NumberFormatting.fixed(location.latitude, decimals: 6) ?? "") + " "
            + (NumberFormatting.fixed(location.longitude, decimals: 6) ?? "")
    }
}

/// `--json`: one object per line, numbers as numbers and unknown values as `null`.
/// The fields and their order are README's "JSON records" table.
struct JSONRecordFormat: RecordFormat {
    func record(_ location: Location, now: Date) -> String {
        var object = JSONObjectWriter()
        object.add("type", string: "fix")
        object.add("time", string: location.time.map(UTCTimestamp.iso8601))
        object.add("lat", number: location.latitude, decimals: 7)
        object.add("lon", number: location.longitude, decimals: 7)
        object.add("alt_msl", number: location.altitudeMSL, decimals: 1)
        object.add("alt_hae", number: location.altitudeHAE, decimals: 1)
        object.add("h_acc", number: location.horizontalAccuracy, decimals: 1)
        object.add("v_acc", number: location.verticalAccuracy, decimals: 1)
        object.add("speed", number: location.speed, decimals: 2)
        object.add("speed_acc", number: location.speedAccuracy, decimals: 2)
        object.add("course", number: location.course, decimals: 1)
        object.add("course_acc", number: location.courseAccuracy, decimals: 1)
        object.add("climb", number: location.climb, decimals: 2)
        object.add("mode", string: location.mode?.rawValue)
        object.add("sats_used", number: location.satellitesUsed.map(Double.init), decimals: 0)
        object.add("device", string: location.device)
        object.add("source", string: location.source.rawValue)
        object.add("age", number: location.age(at: now), decimals: 1)
        object.add("accuracy", string: location.accuracy.rawValue)
        object.add("reason", string: location.reason?.rawValue)
        object.add("timed_out", bool: location.timedOut)
        return object.text
    }
}

/// Builds one JSON object on one line. Keys are written in the order they are added.
struct JSONObjectWriter {
    private var members: [String] = []

    var text: String { "{" + members.joined(separator: ",") + "}" }

    mutating func add(_ key: String, string value: String?) {
        members.append(Self.quoted(key) + ":" + (value.map(Self.quoted) ?? "null"))
    }

    mutating func add(_ key: String, number value: Double?, decimals: Int) {
        members.append(Self.quoted(key) + ":" + (value.flatMap { NumberFormatting.fixed($0, decimals: decimals) } ?? "null"))
    }

    mutating func add(_ key: String, bool value: Bool) {
        members.append(Self.quoted(key) + ":" + (value ? "true" : "false"))
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
