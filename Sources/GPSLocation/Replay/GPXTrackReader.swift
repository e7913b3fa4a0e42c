import FoundationEssentials
import LocateSupport

/// A GPX document as a track, read as it comes: the points of its tracks (`trkpt`), or, when it
/// has none, of its routes (`rtept`), or else its waypoints (`wpt`), in document order, each
/// with its `time`, `ele` (altitude), `hdop`, and the `speed` and `course` GPX 1.0 allowed.
/// Elements it does not know (names, extensions) are skipped. A small scanner, not a full XML
/// parser: no DTDs, no entities where a number or a time is read; what it cannot read is an
/// error on its line, never a guess.
///
/// Which kind of point a document gives is known before the first is replayed: a file (or bytes
/// in memory) is scanned for the best kind first (the scan stops at the first track point, so
/// a track costs nothing extra); a pipe cannot be read twice, so its routes' and waypoints'
/// points wait, up to ``deferredLimit``, for the end of the document or a track point.
struct GPXTrackReader {
    /// The kinds of point, best first.
    enum PointKind: Int, CaseIterable, Comparable {
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

        static func < (lhs: PointKind, rhs: PointKind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The most route or waypoint points a document from a pipe may have before its end (or a
    /// track point): they wait in memory until it is known whether a track follows.
    static let deferredLimit = 20_000

    /// The point being read: its kind, its attributes, its children's values.
    private struct Point {
        let kind: PointKind
        let line: Int
        var location: Location
    }

    private var scanner: GPXScanner
    /// The kind to give, when known before reading (`nil`: choose as the points come).
    private let chosen: PointKind?
    private var point: Point?
    /// The open elements inside the point (its direct children are at depth 1).
    private var depth = 0
    private var sawRoot = false
    /// Without a chosen kind: the best kind seen, and the points of it waiting for the end.
    private var best: PointKind?
    private var deferred: [Location] = []
    private var deferredStart = 0

    /// A reader of `input`, giving the points of `kind` (known from `bestKind(in:)`), or, with
    /// `nil`, choosing as the points come.
    init(_ input: TrackInput, kind: PointKind?) {
        scanner = GPXScanner(input)
        chosen = kind
    }

    /// The best kind of point the document in `input` has (the scan stops at the first track
    /// point), or `nil` when it has none.
    static func bestKind(in input: TrackInput) throws(TrackProblem) -> PointKind? {
        var scanner = GPXScanner(input)
        var best: PointKind?
        var sawRoot = false
        while let tag = try scanner.nextTag() {
            if !sawRoot {
                try checkRoot(tag)
                sawRoot = true
            }
            guard !tag.isEnd, let kind = PointKind(tag.localName) else { continue }
            if kind == .track { return .track }
            best = min(best ?? kind, kind)
        }
        guard sawRoot else { throw TrackProblem(line: nil, reason: "not a GPX document (no <gpx>)") }
        return best
    }

    /// The next point, or `nil` at the end of the document.
    /// - Throws: `TrackProblem` for what cannot be read, on its line.
    mutating func next() throws(TrackProblem) -> Location? {
        while true {
            if chosen == nil, scanner.isFinished, deferredStart < deferred.count {
                defer { deferredStart += 1 }
                return deferred[deferredStart]
            }
            guard let (kind, location) = try nextPoint() else {
                guard chosen == nil, deferredStart < deferred.count else { return nil }
                continue
            }
            if let chosen {
                if kind == chosen { return location }
                continue
            }
            // From a pipe: a track point goes out at once; the others wait for the end.
            if let best, kind > best { continue }
            if best.map({ kind < $0 }) ?? true {
                deferred.removeAll()
                best = kind
            }
            if kind == .track { return location }
            guard deferred.count < Self.deferredLimit else {
                throw TrackProblem(
                    line: scanner.line,
                    reason:
                        "has more than \(Self.deferredLimit) route or waypoint points before its end; name the file instead of piping it")
            }
            deferred.append(location)
        }
    }

    /// The next point of any kind, complete; `nil` at the end of the document.
    private mutating func nextPoint() throws(TrackProblem) -> (PointKind, Location)? {
        while let tag = try scanner.nextTag() {
            let name = tag.localName
            if !sawRoot {
                try Self.checkRoot(tag)
                sawRoot = true
                continue
            }
            if let kind = PointKind(name), depth == 0 {
                if tag.isEnd {
                    defer { point = nil }
                    if let finished = point, finished.kind == kind { return (kind, finished.location) }
                    continue
                }
                if let open = point {
                    throw TrackProblem(line: tag.line, reason: "a point opens inside the point of line \(open.line)")
                }
                guard let latitude = Self.number(tag.attribute("lat"), in: -90...90),
                    let longitude = Self.number(tag.attribute("lon"), in: -180...180)
                else {
                    throw TrackProblem(line: tag.line, reason: "a <\(String(decoding: name, as: UTF8.self))> needs lat and lon in range")
                }
                let location = Location(unchecked: latitude, longitude: longitude, mode: .twoDimensional, source: .replay)
                if tag.isSelfClosing { return (kind, location) }
                point = Point(kind: kind, line: tag.line, location: location)
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
            try Self.apply(name, text: tag.textBefore, line: tag.line, to: &current.location)
            point = current
        }
        guard sawRoot else { throw TrackProblem(line: nil, reason: "not a GPX document (no <gpx>)") }
        if let unfinished = point {
            throw TrackProblem(line: unfinished.line, reason: "a point is not closed before the end of the file")
        }
        return nil
    }

    /// The first tag of a GPX document opens its root, `<gpx>`.
    private static func checkRoot(_ tag: GPXTag) throws(TrackProblem) {
        guard !tag.isEnd, tag.localName.elementsEqual("gpx".utf8) else {
            throw TrackProblem(line: tag.line, reason: "not a GPX document (its root is not <gpx>)")
        }
    }

    /// Sets what the point's child `name`, holding `text`, says.
    private static func apply(
        _ name: ArraySlice<UInt8>, text: ArraySlice<UInt8>?, line: Int, to location: inout Location
    ) throws(TrackProblem) {
        let key = String(decoding: name, as: UTF8.self)
        let known = ["time", "ele", "hdop", "speed", "course"]
        guard known.contains(key) else { return }
        let text = text.map(trimmed)
        func value(_ range: ClosedRange<Double>) throws(TrackProblem) -> Double {
            guard let value = number(text, in: range) else {
                throw TrackProblem(line: line, reason: "<\(key)> is not a number in range")
            }
            return value
        }
        switch key {
        case "time":
            guard let text, let time = UTCTimestamp.parse(Substring(decoding: text, as: UTF8.self)) else {
                throw TrackProblem(line: line, reason: "<time> is not an ISO 8601 time with a zone")
            }
            location.time = time
        case "ele":
            location.altitudeMSL = try value(-10_000...100_000)
            location.mode = .threeDimensional
        case "hdop":
            let hdop = try value(0...100)
            location.hdop = hdop
            location.horizontalAccuracy = hdop
        case "speed":
            location.speed = try value(0...10_000)
        default:
            location.course = try value(0...360)
        }
    }

    private static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = text.firstIndex(where: { !GPXScanner.isSpace($0) }), let last = text.lastIndex(where: { !GPXScanner.isSpace($0) })
        else { return [] }
        return text[first...last]
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
}

/// One tag of a GPX document: its name, its line, whether it ends an element or closes itself,
/// its attributes' text, and the text between the tag before and this one (`nil` when that was
/// longer than the scanner keeps: no value of a point is).
struct GPXTag {
    let name: ArraySlice<UInt8>
    let line: Int
    let isEnd: Bool
    let isSelfClosing: Bool
    let attributes: ArraySlice<UInt8>
    let textBefore: ArraySlice<UInt8>?

    /// The name without a namespace prefix.
    var localName: ArraySlice<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return name[(colon + 1)...]
    }

    /// The value of attribute `key` (quoted with `"` or `'`), or `nil`.
    func attribute(_ key: String) -> ArraySlice<UInt8>? {
        let key = Array(key.utf8)
        var index = attributes.startIndex
        func skipSpace() {
            while index < attributes.endIndex, GPXScanner.isSpace(attributes[index]) { index += 1 }
        }
        while index < attributes.endIndex {
            skipSpace()
            let nameStart = index
            while index < attributes.endIndex, attributes[index] != UInt8(ascii: "="), !GPXScanner.isSpace(attributes[index]) {
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

/// Walks the tags of a GPX document as its bytes come, skipping comments, processing
/// instructions, CDATA and declarations. It keeps a window of the input from the text before the
/// tag being read: at most ``maximumText`` of text (no value of a point is longer; longer text
/// is dropped, and said to be so) and ``maximumTag`` of tag, so memory never grows with the
/// document. Every position it holds is `index`, moved along as the window moves.
struct GPXScanner {
    /// The longest text between tags that is kept.
    static let maximumText = 256
    /// The longest tag read.
    static let maximumTag = 64 * 1024
    /// What is not a tag: comments, CDATA, processing instructions and declarations, in the
    /// order they are told apart.
    private static let constructs = [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">")]

    private let input: TrackInput
    private var buffer: [UInt8] = []
    private var index = 0
    private var textStart = 0
    private var textIsTooLong = false
    private var isAtEnd = false
    /// Newlines before `countedTo` (a position in `buffer`), for line numbers in one pass.
    private var newlines = 0
    private var countedTo = 0
    /// The document has been read to its end.
    private(set) var isFinished = false

    init(_ input: TrackInput) {
        self.input = input
    }

    /// The line the scanner is at.
    var line: Int { newlines + 1 }

    /// XML's white space: space, tab, line feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The next tag, or `nil` at the end of the document.
    mutating func nextTag() throws(TrackProblem) -> GPXTag? {
        while true {
            textStart = index
            textIsTooLong = false
            guard try seek(UInt8(ascii: "<")) else {
                isFinished = true
                return nil
            }
            var skipped = false
            for (opening, closing) in Self.constructs where !skipped {
                skipped = try skipConstruct(opening: opening, closing: closing)
            }
            if skipped { continue }
            let line = lineNumber(at: index)
            var end = index + 1
            while true {
                if let close = buffer[end...].firstIndex(of: UInt8(ascii: ">")) {
                    end = close
                    break
                }
                guard buffer.count - index <= Self.maximumTag else { throw TrackProblem(line: line, reason: "a tag is longer than 64 KiB") }
                let offset = buffer.count - index
                guard try more() else { throw TrackProblem(line: line, reason: "a tag is not closed") }
                end = index + offset
            }
            var body = buffer[(index + 1)..<end]
            let text = textIsTooLong || index - textStart > Self.maximumText ? nil : Array(buffer[textStart..<index])[...]
            index = end + 1
            let isEnd = body.first == UInt8(ascii: "/")
            if isEnd { body = body.dropFirst() }
            let isSelfClosing = body.last == UInt8(ascii: "/")
            if isSelfClosing { body = body.dropLast() }
            let nameEnd = body.firstIndex(where: Self.isSpace) ?? body.endIndex
            guard nameEnd > body.startIndex else { throw TrackProblem(line: line, reason: "a tag has no name") }
            return GPXTag(
                name: Array(body[..<nameEnd])[...], line: line, isEnd: isEnd, isSelfClosing: isSelfClosing,
                attributes: Array(body[nameEnd...])[...], textBefore: text)
        }
    }

    /// Moves `index` to the next `byte`, reading on as needed; what it passes is the text before
    /// the tag (kept up to `maximumText`). `false` at the end of the input.
    private mutating func seek(_ byte: UInt8) throws(TrackProblem) -> Bool {
        while true {
            if let found = buffer[index...].firstIndex(of: byte) {
                index = found
                return true
            }
            index = buffer.count
            if index - textStart > Self.maximumText {
                textStart = index
                textIsTooLong = true
            }
            guard try more() else { return false }
        }
    }

    /// When the bytes at `index` are `opening`: moves past the next `closing` (a comment's,
    /// CDATA's ...), reading on and dropping what it passes, and says so.
    private mutating func skipConstruct(opening: String, closing: String) throws(TrackProblem) -> Bool {
        let start = Array(opening.utf8)
        while buffer.count < index + start.count {
            guard try more() else { return false }
        }
        guard buffer[index..<(index + start.count)].elementsEqual(start) else { return false }
        let line = lineNumber(at: index)
        index += start.count
        let pattern = Array(closing.utf8)
        while true {
            while index + pattern.count <= buffer.count {
                if buffer[index] == pattern[0], buffer[index..<(index + pattern.count)].elementsEqual(pattern) {
                    index += pattern.count
                    return true
                }
                index += 1
            }
            textStart = index
            textIsTooLong = true
            guard try more() else { throw TrackProblem(line: line, reason: "'\(closing)' is missing") }
        }
    }

    /// Reads more of the input, first dropping what is behind both `index` and the text being
    /// kept (`index` and `textStart` move with it). `false` at the end.
    private mutating func more() throws(TrackProblem) -> Bool {
        guard !isAtEnd else { return false }
        let keep = min(textStart, index)
        if keep >= ChunkedInput.chunkSize {
            _ = lineNumber(at: keep)
            buffer.removeFirst(keep)
            countedTo -= keep
            index -= keep
            textStart -= keep
        }
        if try input.read(appendingTo: &buffer) == 0 {
            isAtEnd = true
            return false
        }
        return true
    }

    /// The 1-based line of `position` (never before the last position asked for).
    private mutating func lineNumber(at position: Int) -> Int {
        while countedTo < position {
            if buffer[countedTo] == 0x0A { newlines += 1 }
            countedTo += 1
        }
        return newlines + 1
    }
}
