import FoundationEssentials

/// A GPX document as a track: the points of its tracks (`trkpt`), or, when it has none, of its
/// routes (`rtept`), or else its waypoints (`wpt`), in document order, each with its `time`,
/// `ele` (altitude), `hdop`, and the `speed` and `course` GPX 1.0 allowed. Elements it does not
/// know (names, extensions) are skipped. A small scanner, not a full XML parser: no DTDs, no
/// entities where a number or a time is read; what it cannot read is an error on its line,
/// never a guess.
enum GPXTrackReader {
    private enum PointKind: Int, CaseIterable {
        case track, route, waypoint

        init?(_ name: ArraySlice<UInt8>) {
            if name.elementsEqual("trkpt".utf8) {
                self = .track
            } else if name.elementsEqual("rtept".utf8) {
                self = .route
            } else if name.elementsEqual("wpt".utf8) {
                self = .waypoint
            } else {
                return nil
            }
        }
    }

    /// The point being read: its kind, its attributes, its children's values.
    private struct Point {
        let kind: PointKind
        let line: Int
        var location: Location
    }

    static func locations(in bytes: [UInt8]) throws(TrackProblem) -> [Location] {
        var scanner = Scanner(bytes: bytes)
        var points: [[Location]] = Array(repeating: [], count: PointKind.allCases.count)
        var point: Point?
        /// The open elements inside the point (its direct children are at depth 1).
        var depth = 0
        var sawRoot = false
        while let tag = try scanner.nextTag() {
            let name = localName(tag.name)
            if !sawRoot {
                guard !tag.isEnd, name.elementsEqual("gpx".utf8) else {
                    throw TrackProblem(line: scanner.line(at: tag.start), reason: "not a GPX document (its root is not <gpx>)")
                }
                sawRoot = true
                continue
            }
            if let kind = PointKind(name), depth == 0 {
                if tag.isEnd {
                    if let finished = point, finished.kind == kind { points[kind.rawValue].append(finished.location) }
                    point = nil
                    continue
                }
                let line = scanner.line(at: tag.start)
                if let open = point {
                    throw TrackProblem(line: line, reason: "a point opens inside the point of line \(open.line)")
                }
                guard let latitude = number(tag.attribute("lat"), in: -90...90),
                    let longitude = number(tag.attribute("lon"), in: -180...180)
                else {
                    throw TrackProblem(line: line, reason: "a <\(String(decoding: name, as: UTF8.self))> needs lat and lon in range")
                }
                let location = Location(latitude: latitude, longitude: longitude, mode: .twoDimensional, source: .replay)
                if tag.isSelfClosing {
                    points[kind.rawValue].append(location)
                } else {
                    point = Point(kind: kind, line: line, location: location)
                }
                continue
            }
            guard var current = point, !tag.isSelfClosing else { continue }
            if !tag.isEnd {
                depth += 1
                continue
            }
            depth = max(0, depth - 1)
            // Only the point's own children count (an extension's <time> is not the point's).
            guard depth == 0 else { continue }
            let text = trimmed(scanner.text(before: tag.start))
            let line = scanner.line(at: tag.start)
            func value(_ range: ClosedRange<Double>) throws(TrackProblem) -> Double {
                guard let value = number(text, in: range) else {
                    throw TrackProblem(line: line, reason: "<\(String(decoding: name, as: UTF8.self))> is not a number in range")
                }
                return value
            }
            switch String(decoding: name, as: UTF8.self) {
            case "time":
                guard let time = UTCTimestamp.parse(Substring(decoding: text, as: UTF8.self)) else {
                    throw TrackProblem(line: line, reason: "<time> is not an ISO 8601 time with a zone")
                }
                current.location.time = time
            case "ele":
                current.location.altitudeMSL = try value(-10_000...100_000)
                current.location.mode = .threeDimensional
            case "hdop":
                let hdop = try value(0...100)
                current.location.hdop = hdop
                current.location.horizontalAccuracy = hdop
            case "speed":
                current.location.speed = try value(0...10_000)
            case "course":
                current.location.course = try value(0...360)
            default:
                break
            }
            point = current
        }
        guard sawRoot else { throw TrackProblem(line: nil, reason: "not a GPX document (no <gpx>)") }
        if let unfinished = point {
            throw TrackProblem(line: unfinished.line, reason: "a point is not closed before the end of the file")
        }
        return points.first { !$0.isEmpty } ?? []
    }

    /// `name` without a namespace prefix.
    private static func localName(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return name[(colon + 1)...]
    }

