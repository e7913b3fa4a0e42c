import LocateSupport

/// The requests of gpsd's JSON protocol a client sends, read as gpsd 3.22 reads them: a segment
/// at a time (what one read of the connection got, at most 8191 bytes), which must start with
/// `?` or is ignored whole; then requests one after another, blanks between them skipped, each
/// `?NAME;` or `?WATCH=`/`?DEVICE=` and a JSON object, `;` after it optional (gps3 and the
/// Python client send none, and no line end either). A request gpsd does not know, or one cut
/// short (`?POLL` without its `;`), is an ERROR that takes the rest of the segment with it.
/// They are taken one at a time (``next(_:startsSegment:)``): a client whose answers wait
/// keeps the rest of its segment as bytes, not as a list of requests.
enum GPSDClientRequest: Equatable {
    /// `?WATCH;` (`nil`: the policy is only reported) or `?WATCH={...}`.
    case watch(WatchChange?)
    case poll
    case devices
    /// `?DEVICE;` (`path` `nil`) or `?DEVICE={"path":...}`.
    case device(path: String?)
    /// `?DEVICE={...}` with anything but a path: a receiver's configuration.
    case configure
    case version
    /// A request gpsd does not know: the ERROR message for it.
    case unrecognized(message: String)

    /// What one read takes at most: gpsd's (`BUFSIZ` less the NUL it ends a read with). A request
    /// a read cuts in two is two segments, as for gpsd.
    static let segmentSize = 8191

    /// What the start of a client's input holds.
    enum Next: Equatable {
        /// A request, and the input after it.
        case request(GPSDClientRequest, rest: ArraySlice<UInt8>)
        /// No request: nothing but blanks, or a segment that does not start with `?` (ignored
        /// whole, as gpsd ignores it).
        case none
    }

    /// The first request of `input`, one request at a time so that a client's answers can wait
    /// while its input is kept as bytes. `startsSegment`: `input` is what a read got, from its
    /// start (then it must start with `?`; between requests, blanks are skipped).
    static func next(_ input: ArraySlice<UInt8>, startsSegment: Bool) -> Next {
        // gpsd reads a segment as a C string: it ends at a NUL. Between requests, blanks and a
        // stray `;` are passed over.
        let segment = input.prefix { $0 != 0 }
        let rest = startsSegment ? segment : segment.drop { isBlank($0) || $0 == UInt8(ascii: ";") }
        guard let first = rest.first, first == UInt8(ascii: "?") || !startsSegment else { return .none }
        let name = first == UInt8(ascii: "?") ? rest.dropFirst().prefix { isNameByte($0) } : rest.prefix(0)
        let after = rest[name.endIndex...]
        switch (String(decoding: name, as: UTF8.self), after.first) {
        case ("WATCH", UInt8(ascii: ";")?):
            return .request(.watch(nil), rest: after.dropFirst())
        case ("WATCH", UInt8(ascii: "=")?), ("DEVICE", UInt8(ascii: "=")?):
            let body = after.dropFirst()
            let isWatch = name.elementsEqual("WATCH".utf8)
            guard let end = objectEnd(body) else {
                // Cut short (libgps writes a WATCH into 80 bytes, and cuts a long one): gpsd
                // keeps what it read before the cut.
                return .request(
                    isWatch ? .watch(WatchChange(leadingMembersOf: body)) : .unrecognized(message: "Invalid DEVICE: no closing brace"),
                    rest: [])
            }
            var tail = body[end...]
            if tail.first == UInt8(ascii: ";") { tail = tail.dropFirst() }
            if isWatch { return .request(.watch(WatchChange(leadingMembersOf: body[..<end])), rest: tail) }
            return .request(device(FlatJSON.parse(Array(body[..<end]), maximumSize: segmentSize)), rest: tail)
        case ("DEVICE", UInt8(ascii: ";")?):
            return .request(.device(path: nil), rest: after.dropFirst())
        case ("POLL", UInt8(ascii: ";")?):
            return .request(.poll, rest: after.dropFirst())
        case ("DEVICES", UInt8(ascii: ";")?):
            return .request(.devices, rest: after.dropFirst())
        case ("VERSION", UInt8(ascii: ";")?):
            return .request(.version, rest: after.dropFirst())
        default:
            // gpsd quotes the rest of the segment, its trailing blanks gone, then a line end (the
            // ERROR's JSON escapes every control character).
            var shown = rest
            while let last = shown.last, isBlank(last) { shown = shown.dropLast() }
            return .request(.unrecognized(message: "Unrecognized request '\(String(decoding: shown, as: UTF8.self))\n'"), rest: [])
        }
    }

