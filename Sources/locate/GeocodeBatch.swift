import GPSLocation
import GPSLocationPlaces
import LocateFormats
import LocateSupport

/// `locate geocode --batch`: reads points from stdin and writes one record per input line, in
/// order, with the same place `locate geocode LAT LON` names (the index is loaded once).
///
/// - Text: the place as "city, state, country"; an empty line when no place is within
///   `PlaceFinder.regionRange` or the line is not a point (with a message on stderr naming the
///   line).
/// - `--json`: `{"lat":…,"lon":…,"city":…,"state":…,"country":…,"country_code":…,"timezone":…,"distance_m":…}`;
///   a JSON object read (such as a record of `locate --json`) is written back with those
///   fields added (replacing any it had), and `locate`'s status events as they are. A line that
///   is not a point is `{"line":N,"error":"…"}`.
/// - `--csv`: the same columns, then `error`.
///
/// A line that is not a point never stops the batch: status 65 (EX_DATAERR) at the end, with a
/// message counting them. Output goes out as input comes in (what one read of stdin brings), in
/// writes of whole lines no larger than a pipe writes at once, so an interrupted batch never
/// leaves half a line.
struct GeocodeBatch {
    let finder: PlaceFinder
    let format: GeocodeCommand.Format

    /// The CSV columns.
    static let columns =
        [RecordKey.latitude.rawValue, RecordKey.longitude.rawValue] + GeocodeCommand.nameFields(nil).map(\.name)
        + [GeocodeCommand.distanceField(nil).name, RecordKey.error.rawValue]

    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        var output: [UInt8] = []
        if case .csv(header: true) = format { CSVFormat.appendRow(Self.columns.map { .text($0) }, to: &output) }
        var pending: [UInt8] = []
        var lineNumber = 0
        var isSkippingLongLine = false
        var invalid: (count: Int, first: String?) = (0, nil)
        func process(_ line: ArraySlice<UInt8>?) {
            lineNumber += 1
            let parsed = line.map(BatchLine.init) ?? .invalid("longer than \(BatchLine.maximumLength) bytes")
            if case .invalid(let reason) = parsed {
                invalid.count += 1
                if invalid.first == nil { invalid.first = "line \(lineNumber): \(reason)" }
            }
            write(parsed, lineNumber: lineNumber, to: &output)
        }
        while true {
            let chunk: [UInt8]
            do throws(StandardStreams.InputError) {
                chunk = try StandardStreams.readInput()
            } catch {
                try StandardStreams.writeLines(output[...])
                StandardStreams.diagnose(error.description)
                return .ioError
            }
            if chunk.isEmpty { break }
            pending += chunk
            var start = 0
            while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if isSkippingLongLine {
                    isSkippingLongLine = false
                } else {
                    process(end - start > BatchLine.maximumLength ? nil : pending[start..<end])
                }
                start = end + 1
            }
            pending.removeFirst(start)
            if pending.count > BatchLine.maximumLength {
                if !isSkippingLongLine { process(nil) }
                isSkippingLongLine = true
                pending.removeAll()
            }
            try StandardStreams.writeLines(output[...])
            output.removeAll(keepingCapacity: true)
        }
        if !pending.isEmpty, !isSkippingLongLine { process(pending[...]) }
        try StandardStreams.writeLines(output[...])
        guard let first = invalid.first else { return .success }
        StandardStreams.diagnose("\(invalid.count) of \(lineNumber) lines were not points (the first: \(first))")
        return .dataError
    }

    /// Appends the record of one input line.
    private func write(_ line: BatchLine, lineNumber: Int, to output: inout [UInt8]) {
        switch line {
        case .point(let latitude, let longitude, let members):
            let place = finder.reverseGeocode(latitude: latitude, longitude: longitude)
            let fields = GeocodeCommand.nameFields(place) + [GeocodeCommand.distanceField(place)]
            switch format {
            case .text:
                output += UntrustedText.visible(place?.formatted ?? "").utf8
                output.append(UInt8(ascii: "\n"))
            case .json:
                var object = JSONObjectWriter(appendingTo: output)
                output = []
                if let members {
                    let replaced = Set(fields.map(\.name))
                    for member in members where !replaced.contains(member.key) {
                        object.add(member.key) { FlatJSON.appendEscapingHidden(member.value, to: &$0) }
                    }
                } else {
                    object.add(RecordKey.latitude.rawValue, .number(latitude, decimals: 7))
                    object.add(RecordKey.longitude.rawValue, .number(longitude, decimals: 7))
                }
                for field in fields { object.add(field.name, field.value) }
                output = object.finishLine()
            case .csv:
                let point: [FieldValue] = [.number(latitude, decimals: 7), .number(longitude, decimals: 7)]
                CSVFormat.appendRow(point + fields.map(\.value) + [.unknown], to: &output)
            }
        case .passthrough(let bytes):
            switch format {
            case .json:
                FlatJSON.appendEscapingHidden(bytes, to: &output)
                output.append(UInt8(ascii: "\n"))
            case .text: output.append(UInt8(ascii: "\n"))
            case .csv: CSVFormat.appendRow(Self.columns.map { _ in .unknown }, to: &output)
            }
        case .invalid(let reason):
            switch format {
            case .text:
                StandardStreams.diagnose("line \(lineNumber): \(reason)")
                output.append(UInt8(ascii: "\n"))
            case .json:
                var object = JSONObjectWriter(appendingTo: output)
                output = []
                object.add(RecordKey.line.rawValue, .number(Double(lineNumber), decimals: 0))
                object.add(RecordKey.error.rawValue, .text(reason))
                output = object.finishLine()
            case .csv:
                CSVFormat.appendRow(Self.columns.dropLast().map { _ in .unknown } + [.text("line \(lineNumber): \(reason)")], to: &output)
            }
        }
    }
}