    private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return [] }
        return text[first...last]
    }

    /// XML's white space: space, tab, line feed, carriage return.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A plain decimal number (with an optional exponent) in `range`, or `nil`.
    private static func number(_ text: ArraySlice<UInt8>?, in range: ClosedRange<Double>) -> Double? {
        guard let text, !text.isEmpty, text.count <= 32,
            text.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            }),
            let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite, range.contains(value)
        else { return nil }
        return value
    }

    /// One tag: its name, where it starts, whether it ends an element or closes itself, and its
    /// attributes' text.
    private struct Tag {
        let name: ArraySlice<UInt8>
        let start: Int
        let isEnd: Bool
        let isSelfClosing: Bool
        let attributes: ArraySlice<UInt8>

        /// The value of attribute `key` (quoted with `"` or `'`), or `nil`.
        func attribute(_ key: String) -> ArraySlice<UInt8>? {
            let key = Array(key.utf8)
            var index = attributes.startIndex
            func skipSpace() {
                while index < attributes.endIndex, GPXTrackReader.isSpace(attributes[index]) { index += 1 }
            }
            while index < attributes.endIndex {
                skipSpace()
                let nameStart = index
                while index < attributes.endIndex, attributes[index] != UInt8(ascii: "="), !GPXTrackReader.isSpace(attributes[index]) {
                    index += 1
                }
                let name = attributes[nameStart..<index]
                skipSpace()
                guard index < attributes.endIndex, attributes[index] == UInt8(ascii: "=") else { return nil }
                index += 1
                skipSpace()
                guard index < attributes.endIndex, attributes[index] == UInt8(ascii: "\"") || attributes[index] == UInt8(ascii: "'") else {
                    return nil
                }
                let quote = attributes[index]
                index += 1
                let valueStart = index
                while index < attributes.endIndex, attributes[index] != quote { index += 1 }
                guard index < attributes.endIndex else { return nil }
                let value = attributes[valueStart..<index]
                index += 1
                if name.elementsEqual(key) { return value }
            }
            return nil
        }
    }

    /// Walks the tags of a document, skipping comments, processing instructions, CDATA and
    /// declarations; knows the text between tags and the line of a position.
    private struct Scanner {
        let bytes: [UInt8]
        private var index = 0
        /// Where the text before the next tag starts.
        private var textStart = 0
        /// Newlines counted up to `countedTo`, so line numbers cost one pass in all.
        private var newlines = 0
        private var countedTo = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The text between the previous tag and the one at `position`.
        func text(before position: Int) -> ArraySlice<UInt8> {
            bytes[min(textStart, position)..<position]
        }

        /// The 1-based line of `position`.
        mutating func line(at position: Int) -> Int {
            if position < countedTo {
                newlines = 0
                countedTo = 0
            }
            while countedTo < position {
                if bytes[countedTo] == 0x0A { newlines += 1 }
                countedTo += 1
            }
            return newlines + 1
        }

        mutating func nextTag() throws(TrackProblem) -> Tag? {
            while true {
                let textBegin = index
                guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
                if starts(with: "<!--", at: open) {
                    index = try skip(past: "-->", from: open + 4)
                    continue
                }
                if starts(with: "<![CDATA[", at: open) {
                    index = try skip(past: "]]>", from: open + 9)
                    continue
                }
                if starts(with: "<?", at: open) {
                    index = try skip(past: "?>", from: open + 2)
                    continue
                }
                if starts(with: "<!", at: open) {
                    index = try skip(past: ">", from: open + 2)
                    continue
                }
                guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else {
                    throw TrackProblem(line: line(at: open), reason: "a tag is not closed")
                }
                index = close + 1
                var body = bytes[(open + 1)..<close]
                let isEnd = body.first == UInt8(ascii: "/")
                if isEnd { body = body.dropFirst() }
                let isSelfClosing = body.last == UInt8(ascii: "/")
                if isSelfClosing { body = body.dropLast() }
                let nameEnd = body.firstIndex(where: GPXTrackReader.isSpace) ?? body.endIndex
                guard nameEnd > body.startIndex else { throw TrackProblem(line: line(at: open), reason: "a tag has no name") }
                textStart = textBegin
                return Tag(
                    name: body[..<nameEnd], start: open, isEnd: isEnd, isSelfClosing: isSelfClosing, attributes: body[nameEnd...])
            }
        }

        private func starts(with text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= bytes.count && bytes[position..<(position + pattern.count)].elementsEqual(pattern)
        }

        private mutating func skip(past end: String, from position: Int) throws(TrackProblem) -> Int {
            let pattern = Array(end.utf8)
            var at = position
            while at + pattern.count <= bytes.count {
                if bytes[at] == pattern[0], bytes[at..<(at + pattern.count)].elementsEqual(pattern) { return at + pattern.count }
                at += 1
            }
            throw TrackProblem(line: line(at: position), reason: "'\(end)' is missing")
        }
    }
}
