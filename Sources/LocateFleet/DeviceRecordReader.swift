package import GPSLocation
import LocateFormats
import LocateSupport

/// A fleet's records, one a line, as they come: `mosquitto_sub -v` lines (topic, space, JSON
/// payload) or JSON objects alone (OwnTracks locations, `locate`'s fix records), mixed freely
/// (``DeviceLocation/parse(line:by:)``). Read in one pass, never held whole: a line is handed out
/// as soon as it is read, and memory is bounded by a chunk and the longest line (1 MiB).
///
/// A line that is not a position of a device is skipped and said (``DeviceRecord/skipped(line:reason:)``),
/// so one device publishing garbage does not stop the others; a record that is not a position
/// (another OwnTracks type, a status record) is skipped without a word.
///
/// - Important: ``next()`` blocks until a line comes: call it on a thread of its own, never on
///   the cooperative pool.
package struct DeviceRecordReader: DeviceRecordSource {
    private var lines: TrackLines
    /// What messages call the input.
    package let name: String
    private let key: DeviceKey

    /// The records on `descriptor` (a pipe, such as standard input; not closed), devices named by `key`.
    package init(readingFrom descriptor: Int32, name: String, by key: DeviceKey) {
        lines = TrackLines(TrackInput(descriptor: descriptor, owned: false, wakeUp: nil, shouldStop: { false }))
        self.name = name
        self.key = key
    }

    /// The records in the file at `path`.
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)`` when it cannot be read.
    package init(contentsOf path: String, by key: DeviceKey) throws(GPSLocationError) {
        let opened: ChunkedInput?
        do throws(TrustedFile.Refusal) {
            opened = try ChunkedInput.open(path, owner: .anyone, limit: ReplayTrack.maximumFileSize)
        } catch {
            throw .invalidTrack(file: path, line: nil, reason: error.description)
        }
        guard let opened else { throw .invalidTrack(file: path, line: nil, reason: "no such file") }
        lines = TrackLines(TrackInput(opened))
        name = path
        self.key = key
    }

    /// The next position or skipped line, or `nil` at the end of the input (blocks until a line
    /// comes).
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)`` when the input cannot be
    ///   read, or a line is longer than 1 MiB (the reading cannot go on past it).
    package mutating func next() throws(GPSLocationError) -> DeviceRecord? {
        while true {
            let line: (number: Int, bytes: ArraySlice<UInt8>)?
            do throws(TrackProblem) {
                line = try lines.next()
            } catch {
                throw .invalidTrack(file: name, line: error.line, reason: error.reason)
            }
            guard let (number, bytes) = line else { return nil }
            do throws(DeviceRecordProblem) {
                if let location = try DeviceLocation.parse(line: bytes, by: key) { return .location(location) }
            } catch {
                return .skipped(line: number, reason: error.description)
            }
        }
    }
}
