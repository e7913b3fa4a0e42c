import LocateFormats
import LocateSupport

/// `locate`'s JSON Lines as a track, read as it comes (also OwnTracks location records, and
/// either kind after a topic, as `mosquitto_sub -v` writes messages): each fix record (`"type":"fix"`, or no
/// type) is a `Location` read as ``Location`` decodes one (the same keys, checked the same way);
/// other records (status, region and visit events, the fallback coordinate) are skipped, and blank lines
/// too. A line that is not a flat JSON object, or a fix record with a value out of range, is an
/// error on that line. Lines may end in CRLF, and the file may start with a byte-order mark.
///
/// A replayed point is data, not a permission: its `accuracy` (what a recording run was allowed)
/// is not taken over, so a point recorded under reduced accuracy is a point whose accuracy is its
/// `h_acc`, like any other.
struct JSONLinesTrackReader {
    private var lines: TrackLines

    init(_ input: TrackInput) {
        lines = TrackLines(input)
    }

    /// The next fix, or `nil` at the end.
    /// - Throws: `TrackProblem` for a line that is not a fix record or input that cannot be read.
    mutating func next() throws(TrackProblem) -> Location? {
        while let (number, whole) = try lines.next() {
            guard let start = whole.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            // A `mosquitto_sub -v` line: its payload after the topic.
            let line = whole[start] == UInt8(ascii: "{") ? whole[start...] : whole[start...].drop { $0 != 0x20 }.dropFirst()
            guard let members = FlatJSON.parse(Array(line)) else {
                throw TrackProblem(line: number, reason: "not a flat JSON object")
            }
            if let type = members[OwnTracks.Key.type.rawValue] {
                // OwnTracks: its location records, and nothing of its other types.
                guard type == .string("location") else { continue }
                do throws(DeviceRecordProblem) {
                    return try DeviceLocation.ownTracksLocation(members)
                } catch {
                    throw TrackProblem(line: number, reason: error.description)
                }
            }
            if let type = members["type"], type != .string("fix") { continue }
            // The fallback stands in for a position; it is not one the receiver had.
            if members["source"] == .string("fallback") { continue }
            do throws(RecordProblem) {
                var location = try Location(record: FlatJSONRecord(members: members))
                location.source = .replay
                location.accuracy = .fullAccuracy
                return location
            } catch {
                throw TrackProblem(line: number, reason: "not a fix record ('\(error.key.rawValue)': \(error.message))")
            }
        }
        return nil
    }
}
