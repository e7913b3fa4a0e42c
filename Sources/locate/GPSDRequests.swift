import LocateSupport

/// The requests of the gpsd JSON protocol that `locate serve` reads from a client, one line at
/// a time (gpsd reads a segment at a time; a line is the same for every client it serves, and
/// survives a request split across segments), or what came without a line end when it ends in
/// `;`, as gpsd answers it. A line holds one or more requests, each `?NAME;`
/// or `?NAME={...};` (the `;` may be missing, as the Python client sends it); a line that does
/// not start with `?` is ignored, as gpsd ignores it.
enum GPSDRequest: Equatable {
    /// `?WATCH` with the members it set (`nil`: not given), or `?WATCH;` (nothing set).
    case watch(enable: Bool?, json: Bool?, nmea: Bool?, device: String?)
    case poll
    case devices
    case device
    case version
    /// A request of a name gpsd has but `locate serve` does not serve, or no request at all:
    /// the ERROR message for it.
    case unrecognized(message: String)

    /// The longest request line read: gpsd's own buffer. A longer one is an error that ends the
    /// connection, so that a client never makes the service keep more than this of its input.
    static let maximumLine = 8192

    /// The requests of one line (without its line end).
    static func parse(line: ArraySlice<UInt8>) -> [GPSDRequest] {
        var rest = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == 0x0D }
        guard rest.first == UInt8(ascii: "?") else { return [] }
        var requests: [GPSDRequest] = []
        while let first = rest.first, first == UInt8(ascii: "?") {
            let name = rest.dropFirst().prefix { isNameByte($0) }
            rest = rest[name.endIndex...]
            var object: [String: FlatJSON.Value]?
            if rest.first == UInt8(ascii: "=") {
                // A flat object up to its first `}` (gpsd's requests have no nested values).
                guard let close = rest.firstIndex(of: UInt8(ascii: "}")) else {
                    requests.append(.unrecognized(message: "Invalid \(String(decoding: name, as: UTF8.self)): no closing brace"))
                    return requests
                }
                let body = rest[rest.index(after: rest.startIndex)...close]
                rest = rest[rest.index(after: close)...]
                object = FlatJSON.parse(Array(body))
                if object == nil {
                    requests.append(.unrecognized(message: "Invalid \(String(decoding: name, as: UTF8.self)): not a flat JSON object"))
                    return requests
                }
            }
            if rest.first == UInt8(ascii: ";") { rest = rest.dropFirst() }
            rest = rest.drop { $0 == UInt8(ascii: " ") || $0 == 0x0D }
            requests.append(request(named: String(decoding: name, as: UTF8.self), object: object, whole: line))
        }
        if !rest.isEmpty {
            requests.append(
                .unrecognized(message: "Unrecognized request '\(UntrustedText.visible(String(decoding: rest, as: UTF8.self), limit: 80))'"))
        }
        return requests
    }

    private static func request(named name: String, object: [String: FlatJSON.Value]?, whole: ArraySlice<UInt8>) -> GPSDRequest {
        switch name {
        case "WATCH":
            func bool(_ key: String) -> Bool? {
                if case .bool(let value)? = object?[key] { return value }
                return nil
            }
            var device: String?
            if case .string(let path)? = object?["device"] { device = path }
            return .watch(enable: object == nil ? nil : bool("enable") ?? true, json: bool("json"), nmea: bool("nmea"), device: device)
        case "POLL": return .poll
        case "DEVICES": return .devices
        case "DEVICE" where object == nil: return .device
        case "VERSION": return .version
        default:
            return .unrecognized(
                message: "Unrecognized request '\(UntrustedText.visible(String(decoding: whole, as: UTF8.self), limit: 80))'")
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
