import FoundationEssentials
import GPSLocation
import LocateFormats
import LocateSupport

/// `--csv`: RFC 4180. A header line (unless `--no-header`), then one row per record with the
/// JSON fields as columns; unknown values are empty, and fields are quoted when they need it.
struct CSVFormat: OutputFormat {
    let includesHeader: Bool
    /// The columns (`RecordKind.fields(includingPlaces:)`).
    let fields: [RecordField]
    let needsPlaces: Bool

    init(includesHeader: Bool, fields: [RecordField] = RecordFields.all) {
        self.includesHeader = includesHeader
        self.fields = fields
        needsPlaces = fields.contains { $0.key == .city }
    }

    mutating func prologue(to output: inout [UInt8]) {
        guard includesHeader else { return }
        Self.appendRow(fields.map { .text($0.name) }, to: &output)
    }

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        Self.appendRow(fields.map { $0.value(source) }, to: &output)
        return true
    }

    /// One row and its line end: the values in order, text quoted when it needs it, unknown
    /// values empty.
    static func appendRow(_ values: [FieldValue], to output: inout [UInt8]) {
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch value {
            case .text(let text): appendField(text, to: &output)
            default: _ = value.appendPlain(to: &output)
            }
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// A field as RFC 4180 wants it, its hidden scalars made visible first (`UntrustedText`, so
    /// a line break is the text `\u{0A}`): in double quotes (inner quotes doubled) when it has a
    /// comma or a quote.
    private static func appendField(_ field: String, to output: inout [UInt8]) {
        let text = UntrustedText.visible(field)
        guard
            text.utf8.contains(where: {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
            })
        else {
            output += text.utf8
            return
        }
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            output.append(byte)
            if byte == UInt8(ascii: "\"") { output.append(byte) }
        }
        output.append(UInt8(ascii: "\""))
    }
}
