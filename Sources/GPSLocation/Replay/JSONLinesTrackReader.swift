/// `locate`'s JSON Lines as a track: each fix record (`"type":"fix"`, or no type) is a
/// `Location` read as ``Location`` decodes one (the same keys, checked the same way); other
/// records (status, region and visit events) are skipped, and blank lines too. A line that is
/// not a flat JSON object, or a fix record with a value out of range, is an error on that line.
/// Lines may end in CRLF, and the file may start with a byte-order mark.
enum JSONLinesTrackReader {
    static func locations(in bytes: [UInt8]) throws(TrackProblem) -> [Location] {
        var locations: [Location] = []
        // A fix a line at most: room for them at once (a grown array and its copy never coexist).
        locations.reserveCapacity(bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 })
        var problem: TrackProblem?
        forEachLine(of: bytes) { number, lineRange in
            // A byte-order mark before the first line is the file's, not the record's.
            var range = lineRange
            if number == 1, bytes[range].starts(with: [0xEF, 0xBB, 0xBF]) { range = (range.lowerBound + 3)..<range.upperBound }
            guard bytes[range].contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return true }
            guard let members = FlatJSON.parse(Array(bytes[range])) else {
                problem = TrackProblem(line: number, reason: "not a flat JSON object")
                return false
            }
            if let type = members["type"], type != .string("fix") { return true }
            do throws(RecordProblem) {
                var location = try Location(record: FlatJSONRecord(members: members))
                location.source = .replay
                locations.append(location)
                return true
            } catch {
                problem = TrackProblem(line: number, reason: "not a fix record ('\(error.key.rawValue)': \(error.message))")
                return false
            }
        }
        if let problem { throw problem }
        return locations
    }
}
