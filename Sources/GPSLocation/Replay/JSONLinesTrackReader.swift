import FoundationEssentials

/// `locate`'s JSON Lines as a track: each fix record (`"type":"fix"`, or no type) is a
/// `Location` decoded as ``Location`` decodes (the same keys as the records); other records
/// (status, region and visit events) are skipped; blank lines too. A line that is not a JSON
/// object, or a fix record with a value out of range, is an error on that line.
enum JSONLinesTrackReader {
    static func locations(in bytes: [UInt8]) throws(TrackProblem) -> [Location] {
        let decoder = JSONDecoder()
        var locations: [Location] = []
        for (number, line) in trackLines(bytes) {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            guard let members = FlatJSON.members(of: line) else { throw TrackProblem(line: number, reason: "not a JSON object") }
            if let type = members.first(where: { $0.key == "type" }), FlatJSON.scalar(type.value) != .string("fix") { continue }
            do {
                var location = try decoder.decode(Location.self, from: Data(line))
                location.source = .replay
                locations.append(location)
            } catch {
                throw TrackProblem(line: number, reason: "not a fix record (" + Self.reason(error) + ")")
            }
        }
        return locations
    }

    /// The decoding error in a few words.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let key = context.codingPath.last.map { "'\($0.stringValue)': " } ?? ""
            return key + context.debugDescription
        case DecodingError.keyNotFound(let key, _):
            return "no '\(key.stringValue)'"
        default:
            return "malformed"
        }
    }
}
