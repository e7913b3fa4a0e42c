import FoundationEssentials
import GPSLocation
import LocateSupport

/// `--gpx`: a GPX 1.1 document. `--once` writes one `<wpt>`; `--follow` writes a `<trk>` whose
/// `<trkseg>` holds one `<trkpt>` per fix, and starts a new segment after a gap (no fix, gpsd
/// lost, paused, not authorized). The document is closed by `epilogue()`, which the command
/// calls however the run ends, so an interrupted track is still a valid file.
///
/// The fallback coordinate is not a place the receiver was: in a track it is left out (the gap
/// starts a new segment); as the single waypoint of `--once` it is written with `<src>fallback</src>`
/// and the reason in `<desc>`.
struct GPXFormat: OutputFormat {
    enum Shape { case waypoint, track }

    let shape: Shape
    private var segmentOpen = false

    init(shape: Shape) {
        self.shape = shape
    }

    mutating func prologue(to output: inout [UInt8]) {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text +=
            #"<gpx version="1.1" creator="locate" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">"#
        if shape == .track { text += "\n<trk><name>locate</name>" }
        output += (text + "\n").utf8
    }

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        let location = source.location
        switch shape {
        case .waypoint:
            output += (point("wpt", location, reason: source.reason) + "\n").utf8
        case .track:
            guard location.source != .fallback else { return false }
            let opening = segmentOpen ? "" : "<trkseg>\n"
            segmentOpen = true
            output += (opening + point("trkpt", location) + "\n").utf8
        }
        return true
    }

    mutating func status(_ event: StatusEvent, now: Date, to output: inout [UInt8]) -> StatusOutput {
        guard shape == .track, event.isGap, segmentOpen else { return .none }
        segmentOpen = false
        output += "</trkseg>\n".utf8
        return .mark
    }

    mutating func epilogue(to output: inout [UInt8]) {
        switch shape {
        case .waypoint: output += "</gpx>\n".utf8
        case .track: output += ((segmentOpen ? "</trkseg>\n" : "") + "</trk>\n</gpx>\n").utf8
        }
    }

    /// GPX's `fix`: `dgps` for a corrected fix (RTK's too), `pps` for the Precise Positioning
    /// Service, otherwise the mode (`2d`, `3d`).
    private static func fix(_ location: Location) -> String? {
        switch location.details.fix {
        case .dgps?, .rtkFloat?, .rtkFixed?: "dgps"
        case .pps?: "pps"
        default: location.mode?.rawValue
        }
    }

    /// A point with its children in the order GPX 1.1's wptType requires.
    private func point(_ element: String, _ location: Location, reason: FallbackReason? = nil) -> String {
        func decimal(_ value: Double?, _ decimals: Int) -> String? { value.flatMap { NumberFormatting.fixed($0, decimals: decimals) } }
        var text = "<\(element) lat=\"\(decimal(location.latitude, 7) ?? "0")\" lon=\"\(decimal(location.longitude, 7) ?? "0")\">"
        if let elevation = decimal(location.altitudeMSL, 1) { text += "<ele>\(elevation)</ele>" }
        if let time = location.time.flatMap(UTCTimestamp.iso8601) { text += "<time>\(time)</time>" }
        // GPX's degrees are 0 to 360: a variation west is 360 less it.
        let variation = location.details.magneticVariation.map { $0 < 0 ? $0 + 360 : $0 }
        if let magneticVariation = decimal(variation.map { $0 >= 360 ? 0 : $0 }, 1) { text += "<magvar>\(magneticVariation)</magvar>" }
        if let geoid = decimal(location.details.geoidSeparation, 1) { text += "<geoidheight>\(geoid)</geoidheight>" }
        if location.source == .fallback {
            if let reason { text += "<desc>\(reason.rawValue)</desc>" }
            text += "<src>fallback</src>"
        }
        if let fix = Self.fix(location) { text += "<fix>\(fix)</fix>" }
        if let satellites = location.satellitesUsed { text += "<sat>\(satellites)</sat>" }
        if let hdop = decimal(location.hdop, 2) { text += "<hdop>\(hdop)</hdop>" }
        if let vdop = decimal(location.details.vdop, 2) { text += "<vdop>\(vdop)</vdop>" }
        if let pdop = decimal(location.details.pdop, 2) { text += "<pdop>\(pdop)</pdop>" }
        return text + "</\(element)>"
    }
}
