import LocateFormats
import LocateSupport
import Synchronization

/// A recorded track to play back instead of gpsd (``GPSLocationManager/init(replaying:speed:)``):
/// its fixes in the order of the file, each marked ``LocationSource/replay``.
///
/// Three formats are read, told apart by their first bytes: GPX 1.1 (`<`: the points of its
/// tracks, or else of its routes, or else its waypoints), NMEA 0183 logs (`$`: RMC, GGA
/// and GSA sentences, one fix per epoch; sentences with a wrong checksum or without a fix are skipped,
/// as gpsd skips them) and `locate`'s own JSON Lines (`{`: fix records; other record types such
/// as status events are skipped), which may also hold OwnTracks location records (other OwnTracks
/// types are skipped) and may be `mosquitto_sub -v` lines (a topic, a space, a JSON payload; the
/// topic is not looked at: `locate monitor --by` keeps devices apart). `#` comment lines at the
/// start (gpsd's receiver logs have them) are skipped. A point without a stated accuracy is taken as exact; otherwise, as
/// `locate`'s design has it, its `hdop` (GPX, NMEA GGA) is its accuracy in metres (a track file
/// carries no better estimate: GPX has no accuracy field), and a record's `h_acc` is its
/// accuracy. A replayed point is data: what a recording run was authorized says nothing here.
///
/// A track is read as it is played, in one pass, never held whole: memory does not grow with
/// its length, a request for one fix reads only as far as that fix (for GPX routes and
/// waypoints, to the end of the document, which says whether a track follows), and a track
/// piped in is played as it comes. So a malformed point is found when the playback reaches it: the stream ends there
/// with ``GPSLocationError/invalidTrack(file:line:reason:)``, after the fixes before it.
public struct ReplayTrack: Sendable {
    /// The format of a track's bytes.
    enum Format: Sendable {
        case gpx, nmea, jsonLines

        /// The format the first significant byte says, if any.
        init?(firstByte: UInt8?) {
            switch firstByte {
            case UInt8(ascii: "<"): self = .gpx
            case UInt8(ascii: "$"), UInt8(ascii: "!"): self = .nmea
            case UInt8(ascii: "{"): self = .jsonLines
            default: return nil
            }
        }
    }

    /// Where the track's points are.
    private enum Content: Sendable {
        case file(path: String, format: Format)
        case bytes([UInt8], format: Format)
        case locations([Location])
        /// A descriptor read once, as it comes (its format is read when it is played).
        case stream(StreamOnce)
    }

    private let content: Content
    /// What messages call the track: its file, or the name it was given.
    public let name: String

    /// The largest track read, 256 MiB (some three million fixes of JSON Lines).
    public static let maximumFileSize = TrackInput.maximumSize

    /// A track of a host's own locations (each marked as replayed).
    public init(locations: [Location]) {
        content = .locations(
            locations.map { location in
                var replayed = location
                replayed.source = .replay
                return replayed
            })
        name = "locations"
    }

