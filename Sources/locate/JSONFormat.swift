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
    /// Every field's `"key":`, one after the other, and where each ends: made once, so that a
    /// record's keys are copied from one buffer (a key of its own per field would be an array
    /// retained and released for every field of every record).
    private let keys: [UInt8]
    private let keyEnds: [Int]
    /// Each number field's decimals (its key's).
    private let decimals: [Int]

    init(includesEvents: Bool, fields: [RecordField] = RecordFields.all) {
        self.includesEvents = includesEvents
        self.fields = fields
        needsPlaces = fields.contains { $0.key == .city }
        var keys: [UInt8] = []
        keyEnds = fields.map { field in
            FlatJSON.appendQuoted(field.name, to: &keys)
            keys.append(UInt8(ascii: ":"))
            return keys.count
        }
        self.keys = keys
        decimals = fields.map { $0.key.decimals ?? 0 }
    }

    /// About what a record takes, so that its line is written without growing the buffer.
    private static let recordCapacity = 1024

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        if output.capacity - output.count < Self.recordCapacity {
            // Doubling, as appending would: reserving exactly what one record needs would copy
            // the whole batch for every record.
            output.reserveCapacity(max(output.capacity * 2, output.count + Self.recordCapacity))
        }
        output.append(UInt8(ascii: "{"))
        var keyStart = 0
        for index in fields.indices {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            let keyEnd = keyEnds[index]
            for position in keyStart..<keyEnd { output.append(keys[position]) }
            keyStart = keyEnd
            if let number = fields[index].number {
                if let value = number(source), NumberFormatting.append(value, decimals: decimals[index], to: &output) { continue }
                output += FieldValue.nullText
            } else {
                fields[index].value(source).appendJSON(to: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
        output.append(UInt8(ascii: "\n"))
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
