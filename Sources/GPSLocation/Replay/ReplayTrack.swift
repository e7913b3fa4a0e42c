/// A recorded track to play back instead of gpsd (``GPSLocationManager/init(replaying:speed:)``):
/// its fixes in the order of the file, each marked ``LocationSource/replay``.
///
/// Three formats are read, told apart by their first bytes: GPX 1.1 (`<`: the points of its
/// tracks, or else of its routes, or else its waypoints), NMEA 0183 logs (`$`: RMC and GGA
/// sentences, one fix per epoch; sentences with a wrong checksum or without a fix are skipped,
/// as gpsd skips them) and `locate`'s own JSON Lines (`{`: fix records; other record types such
/// as status events are skipped). `#` comment lines at the start (gpsd's receiver logs have
/// them) are skipped. A point without a stated accuracy is taken as exact; otherwise, as
/// `locate`'s design has it, its `hdop` (GPX, NMEA GGA) is its accuracy in metres (a track file
/// carries no better estimate: GPX has no accuracy field), and a record's `h_acc` is its
/// accuracy.
public struct ReplayTrack: Sendable, Hashable {
    /// The fixes, in file order.
    public let locations: [Location]

    /// The largest file read, 256 MiB (some three million fixes of JSON Lines).
    public static let maximumFileSize = 256 << 20

    /// A track of a host's own locations (each marked as replayed).
    public init(locations: [Location]) {
        self.locations = locations.map { location in
            var replayed = location
            replayed.source = .replay
            return replayed
        }
    }

    /// Reads the track in the file at `path`.
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)`` when it cannot be read
    ///   (missing, not a regular file, larger than ``maximumFileSize``), is in none of the
    ///   formats, has a malformed point, or has no fix at all.
    public init(contentsOf path: String) throws(GPSLocationError) {
        let bytes: [UInt8]?
        do throws(TrustedFile.Refusal) {
            bytes = try TrustedFile.read(path, owner: .anyone, limit: Self.maximumFileSize)
        } catch {
            throw .invalidTrack(file: path, line: nil, reason: error.description)
        }
        guard let bytes else { throw .invalidTrack(file: path, line: nil, reason: "no such file") }
        try self.init(parsing: bytes, name: path)
    }

    /// Reads a track from the bytes of a file; `name` is what errors call it.
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)``.
    public init(parsing bytes: [UInt8], name: String) throws(GPSLocationError) {
        let locations: [Location]
        let first = Self.firstByte(of: bytes)
        do throws(TrackProblem) {
            switch first {
            case UInt8(ascii: "<"): locations = try GPXTrackReader.locations(in: bytes)
            case UInt8(ascii: "$"), UInt8(ascii: "!"): locations = try NMEATrackReader.locations(in: bytes)
            case UInt8(ascii: "{"): locations = try JSONLinesTrackReader.locations(in: bytes)
            default: throw TrackProblem(line: nil, reason: "not GPX, NMEA 0183 or JSON Lines")
            }
            guard !locations.isEmpty else { throw TrackProblem(line: nil, reason: "has no fix") }
        } catch {
            throw .invalidTrack(file: name, line: error.line, reason: error.reason)
        }
        self.locations = locations
    }
}

extension ReplayTrack {
    /// The first byte that says the format: after white space, a byte-order mark, and the `#`
    /// comment lines gpsd's receiver logs begin with.
    fileprivate static func firstByte(of bytes: [UInt8]) -> UInt8? {
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF:
                index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            default:
                return bytes[index]
            }
        }
        return nil
    }
}

/// What is wrong with a track, and on which line (1-based), before the file's name is added.
struct TrackProblem: Error {
    let line: Int?
    let reason: String
}

/// Calls `body` with each line of a file's bytes (ended by `\n`, `\r\n` or `\r`), its 1-based
/// number and its range without the line end, until `body` returns `false`.
func forEachLine(of bytes: [UInt8], _ body: (_ number: Int, _ range: Range<Int>) -> Bool) {
    var start = 0
    var number = 1
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x0A || byte == 0x0D {
            guard body(number, start..<index) else { return }
            number += 1
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            start = index + 1
        }
        index += 1
    }
    if start < bytes.count { _ = body(number, start..<bytes.count) }
}
