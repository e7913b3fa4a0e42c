import FoundationEssentials
import GPSLocation
import LocateFormats

/// `--gpx`: a GPX 1.1 document (LocateFormats' writer). `--once` writes one `<wpt>`; `--follow`
/// writes a `<trk>` whose `<trkseg>` holds one `<trkpt>` per fix, and starts a new segment after
/// a gap (no fix, gpsd lost, paused, not authorized). The document is closed by `epilogue()`,
/// which the command calls however the run ends, so an interrupted track is still a valid file.
///
/// The fallback coordinate is not a place the receiver was: in a track it is left out (the gap
/// starts a new segment); as the single waypoint of `--once` it is written with `<src>fallback</src>`
/// and the reason in `<desc>`.
struct GPXFormat: OutputFormat {
    typealias Shape = GPX.Writer.Shape

    private var writer: GPX.Writer

    init(shape: Shape) {
        writer = GPX.Writer(shape: shape, creator: "locate")
    }

    mutating func prologue(to output: inout [UInt8]) {
        writer.prologue(to: &output)
    }

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        let location = source.location
        if writer.shape == .track, location.source == .fallback { return false }
        writer.append(Self.point(location, reason: source.reason), to: &output)
        return true
    }

    mutating func status(_ event: StatusEvent, now: Date, to output: inout [UInt8]) -> StatusOutput {
        guard event.isGap, writer.endSegment(to: &output) else { return .none }
        return .mark
    }

    mutating func epilogue(to output: inout [UInt8]) {
        writer.epilogue(to: &output)
    }

    /// A location's point: GPX's `fix` is `dgps` for a corrected fix (RTK's too), `pps` for the
    /// Precise Positioning Service, otherwise the mode (`2d`, `3d`); the fallback is a point
    /// whose source says so, with the reason it stands in.
    private static func point(_ location: Location, reason: FallbackReason?) -> GPX.Point {
        var point = GPX.Point(latitude: location.latitude, longitude: location.longitude)
        point.elevation = location.altitudeMSL
        point.time = location.time
        point.magneticVariation = location.details.magneticVariation
        point.geoidHeight = location.details.geoidSeparation
        if location.source == .fallback {
            point.description = reason?.rawValue
            point.source = LocationSource.fallback.rawValue
        }
        switch location.details.fix {
        case .dgps?, .rtkFloat?, .rtkFixed?: point.fix = .dgps
        case .pps?: point.fix = .pps
        default: point.fix = location.mode.map { $0 == .threeDimensional ? .threeDimensional : .twoDimensional }
        }
        point.satellites = location.satellitesUsed
        point.hdop = location.hdop
        point.vdop = location.details.vdop
        point.pdop = location.details.pdop
        return point
    }
}
