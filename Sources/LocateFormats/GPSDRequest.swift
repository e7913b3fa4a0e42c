import LocateSupport

/// The requests of gpsd's JSON protocol, read and written here only, their names and WATCH's
/// members spelled once: what `locate` writes to gpsd (``text(_:)``, ``text(watch:)``) and what
/// `locate serve` reads of its clients, which is what follows.
///
/// A client's requests are read as gpsd 3.22 reads them: a segment
/// at a time (what one read of the connection got, at most 8191 bytes), which must start with
/// `?` or is ignored whole; then requests one after another, blanks between them skipped, each
/// `?NAME;` or `?WATCH=`/`?DEVICE=` and a JSON object, `;` after it optional (gps3 and the
/// Python client send none, and no line end either). A request gpsd does not know, or one cut
/// short (`?POLL` without its `;`), is an ERROR that takes the rest of the segment with it.
/// They are taken one at a time (``next(_:startsSegment:)``): a client whose answers wait
/// keeps the rest of its segment as bytes, not as a list of requests.
package enum GPSDRequest: Equatable, Sendable {
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

    /// The requests' names, each spelled here once.
    package enum Name: String, Sendable, CaseIterable {
        case watch = "WATCH"
        case poll = "POLL"
        case devices = "DEVICES"
        case device = "DEVICE"
        case version = "VERSION"
    }

    /// What one read takes at most: gpsd's (`BUFSIZ` less the NUL it ends a read with). A request
    /// a read cuts in two is two segments, as for gpsd.
    package static let segmentSize = 8191

    /// What the start of a client's input holds.
    package enum Next: Equatable {
        /// A request, and the input after it.
        case request(GPSDRequest, rest: ArraySlice<UInt8>)
        /// No request: nothing but blanks, or a segment that does not start with `?` (ignored
        /// whole, as gpsd ignores it).
        case none
    }

    /// The first request of `input`, one request at a time so that a client's answers can wait
    /// while its input is kept as bytes. `startsSegment`: `input` is what a read got, from its
    /// start (then it must start with `?`; between requests, blanks are skipped).
    package static func next(_ input: ArraySlice<UInt8>, startsSegment: Bool) -> Next {
        // gpsd reads a segment as a C string: it ends at a NUL. Between requests, blanks and a
        // stray `;` are passed over.
        let segment = input.prefix { $0 != 0 }
        let rest = startsSegment ? segment : segment.drop { isBlank($0) || $0 == UInt8(ascii: ";") }
        guard let first = rest.first, first == UInt8(ascii: "?") || !startsSegment else { return .none }
        let name = first == UInt8(ascii: "?") ? rest.dropFirst().prefix { isNameByte($0) } : rest.prefix(0)
        let after = rest[name.endIndex...]
        switch (Name(rawValue: String(decoding: name, as: UTF8.self)), after.first) {
        case (.watch?, UInt8(ascii: ";")?):
            return .request(.watch(nil), rest: after.dropFirst())
        case (.watch?, UInt8(ascii: "=")?), (.device?, UInt8(ascii: "=")?):
            let body = after.dropFirst()
            let isWatch = name.elementsEqual(Name.watch.rawValue.utf8)
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
        case (.device?, UInt8(ascii: ";")?):
            return .request(.device(path: nil), rest: after.dropFirst())
        case (.poll?, UInt8(ascii: ";")?):
            return .request(.poll, rest: after.dropFirst())
        case (.devices?, UInt8(ascii: ";")?):
            return .request(.devices, rest: after.dropFirst())
        case (.version?, UInt8(ascii: ";")?):
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
    private static func device(_ object: [String: FlatJSON.Value]?) -> GPSDRequest {
        guard let object else { return .unrecognized(message: "Invalid DEVICE: not a flat JSON object") }
        // Every object of gpsd's may have a class; a path is `?DEVICE`'s receiver.
        let asked = object.filter { $0.key != GPSDReports.Key.class.rawValue }
        if asked.isEmpty { return .device(path: nil) }
        guard asked.count == 1, case .string(let path)? = asked[GPSDReports.Key.path.rawValue] else { return .configure }
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
package struct WatchChange: Equatable, Sendable {
    /// The members, each spelled here once, in the order they are written.
    package enum Key: String, Sendable, CaseIterable {
        case enable, json, nmea, raw, scaled, split24, timing, pps, device
    }

    package var enable = true
    package var json: Bool?
    package var nmea: Bool?
    package var raw: Int?
    package var scaled: Bool?
    package var split24: Bool?
    package var pps: Bool?
    package var timing: Bool?
    package var device: String?

    /// The change of an object gpsd could not read.
    package static let invalid = WatchChange(leadingMembersOf: [])

    /// A change that sets `enable` and what is given.
    package init(
        enable: Bool = true, json: Bool? = nil, nmea: Bool? = nil, raw: Int? = nil, scaled: Bool? = nil, split24: Bool? = nil,
        timing: Bool? = nil, pps: Bool? = nil, device: String? = nil
    ) {
        (self.enable, self.json, self.nmea, self.raw, self.scaled, self.split24) = (enable, json, nmea, raw, scaled, split24)
        (self.timing, self.pps, self.device) = (timing, pps, device)
    }

    /// The change the members at the start of `object` (`{` and on, closed or cut) ask for.
    package init(leadingMembersOf object: ArraySlice<UInt8>) {
        for (key, value) in FlatJSON.leadingMembers(of: object) {
            switch (Key(rawValue: key), value) {
            case (.enable?, .bool(let flag)): enable = flag
            case (.json?, .bool(let flag)): json = flag
            case (.nmea?, .bool(let flag)): nmea = flag
            case (.scaled?, .bool(let flag)): scaled = flag
            case (.split24?, .bool(let flag)): split24 = flag
            case (.pps?, .bool(let flag)): pps = flag
            case (.timing?, .bool(let flag)): timing = flag
            case (.raw?, .number(let number)) where abs(number) < 1e6: raw = Int(number)
            case (.device?, .string(let path)): device = path
            default: break
            }
        }
    }

    /// The object: `enable`, then each member given, in the order of ``Key``.
    package var object: String {
        var object = JSONObjectWriter()
        object.add(Key.enable.rawValue, bool: enable)
        for (key, flag) in [(Key.json, json), (.nmea, nmea)] {
            if let flag { object.add(key.rawValue, bool: flag) }
        }
        if let raw { object.add(Key.raw.rawValue, json: String(raw)) }
        for (key, flag) in [(Key.scaled, scaled), (.split24, split24), (.timing, timing), (.pps, pps)] {
            if let flag { object.add(key.rawValue, bool: flag) }
        }
        if let device { object.add(Key.device.rawValue, string: device) }
        return object.text
    }
}

extension GPSDRequest {
    /// `?NAME;`, a request without an object, as a client writes it.
    package static func text(_ name: Name) -> String {
        "?" + name.rawValue + ";"
    }

    /// `?WATCH={...};`, as a client writes it.
    package static func text(watch change: WatchChange) -> String {
        "?" + Name.watch.rawValue + "=" + change.object + ";"
    }
}
