package import FoundationEssentials
import LocateSupport

/// GPX 1.1, read and written here only, its element names spelled once (``Element``): a
/// point's values as ``Point``, what ``Reader`` reads of a document and what ``Writer`` writes.
///
/// The writer writes a point's position, `ele`, `time`, `magvar`, `geoidheight`, `desc`, `src`,
/// `fix`, `sat`, `hdop`, `vdop` and `pdop`, in the order GPX 1.1's `wptType` requires; the
/// reader takes each of them, and the `speed` and `course` GPX 1.0 allowed. What one writes, the
/// other reads back as it was (the position to 7 decimals, `ele`, `magvar` and `geoidheight` to
/// 0.1, `time` to the millisecond, the dilutions to 0.01, `desc` and `src` up to 256 bytes as
/// written, white space around them left out).
package enum GPX {
    /// The elements read or written, each spelled here once.
    package enum Element: Sendable, CaseIterable {
        case gpx, trk, trkseg, trkpt, rtept, wpt, name
        case ele, time, magvar, geoidheight, desc, src, fix, sat, hdop, vdop, pdop
        /// GPX 1.0's, read only (1.1 has neither).
        case speed, course

        /// The element's name (a constant in the binary, compared with a document's bytes in place).
        package var name: StaticString {
            switch self {
            case .gpx: "gpx"
            case .trk: "trk"
            case .trkseg: "trkseg"
            case .trkpt: "trkpt"
            case .rtept: "rtept"
            case .wpt: "wpt"
            case .name: "name"
            case .ele: "ele"
            case .time: "time"
            case .magvar: "magvar"
            case .geoidheight: "geoidheight"
            case .desc: "desc"
            case .src: "src"
            case .fix: "fix"
            case .sat: "sat"
            case .hdop: "hdop"
            case .vdop: "vdop"
            case .pdop: "pdop"
            case .speed: "speed"
            case .course: "course"
            }
        }
    }

    /// A point's attributes.
    package enum Attribute: Sendable {
        case latitude, longitude

        /// The attribute's name.
        package var name: StaticString {
            switch self {
            case .latitude: "lat"
            case .longitude: "lon"
            }
        }
    }

    /// A point's values; `nil` is a child that is not there.
    package struct Point: Sendable, Equatable {
        /// Degrees, WGS 84.
        package var latitude: Double
        package var longitude: Double
        /// `ele`: metres above mean sea level.
        package var elevation: Double?
        /// `time`: the instant of the point.
        package var time: Date?
        /// `magvar`: degrees, east positive, more than -180 and up to 180 (GPX writes a variation
        /// west as 360 less it, and the reader reads such a value back as west).
        package var magneticVariation: Double?
        /// `geoidheight`: metres of the geoid above the WGS 84 ellipsoid.
        package var geoidHeight: Double?
        /// `desc` and `src`: a description and the source of the point, plain text.
        package var description: String?
        package var source: String?
        /// `fix`: the kind of fix (`nil` for GPX's `none` too).
        package var fix: Fix?
        /// `sat`: satellites used.
        package var satellites: Int?
        /// `hdop`, `vdop` and `pdop`: the horizontal, vertical and positional dilutions of precision.
        package var hdop: Double?
        package var vdop: Double?
        package var pdop: Double?
        /// GPX 1.0's `speed` (metres a second) and `course` (degrees from true north). Read only.
        package var speed: Double?
        package var course: Double?

        /// A point at `latitude` and `longitude` without any other value.
        package init(latitude: Double, longitude: Double) {
            (self.latitude, self.longitude) = (latitude, longitude)
        }
    }

    /// GPX's `fixType` (of its `none`, `2d`, `3d`, `dgps`, `pps`, those that say there is a fix).
    package enum Fix: String, Sendable, CaseIterable {
        case twoDimensional = "2d"
        case threeDimensional = "3d"
        /// A corrected fix (differential, RTK).
        case dgps
        /// The Precise Positioning Service.
        case pps
    }

    /// The kinds of point, best first: a document's track points, or, when it has none, its
    /// route points, or else its waypoints.
    package enum PointKind: Int, CaseIterable, Comparable, Sendable {
        case track, route, waypoint

        init?(_ element: Element?) {
            switch element {
            case .trkpt?: self = .track
            case .rtept?: self = .route
            case .wpt?: self = .waypoint
            default: return nil
            }
        }

        /// The point's element.
        package var element: Element {
            switch self {
            case .track: .trkpt
            case .route: .rtept
            case .waypoint: .wpt
            }
        }

        package static func < (lhs: PointKind, rhs: PointKind) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}

extension GPX {
    /// A GPX document's points, read as it comes, in one pass: the points of its tracks
    /// (`trkpt`), or, when it has none, of its routes (`rtept`), or else its waypoints (`wpt`),
    /// in document order, each with every child the writer writes (``Point``), and the `speed`
    /// and `course` GPX 1.0 allowed. Elements it does not know (names, extensions) are skipped.
    /// A small scanner, not a full XML parser: no DTDs, no entities where a number, a time or a
    /// fix is read; what it cannot read there is an error on its line, never a guess. In `desc`
    /// and `src`, XML's five entities and character references are read; any other `&` is kept
    /// as it is, and a text longer than the scanner keeps (256 bytes) is left out.
    ///
    /// Which kind of point a document gives is decided as the points come: a track point goes
    /// out at once (the first one answers a request for one fix, however far into the file it
    /// is); the points of a route or the waypoints wait, up to ``deferredLimit``, for the end of
    /// the document or a point of a better kind (GPX 1.1 puts waypoints first, then routes, then
    /// tracks). Beyond that many, a file (or bytes in memory) keeps where the first point not
    /// kept starts and reads the rest again from there once its kind has won, so memory stays
    /// bounded for any document; a pipe cannot be read again, so there they are an error.
    package struct Reader {
        /// The most route or waypoint points that wait in memory until it is known whether a
        /// better kind follows.
        package static let deferredLimit = 20_000

        /// The point being read: its kind, where it starts, its children's values.
        private struct OpenPoint {
            let kind: PointKind
            let start: GPXScanner.Position
            var point: Point
        }

        /// Where the reading is.
        private enum Phase {
            /// Reading the document, choosing the kind as the points come.
            case choosing
            /// At the end of the document: handing out the points that waited.
            case deferred
            /// Reading the document again from where the points that did not fit started,
            /// handing out those of the kind that won.
            case again(PointKind)
        }

        private var scanner: GPXScanner
        private var phase = Phase.choosing
        private var open: OpenPoint? {
            didSet { isInPoint = open != nil }
        }
        /// Whether a point is being read (`open` is set), without copying it to ask.
        private var isInPoint = false
        /// The open elements inside the point (its direct children are at depth 1).
        private var depth = 0
        /// The point's child being read holds elements of its own (it has no plain value then).
        private var childHoldsElements = false
        private var sawRoot = false
        /// The best kind seen, the points of it waiting for the end, and, when more came than
        /// wait, where the first one not kept starts.
        private var best: PointKind?
        private var deferred: [Point] = []
        private var deferredNext = 0
        private var resumeAt: GPXScanner.Position?

        /// A reader of `input`, from its start.
        package init(_ input: TrackInput) {
            scanner = GPXScanner(input)
        }

        /// The next point, or `nil` at the end of the document.
        /// - Throws: `TrackProblem` for what cannot be read, on its line.
        package mutating func next() throws(TrackProblem) -> Point? {
            while true {
                switch phase {
                case .choosing:
                    guard let (kind, point, start) = try nextPoint() else {
                        phase = .deferred
                        continue
                    }
                    // A kind below the best seen is not given; a better one replaces what waited.
                    if let best, kind > best { continue }
                    if best.map({ kind < $0 }) ?? true {
                        deferred.removeAll(keepingCapacity: true)
                        resumeAt = nil
                        best = kind
                    }
                    if kind == .track { return point }
                    // More than wait: the rest of them are read again from here if their kind wins.
                    if resumeAt != nil { continue }
                    guard deferred.count < Self.deferredLimit else {
                        guard scanner.canRewind else {
                            throw TrackProblem(
                                line: start.line,
                                reason:
                                    "has more than \(Self.deferredLimit) route or waypoint points before its end; name the file instead of piping it"
                            )
                        }
                        resumeAt = start
                        continue
                    }
                    deferred.append(point)
                case .deferred:
                    if deferredNext < deferred.count {
                        defer { deferredNext += 1 }
                        return deferred[deferredNext]
                    }
                    deferred = []
                    guard let resumeAt, let best else { return nil }
                    try scanner.rewind(to: resumeAt)
                    self.resumeAt = nil
                    open = nil
                    depth = 0
                    phase = .again(best)
                case .again(let chosen):
                    guard let (kind, point, _) = try nextPoint() else { return nil }
                    if kind == chosen { return point }
                }
            }
        }

        /// The next point of any kind, complete, with where it starts; `nil` at the end of the document.
        private mutating func nextPoint() throws(TrackProblem) -> (PointKind, Point, GPXScanner.Position)? {
            while let tag = try scanner.nextTag() {
                if !sawRoot {
                    guard !tag.isEnd, tag.name == .gpx else {
                        throw TrackProblem(line: scanner.line(of: tag), reason: "not a GPX document (its root is not <gpx>)")
                    }
                    sawRoot = true
                    continue
                }
                if depth == 0, let kind = PointKind(tag.name) {
                    if tag.isEnd {
                        defer { open = nil }
                        if let finished = open, finished.kind == kind { return (kind, finished.point, finished.start) }
                        continue
                    }
                    if let open {
                        throw TrackProblem(line: scanner.line(of: tag), reason: "a point opens inside the point of line \(open.start.line)")
                    }
                    guard let latitude = scanner.attribute(Attribute.latitude.name).flatMap({ Self.number($0, in: -90...90) }),
                        let longitude = scanner.attribute(Attribute.longitude.name).flatMap({ Self.number($0, in: -180...180) })
                    else {
                        throw TrackProblem(line: scanner.line(of: tag), reason: "a <\(kind.element.name)> needs lat and lon in range")
                    }
                    let point = Point(latitude: latitude, longitude: longitude)
                    let start = GPXScanner.Position(offset: tag.offset, line: scanner.line(of: tag))
                    if tag.isSelfClosing { return (kind, point, start) }
                    open = OpenPoint(kind: kind, start: start, point: point)
                    continue
                }
                guard isInPoint else { continue }
                if !tag.isEnd {
                    // An element inside a child: the child has no plain value.
                    if depth >= 1 { childHoldsElements = true }
                    if !tag.isSelfClosing {
                        if depth == 0 { childHoldsElements = false }
                        depth += 1
                    }
                    continue
                }
                depth = max(0, depth - 1)
                // Only the point's own children count (an extension's <time> is not the point's).
                guard depth == 0, let name = tag.name, var current = open?.point else { continue }
                do throws(TrackProblem) {
                    try apply(name, to: &current)
                } catch {
                    throw TrackProblem(line: scanner.line(of: tag), reason: error.reason)
                }
                open?.point = current
            }
            guard sawRoot else { throw TrackProblem(line: nil, reason: "not a GPX document (no <gpx>)") }
            if let unfinished = open {
                throw TrackProblem(line: unfinished.start.line, reason: "a point is not closed before the end of the file")
            }
            return nil
        }

        /// Sets what the point's child `element`, whose end tag the scanner is at, says.
        /// - Throws: `TrackProblem` without a line (the caller's tag has it).
        private func apply(_ element: Element, to point: inout Point) throws(TrackProblem) {
            /// The child's text, white space around it left out; `nil` when longer than kept.
            func text() throws(TrackProblem) -> ArraySlice<UInt8>? {
                guard !childHoldsElements else { throw TrackProblem(line: nil, reason: "<\(element.name)> holds elements, not a value") }
                return scanner.text
            }
            func value(_ range: ClosedRange<Double>) throws(TrackProblem) -> Double {
                guard let value = try text().flatMap({ Self.number($0, in: range) }) else {
                    throw TrackProblem(line: nil, reason: "<\(element.name)> is not a number in range")
                }
                return value
            }
            switch element {
            case .gpx, .trk, .trkseg, .trkpt, .rtept, .wpt, .name: return
            case .time:
                guard let time = try text().flatMap(UTCTimestamp.parse(utf8:)) else {
                    throw TrackProblem(line: nil, reason: "<\(element.name)> is not an ISO 8601 time with a zone")
                }
                point.time = time
            case .ele: point.elevation = try value(-10_000...100_000)
            case .magvar:
                // GPX's 0 to 360: more than 180 is a variation west, 360 less it (subtracted in
                // the text's own digits where it is a plain decimal, so 346.8 is -13.2).
                let variation = try value(0...360)
                guard variation > 180 else {
                    point.magneticVariation = variation
                    return
                }
                point.magneticVariation = try text().flatMap { NMEADecimal.value($0, less: 360) } ?? variation - 360
            case .geoidheight: point.geoidHeight = try value(-200...200)
            case .desc: point.description = try text().map(Self.characters)
            case .src: point.source = try text().map(Self.characters)
            case .fix:
                let text = try text() ?? []
                if text.elementsEqual(Self.noFix.utf8) {
                    point.fix = nil
                    return
                }
                guard let fix = Fix.allCases.first(where: { text.elementsEqual($0.rawValue.utf8) }) else {
                    throw TrackProblem(line: nil, reason: "<\(element.name)> is not none, 2d, 3d, dgps or pps")
                }
                point.fix = fix
            case .sat:
                guard let text = try text(), (1...3).contains(text.count),
                    text.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                    let count = Int(String(decoding: text, as: UTF8.self)), count <= 255
                else { throw TrackProblem(line: nil, reason: "<\(element.name)> is not a number of satellites (0 to 255)") }
                point.satellites = count
            case .hdop: point.hdop = try value(0...100)
            case .vdop: point.vdop = try value(0...100)
            case .pdop: point.pdop = try value(0...100)
            case .speed: point.speed = try value(0...10_000)
            case .course: point.course = try value(0...360)
            }
        }

        /// GPX's `fixType` that says there is none.
        private static let noFix = "none"

        /// The characters of a text element: XML's five entities and its character references
        /// as the characters they stand for; any other `&` as it is (a CDATA section's text is
        /// not told apart from the rest).
        private static func characters(_ text: ArraySlice<UInt8>) -> String {
            guard text.contains(UInt8(ascii: "&")) else { return String(decoding: text, as: UTF8.self) }
            var result = ""
            var rest = Substring(decoding: text, as: UTF8.self)
            while let ampersand = rest.firstIndex(of: "&") {
                result += rest[..<ampersand]
                rest = rest[ampersand...]
                guard let semicolon = rest.prefix(12).firstIndex(of: ";"),
                    let character = reference(rest[rest.index(after: ampersand)..<semicolon])
                else {
                    result.append("&")
                    rest = rest.dropFirst()
                    continue
                }
                result.append(character)
                rest = rest[rest.index(after: semicolon)...]
            }
            return result + rest
        }

        /// The character an entity or a character reference (between `&` and `;`) stands for.
        private static func reference(_ name: Substring) -> Character? {
            switch name {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                guard name.first == "#" else { return nil }
                let digits = name.dropFirst()
                let isHex = digits.first == "x"
                guard let code = UInt32(isHex ? digits.dropFirst() : digits, radix: isHex ? 16 : 10), code != 0,
                    let scalar = Unicode.Scalar(code)
                else { return nil }
                return Character(scalar)
            }
        }

        /// A plain decimal number (with an optional exponent) in `range`, or `nil`.
        package static func number(_ text: ArraySlice<UInt8>, in range: ClosedRange<Double>) -> Double? {
            guard !text.isEmpty, text.count <= 32 else { return nil }
            // Most values are plain decimals, read from their digits without a string.
            if let value = NMEADecimal.value(text) { return range.contains(value) ? value : nil }
            guard
                text.allSatisfy({
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
                }),
                let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite, range.contains(value)
            else { return nil }
            return value
        }
    }
}

extension GPX {
    /// A GPX 1.1 document written as it goes: one waypoint, or a track whose segments are
    /// opened as points come and closed at a gap (``endSegment(to:)``) and at the end. Each part
    /// ends with a line end, so a document cut short (a killed run) is whole up to its last point.
    package struct Writer {
        /// What the document holds.
        package enum Shape: Sendable {
            /// Waypoints (`wpt`).
            case waypoint
            /// One track (`trk`) of segments of points (`trkpt`).
            case track
        }

        package let shape: Shape
        /// The program the document says wrote it, which also names the track.
        private let creator: String
        private var segmentOpen = false

        /// A writer of a document of `shape`, which says `creator` wrote it.
        package init(shape: Shape, creator: String) {
            (self.shape, self.creator) = (shape, creator)
        }

        /// The XML declaration and the `gpx` element's start, and a track's start.
        package func prologue(to output: inout [UInt8]) {
            var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            text +=
                #"<\#(Element.gpx.name) version="1.1" creator="\#(Self.escaped(creator))" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">"#
            if shape == .track { text += "\n" + Self.start(.trk) + Self.element(.name, Self.escaped(creator)) }
            output += (text + "\n").utf8
        }

        /// A point: a waypoint, or a track point (after a segment's start when none is open).
        package mutating func append(_ point: Point, to output: inout [UInt8]) {
            switch shape {
            case .waypoint:
                output += (Self.point(.waypoint, point) + "\n").utf8
            case .track:
                let opening = segmentOpen ? "" : Self.start(.trkseg) + "\n"
                segmentOpen = true
                output += (opening + Self.point(.track, point) + "\n").utf8
            }
        }

        /// Ends the open segment of a track; `false`, writing nothing, when none is open.
        package mutating func endSegment(to output: inout [UInt8]) -> Bool {
            guard segmentOpen else { return false }
            segmentOpen = false
            output += (Self.end(.trkseg) + "\n").utf8
            return true
        }

        /// The end of the document (and of the open segment and the track).
        package mutating func epilogue(to output: inout [UInt8]) {
            if shape == .track {
                _ = endSegment(to: &output)
                output += (Self.end(.trk) + "\n").utf8
            }
            output += (Self.end(.gpx) + "\n").utf8
        }

        /// A point with its children in the order GPX 1.1's `wptType` requires.
        private static func point(_ kind: PointKind, _ point: Point) -> String {
            func decimal(_ value: Double?, _ decimals: Int) -> String? { value.flatMap { NumberFormatting.fixed($0, decimals: decimals) } }
            var text = "<\(kind.element.name)"
            for (attribute, value) in [(Attribute.latitude, point.latitude), (.longitude, point.longitude)] {
                text += " \(attribute.name)=\"\(decimal(value, 7) ?? "0")\""
            }
            text += ">"
            func add(_ element: Element, _ value: String?) {
                if let value { text += Self.element(element, value) }
            }
            add(.ele, decimal(point.elevation, 1))
            add(.time, point.time.flatMap(UTCTimestamp.iso8601))
            // GPX's degrees are 0 to 360: a variation west is 360 less it.
            let variation = point.magneticVariation.map { $0 < 0 ? $0 + 360 : $0 }
            add(.magvar, decimal(variation.map { $0 >= 360 ? 0 : $0 }, 1))
            add(.geoidheight, decimal(point.geoidHeight, 1))
            add(.desc, point.description.map(escaped))
            add(.src, point.source.map(escaped))
            add(.fix, point.fix?.rawValue)
            add(.sat, point.satellites.map { String($0) })
            add(.hdop, decimal(point.hdop, 2))
            add(.vdop, decimal(point.vdop, 2))
            add(.pdop, decimal(point.pdop, 2))
            return text + end(kind.element)
        }

        private static func start(_ element: Element) -> String { "<\(element.name)>" }
        private static func end(_ element: Element) -> String { "</\(element.name)>" }
        private static func element(_ element: Element, _ value: String) -> String { start(element) + value + end(element) }

        /// `text` with XML's markup characters as references, so it is text in any element or
        /// quoted attribute.
        private static func escaped(_ text: String) -> String {
            var escaped = ""
            for character in text {
                switch character {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"": escaped += "&quot;"
                default: escaped.append(character)
                }
            }
            return escaped
        }
    }
}
