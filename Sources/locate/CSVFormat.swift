import FoundationEssentials
import GPSLocation

/// `--csv`: RFC 4180. A header line (unless `--no-header`), then one row per record with the
/// JSON fields as columns; unknown values are empty, and fields are quoted when they need it.
struct CSVFormat: OutputFormat {
    let includesHeader: Bool

    mutating func prologue() -> String? {
        includesHeader ? RecordFields.all.map(\.name).joined(separator: ",") : nil
    }

    mutating func record(_ location: Location, now: Date) -> String? {
        RecordFields.all.map { Self.field($0.value(location, now).plainText ?? "") }.joined(separator: ",")
    }

    /// A field as RFC 4180 wants it: in double quotes (inner quotes doubled) when it has a comma,
    /// a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