    /// The track in the file at `path`, to be read as it is played (its format is read now).
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)`` when it cannot be read
    ///   (missing, not a regular file, larger than ``maximumFileSize``) or is in none of the formats.
    public init(contentsOf path: String) throws(GPSLocationError) {
        let input: TrackInput
        do throws(TrackProblem) {
            input = try Self.open(path)
        } catch {
            throw .invalidTrack(file: path, line: nil, reason: error.reason)
        }
        content = .file(path: path, format: try Self.format(of: input, name: path))
        name = path
    }

    /// The track in the bytes of a file; `name` is what errors call it.
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)`` when the bytes are in none
    ///   of the formats.
    public init(parsing bytes: [UInt8], name: String) throws(GPSLocationError) {
        content = .bytes(bytes, format: try Self.format(of: TrackInput(bytes: bytes), name: name))
        self.name = name
    }

    /// The track on `descriptor` (a pipe, such as standard input), read once, as it comes: a
    /// live stream plays its fixes as they arrive, and stopping the stream stops the reading,
    /// even while the pipe stays open without a byte. The descriptor is not closed.
    /// - Parameters:
    ///   - descriptor: the descriptor to read, such as `STDIN_FILENO`.
    ///   - name: what errors call it (`standard input`).
    public init(readingFrom descriptor: Int32, name: String) {
        content = .stream(StreamOnce(descriptor))
        self.name = name
    }

    /// Every fix of the track, read at once: for tests and small tracks (a track of a pipe can
    /// be read only once, so this uses it up).
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)`` for a malformed point, or
    ///   a track without a fix.
    public func allLocations() throws(GPSLocationError) -> [Location] {
        var reader = try makeReader(wakeUp: nil) { false }
        var locations: [Location] = []
        do throws(TrackProblem) {
            while let location = try reader.next() { locations.append(location) }
        } catch {
            throw .invalidTrack(file: name, line: error.line, reason: error.reason)
        }
        guard !locations.isEmpty else { throw .invalidTrack(file: name, line: nil, reason: "has no fix") }
        return locations
    }

    /// A reader from the start of the track; waits for a pipe in `poll` with `wakeUp`, ends
    /// early when `shouldStop` says so (asked before each chunk, of a file too), and tells
    /// `willRead` before each chunk it reads (`true`: the read is about to wait for a pipe).
    /// - Throws: ``GPSLocationError/invalidTrack(file:line:reason:)`` when the track cannot be
    ///   opened (again), is in none of the formats, or was a stream read already.
    func makeReader(
        wakeUp: WakeUp?, shouldStop: @escaping () -> Bool, willRead: @escaping (_ mayWait: Bool) -> Void = { _ in }
    ) throws(GPSLocationError) -> TrackReader {
        let input: TrackInput
        let format: Format
        switch content {
        case .locations(let locations):
            return .locations(locations, next: 0)
        case .file(let path, let fileFormat):
            do throws(TrackProblem) {
                input = try Self.open(path)
            } catch {
                throw .invalidTrack(file: name, line: error.line, reason: error.reason)
            }
            format = fileFormat
        case .bytes(let bytes, let bytesFormat):
            input = TrackInput(bytes: bytes)
            format = bytesFormat
        case .stream(let once):
            guard let descriptor = once.take() else {
                throw .invalidTrack(file: name, line: nil, reason: "was read already (a pipe can be played once)")
            }
            input = TrackInput(descriptor: descriptor, owned: false, wakeUp: wakeUp, shouldStop: shouldStop)
            format = try Self.format(of: input, name: name)
        }
        input.shouldStop = shouldStop
        input.willRead = willRead
        switch format {
        case .nmea: return .nmea(NMEATrackReader(input))
        case .jsonLines: return .jsonLines(JSONLinesTrackReader(input))
        case .gpx: return .gpx(GPXTrackReader(input))
        }
    }

    /// The file at `path`, opened for reading, after the checks a track gets: a regular file
    /// (a FIFO or a device is refused at once, never waited on), no larger than the cap. Who
    /// owns it does not matter: a track grants nothing and is never written.
    private static func open(_ path: String) throws(TrackProblem) -> TrackInput {
        let opened: ChunkedInput?
        do throws(TrustedFile.Refusal) {
            opened = try ChunkedInput.open(path, owner: .anyone, limit: maximumFileSize)
        } catch {
            throw TrackProblem(line: nil, reason: error.description)
        }
        guard let opened else { throw TrackProblem(line: nil, reason: "no such file") }
        return TrackInput(opened)
    }

    /// The format `input`'s first bytes say.
    private static func format(of input: TrackInput, name: String) throws(GPSLocationError) -> Format {
        do throws(TrackProblem) {
            let first = try input.firstSignificantByte()
            // MQTT messages as `mosquitto_sub -v` writes them are JSON Lines with a topic before each.
            if input.startsWithMessage { return .jsonLines }
            guard let format = Format(firstByte: first) else {
                throw TrackProblem(line: nil, reason: "not GPX, NMEA 0183 or JSON Lines")
            }
            return format
        } catch {
            throw .invalidTrack(file: name, line: error.line, reason: error.reason)
        }
    }
}

/// A descriptor that one playback may take.
final class StreamOnce: Sendable {
    private let descriptor: Mutex<Int32?>

    init(_ descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    /// The descriptor, the first time; `nil` after.
    func take() -> Int32? {
        descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
    }
}

/// One playback's reader of a track: a format's reader over its input, or a host's locations.
enum TrackReader {
    case gpx(GPXTrackReader)
    case nmea(NMEATrackReader)
    case jsonLines(JSONLinesTrackReader)
    case locations([Location], next: Int)

    /// The next fix, or `nil` at the end of the track.
    /// - Throws: `TrackProblem` for a malformed point or input that cannot be read.
    mutating func next() throws(TrackProblem) -> Location? {
        // Each reader is taken out while it reads (`self` holds nothing meanwhile), so its
        // buffers are its own and never copied.
        switch self {
        case .gpx(var reader):
            self = .locations([], next: 0)
            defer { self = .gpx(reader) }
            return try reader.next().map(Location.init(replaying:))
        case .nmea(var reader):
            self = .locations([], next: 0)
            defer { self = .nmea(reader) }
            return try reader.next().map(Location.init(replaying:))
        case .jsonLines(var reader):
            self = .locations([], next: 0)
            defer { self = .jsonLines(reader) }
            return try reader.next()
        case .locations(let locations, let next):
            guard next < locations.count else { return nil }
            self = .locations(locations, next: next + 1)
            return locations[next]
        }
    }
}
