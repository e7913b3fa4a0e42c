import LocateFormats

/// Recognizing gpsd's reply to `?POLL;`, which libgps does not parse itself (libgps 3.22 through
/// 3.27 has no POLL case): its first TPV and SKY objects are cut out (`FlatJSON.firstObject`) and
/// unpacked one by one. It works on the line's bytes, as they came from the socket.
enum PollResponse {
    private static let prefix = GPSDReports.start(.poll)

    /// Whether `line` is a POLL reply.
    static func isPoll(_ line: some Collection<UInt8>) -> Bool {
        line.starts(with: prefix)
    }
}
