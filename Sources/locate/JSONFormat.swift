import FoundationEssentials
import GPSLocation
import LocateFormats
import LocateSupport

/// `--json`: one object per line, numbers as numbers and unknown values as `null`; with
/// `--events`, status events join the stream as `{"type":"status",...}` objects.
struct JSONFormat: OutputFormat {
    let includesEvents: Bool
    /// The fields of a record (`RecordKind.fields(includingPlaces:)`).
    let fields: [RecordField]
    let needsPlaces: Bool

    init(includesEvents: Bool, fields: [RecordField] = RecordFields.all) {
        self.includesEvents = includesEvents
        self.fields = fields
        needsPlaces = fields.contains { $0.key == .city }
    }

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        var object = JSONObjectWriter(appendingTo: output)
        output = []
        for field in fields {
            object.add(encodedKey: field.jsonKey) { field.value(source).appendJSON(to: &$0) }
        }
        output = object.finishLine()
        return true
    }

    mutating func status(_ event: StatusEvent, now: Date, to output: inout [UInt8]) -> StatusOutput {
        guard includesEvents else { return .none }
        var object = JSONObjectWriter(appendingTo: output)
        output = []
        object.add("type", .text("status"))
        object.add("event", .text(event.name))
        object.add("time", .time(now))
        for detail in event.details {
            object.add(detail.key, detail.value)
        }
        object.add("message", .text(event.message))
        output = object.finishLine()
        return .event
    }
}

extension JSONObjectWriter {
    /// Adds a record field: text and times quoted, numbers and flags as they are, unknown as `null`.
    mutating func add(_ key: String, _ value: FieldValue) {
        add(key) { value.appendJSON(to: &$0) }
    }
}
