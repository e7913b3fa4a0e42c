import LocateSupport

/// `--geojson` (history): one GeoJSON FeatureCollection (RFC 7946), a `Point` feature per record
/// with `[longitude, latitude]` (and the altitude above mean sea level when known) as its
/// coordinates and the record's `--json` fields as its properties; a feature a line.
struct GeoJSONFormat: OutputFormat {
    private var json: JSONFormat
    private var isFirst = true

    /// - Parameter fields: the properties of each feature (`RecordKind.fields(includingPlaces:)`).
    init(fields: [RecordField]) {
        json = JSONFormat(includesEvents: false, fields: fields)
    }

    mutating func prologue(to output: inout [UInt8]) {
        output += #"{"type":"FeatureCollection","features":["#.utf8 + [UInt8(ascii: "\n")]
    }

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        if !isFirst { output += ",\n".utf8 }
        isFirst = false
        output += #"{"type":"Feature","geometry":{"type":"Point","coordinates":["#.utf8
        let location = source.location
        _ = NumberFormatting.append(location.longitude, decimals: 7, to: &output)
        output.append(UInt8(ascii: ","))
        _ = NumberFormatting.append(location.latitude, decimals: 7, to: &output)
        if let altitude = location.altitudeMSL {
            output.append(UInt8(ascii: ","))
            _ = NumberFormatting.append(altitude, decimals: 1, to: &output)
        }
        output += #"]},"properties":"#.utf8
        var properties: [UInt8] = []
        _ = json.record(source, to: &properties)
        if properties.last == UInt8(ascii: "\n") { properties.removeLast() }
        output += properties
        output.append(UInt8(ascii: "}"))
        return true
    }

    mutating func epilogue(to output: inout [UInt8]) {
        output += (isFirst ? "]}\n" : "\n]}\n").utf8
    }
}