    /// `?DEVICE={...}`: a path alone asks for that receiver; anything else would configure it.
    private static func device(_ object: [String: FlatJSON.Value]?) -> GPSDClientRequest {
        guard let object else { return .unrecognized(message: "Invalid DEVICE: not a flat JSON object") }
        let asked = object.filter { $0.key != "class" }
        if asked.isEmpty { return .device(path: nil) }
        guard asked.count == 1, case .string(let path)? = asked["path"] else { return .configure }
        return .device(path: path)
    }

    /// The index just past the `}` that closes the object `bytes` starts with, strings skipped.
    private static func objectEnd(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index? {
        guard bytes.first == UInt8(ascii: "{") else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return bytes.index(after: index) }
            default: break
            }
        }
        return nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}

/// What a `?WATCH={...}` sets, as gpsd 3.22 reads it: `enable` is true unless it says
/// otherwise, `device` is cleared unless given, every other member keeps its value unless
/// given. gpsd reads the members in order and keeps what it read up to the first it cannot read
/// (an object cut short, as libgps cuts a WATCH longer than 80 bytes); a member it does not
/// know, or a value of the wrong type, is passed over. None of it is an ERROR.
struct WatchChange: Equatable {
    var enable = true
    var json: Bool?
    var nmea: Bool?
    var raw: Int?
    var scaled: Bool?
    var split24: Bool?
    var pps: Bool?
    var timing: Bool?
    var device: String?

    /// The change of an object gpsd could not read.
    static let invalid = WatchChange(leadingMembersOf: [])

    /// The change the members at the start of `object` (`{` and on, closed or cut) ask for.
    init(leadingMembersOf object: ArraySlice<UInt8>) {
        for (key, value) in FlatJSON.leadingMembers(of: object) {
            switch (key, value) {
            case ("enable", .bool(let flag)): enable = flag
            case ("json", .bool(let flag)): json = flag
            case ("nmea", .bool(let flag)): nmea = flag
            case ("scaled", .bool(let flag)): scaled = flag
            case ("split24", .bool(let flag)): split24 = flag
            case ("pps", .bool(let flag)): pps = flag
            case ("timing", .bool(let flag)): timing = flag
            case ("raw", .number(let number)) where abs(number) < 1e6: raw = Int(number)
            case ("device", .string(let path)): device = path
            default: break
            }
        }
    }
}

/// What a client asked to be sent, as gpsd keeps it per client and echoes it in WATCH.
struct WatchPolicy: Equatable {
    var enabled = false
    var json = false
    var nmea = false
    /// 0: no raw data; 1 or more: the receiver's sentences as they come.
    var raw = 0
    var scaled = false
    var split24 = false
    var pps = false
    var timing = false
    /// The receiver the client watches; `nil` for all.
    var device: String?

    /// The policy of a client of `--nmea`: the sentences, from the start.
    static let sentences = WatchPolicy(enabled: true, nmea: true)

    mutating func apply(_ change: WatchChange) {
        enabled = change.enable
        json = change.json ?? json
        nmea = change.nmea ?? nmea
        raw = change.raw ?? raw
        scaled = change.scaled ?? scaled
        split24 = change.split24 ?? split24
        pps = change.pps ?? pps
        timing = change.timing ?? timing
        device = change.device
    }

    /// Whether the receiver's sentences go to the client.
    var wantsSentences: Bool { enabled && (nmea || raw > 0) }

    /// Whether reports of `device` go to the client (`nil`: a report of a receiver not known,
    /// which goes only to a watch of every receiver).
    func watches(_ device: String?) -> Bool {
        guard let watched = self.device else { return true }
        return watched == device
    }
}
