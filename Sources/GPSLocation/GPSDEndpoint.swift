import LocateSupport

/// Where gpsd listens, and optionally which of its devices to watch.
///
/// Written as gpsd's own clients take it: `host[:port[:device]]`, with an IPv6 address in
/// brackets (`[::1]:2947`). Empty parts keep their defaults, so `:2948` is localhost port 2948.
/// Every part is checked when the endpoint is made: a host name or address, a port number or
/// service name, and a device path of printable characters that cannot break out of gpsd's
/// JSON (no quotes, backslashes or `;`). So an endpoint is always safe to send and to show.
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address; `localhost` by default.
    public let host: String
    /// The TCP port or service name; `2947` (gpsd's registered port) by default.
    public let port: String
    /// The one device to watch, such as `/dev/ttyACM0`; `nil` watches every device.
    public let device: String?

    /// gpsd's default endpoint, `localhost:2947`.
    public static let `default` = GPSDEndpoint(checkedHost: "localhost", port: "2947", device: nil)

    /// Creates an endpoint from its parts.
    /// - Throws: `GPSLocationError.invalidEndpoint` when a part has characters it cannot have.
    public init(host: String, port: String, device: String? = nil) throws(GPSLocationError) {
        let text = GPSDEndpoint(checkedHost: host, port: port, device: device).description
        if let problem = Self.problem(host: host, port: port, device: device) {
            throw .invalidEndpoint(text: text, reason: problem)
        }
        self.init(checkedHost: host, port: port, device: device)
    }

    private init(checkedHost host: String, port: String, device: String?) {
        self.host = host
        self.port = port
        self.device = device
    }

    /// Parses `host[:port[:device]]`.
    /// - Throws: `GPSLocationError.invalidEndpoint` when the text cannot name an endpoint.
    public init(parsing text: String) throws(GPSLocationError) {
        var host = Self.default.host
        var rest = Substring(text)
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw .invalidEndpoint(text: text, reason: "unclosed '[' around an IPv6 address")
            }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else {
                throw .invalidEndpoint(text: text, reason: "expected ':' after ']'")
            }
            rest = rest.dropFirst()
        } else {
            let hostPart = rest.prefix { $0 != ":" }
            if !hostPart.isEmpty { host = String(hostPart) }
            rest = rest.dropFirst(hostPart.count + 1)
        }
        let portPart = rest.prefix { $0 != ":" }
        let devicePart = rest.dropFirst(portPart.count + 1)
        let port = portPart.isEmpty ? Self.default.port : String(portPart)
        let device = devicePart.isEmpty ? nil : String(devicePart)
        if let problem = Self.problem(host: host, port: port, device: device) {
            throw .invalidEndpoint(text: text, reason: problem)
        }
        self.init(checkedHost: host, port: port, device: device)
    }

    /// `host:port`, or `host:port:device` when a device is named, with IPv6 hosts in brackets.
    /// Any control character (only possible in an endpoint that failed its checks) is shown as text.
    public var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        return UntrustedText.visible("\(hostText):\(port)" + (device.map { ":\($0)" } ?? ""))
    }

    /// Whether reports from `device` are ones this endpoint asks for: any device's, or the named one's.
    func watches(_ device: String) -> Bool {
        self.device.map { $0 == device } ?? true
    }

    /// Whether gpsd's device list has a device this endpoint watches.
    func isServed(by devices: [String]) -> Bool {
        devices.contains(where: watches)
    }

    /// What is wrong with the parts, or `nil` when they name an endpoint.
    private static func problem(host: String, port: String, device: String?) -> String? {
        func all(_ text: String, _ allowed: (UInt8) -> Bool) -> Bool { text.utf8.allSatisfy(allowed) }
        let letterOrDigit = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard !host.isEmpty else { return "empty host" }
        let hostAllowed =
            host.contains(":")
            ? { (byte: UInt8) in letterOrDigit(byte) || ":.%_-".utf8.contains(byte) }  // IPv6, with a zone
            : { (byte: UInt8) in letterOrDigit(byte) || "._-".utf8.contains(byte) }
        guard host.utf8.count <= 253, all(host, hostAllowed) else {
            return "the host has a character a host name or address cannot have"
        }
        if let number = Int(port) {
            guard (1...65535).contains(number) else { return "port \(port) is not between 1 and 65535" }
        } else if port.isEmpty || port.utf8.count > 32 || !all(port, { letterOrDigit($0) || $0 == UInt8(ascii: "-") }) {
            return "the port is neither a number nor a service name"
        }
        if let device {
            guard device.utf8.count < 128, all(device, { (0x21...0x7E).contains($0) && !"\"\\;".utf8.contains($0) }) else {
                return "the device path has a quote, backslash, ';', space, control or non-ASCII character, or is longer than 127 bytes"
            }
        }
        return nil
    }
}
