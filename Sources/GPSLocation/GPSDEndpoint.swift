/// Where gpsd listens, and optionally which of its devices to watch.
///
/// Written as gpsd's own clients take it: `host[:port[:device]]`, with an IPv6 address in
/// brackets (`[::1]:2947`). Empty parts keep their defaults, so `:2948` is localhost port 2948.
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address; `localhost` by default.
    public var host: String
    /// The TCP port or service name; `2947` (gpsd's registered port) by default.
    public var port: String
    /// The one device to watch, such as `/dev/ttyACM0`; `nil` watches every device.
    public var device: String?

    /// gpsd's default endpoint, `localhost:2947`.
    public static let `default` = GPSDEndpoint(host: "localhost", port: "2947")

    /// Creates an endpoint from its parts.
    public init(host: String, port: String, device: String? = nil) {
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
                throw .invalidEndpoint(text, "unclosed '[' around an IPv6 address")
            }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else {
                throw .invalidEndpoint(text, "expected ':' after ']'")
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
        if let number = Int(port), !(1...65535).contains(number) {
            throw .invalidEndpoint(text, "port \(port) is not between 1 and 65535")
        }
        guard !host.isEmpty else { throw .invalidEndpoint(text, "empty host") }
        if devicePart.contains(where: { $0 == "\"" || $0 == "\\" || $0 == ";" || $0.asciiValue.map { $0 < 0x20 } == true }) {
            throw .invalidEndpoint(text, "the device path has a quote, backslash, ';' or control character")
        }
        self.init(host: host, port: port, device: devicePart.isEmpty ? nil : String(devicePart))
    }

    /// `host:port`, or `host:port:device` when a device is named, with IPv6 hosts in brackets.
    public var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "\(hostText):\(port)" + (device.map { ":\($0)" } ?? "")
    }
}
