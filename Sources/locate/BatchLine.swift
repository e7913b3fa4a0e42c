import GPSLocation
import LocateFormats
import LocateSupport

/// One line of `locate geocode --batch`'s input: a point, a record of `locate` that is not a
/// point (a status event, passed through), or something that is not a point, with what is wrong.
enum BatchLine {
    /// A point: `LAT LON` or `LAT,LON` (decimal degrees, `.` as the decimal point), or a JSON
    /// object with numbers `lat` and `lon`, whose members are kept to be written back.
    case point(latitude: Double, longitude: Double, members: [(key: String, value: ArraySlice<UInt8>)]?)
    /// `locate`'s own status event (`"type":"status"`), written back as it is.
    case passthrough(ArraySlice<UInt8>)
    /// Not a point; the words say why.
    case invalid(String)

    /// The longest line read, in bytes.
    static let maximumLength = 64 * 1024

    /// The line in `bytes` (without its line end; a trailing carriage return is allowed).
    init(_ bytes: ArraySlice<UInt8>) {
        let line = Self.trimmed(bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes)
        if line.first == UInt8(ascii: "{") {
            self = Self.object(line)
        } else {
            self = Self.pair(line)
        }
    }

    /// `LAT LON` (spaces or tabs between) or `LAT,LON` (spaces allowed around the comma).
    private static func pair(_ line: ArraySlice<UInt8>) -> BatchLine {
        guard !line.isEmpty else { return .invalid("an empty line") }
        let words: [ArraySlice<UInt8>]
        if line.contains(UInt8(ascii: ",")) {
            words = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(trimmed)
        } else {
            words = line.split(whereSeparator: isSpace)
        }
        guard words.count == 2, words.allSatisfy({ !$0.isEmpty && !$0.contains(where: isSpace) }) else {
            return .invalid("not LAT LON or LAT,LON: '\(UntrustedText.visible(String(decoding: line, as: UTF8.self), limit: 60))'")
        }
        return coordinate(String(decoding: words[0], as: UTF8.self), String(decoding: words[1], as: UTF8.self))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `bytes` without spaces and tabs at either end.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
        return bytes
    }

    /// A JSON object with `lat` and `lon`.
    private static func object(_ line: ArraySlice<UInt8>) -> BatchLine {
        guard let members = FlatJSON.members(of: line) else { return .invalid("not a JSON object (or one with a key twice)") }
        func scalar(_ key: String) -> FlatJSON.Value? {
            members.first { $0.key == key }.flatMap { FlatJSON.scalar($0.value) }
        }
        if scalar(RecordKey.type.rawValue) == .string("status"), scalar(RecordKey.latitude.rawValue) == nil { return .passthrough(line) }
        guard case .number(let latitude) = scalar(RecordKey.latitude.rawValue),
            case .number(let longitude) = scalar(RecordKey.longitude.rawValue)
        else {
            return .invalid("a JSON object without numbers \"lat\" and \"lon\"")
        }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            return .invalid("not a coordinate: \(NumberFormatting.plain(latitude)), \(NumberFormatting.plain(longitude))")
        }
        return .point(latitude: latitude, longitude: longitude, members: members)
    }

    private static func coordinate(_ latitude: String, _ longitude: String) -> BatchLine {
        do throws(NumberError) {
            return .point(
                latitude: try NumericText.number(latitude, in: -90...90), longitude: try NumericText.number(longitude, in: -180...180),
                members: nil)
        } catch {
            return .invalid("not a coordinate: '\(UntrustedText.visible(error.text, limit: 40))' (expected \(error.expected))")
        }
    }
}
