import LocateFormats

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
            do throws(PositionMessage.Problem) {
                guard let message = try PositionMessage(json: line) else { continue }
                return try Location(replaying: message)
            } catch {
                throw TrackProblem(line: number, reason: error.description)
            }
        }
        return nil
    }
}
