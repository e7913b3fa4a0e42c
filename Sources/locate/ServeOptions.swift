import GPSDService
import GPSLocation
import LocateSupport

/// `locate serve`'s options: gpsd's endpoint, whose permission applies to the store (`--app`),
/// and where it listens (`--listen`, `--nmea`).
struct ServeOptions: Sendable {
    /// The endpoint given on the command line or in `LOCATE_GPSD`; `nil` leaves it to the settings.
    var endpoint: GPSDEndpoint?
    /// `--app` or `LOCATE_APP` (`nil`: `[location]`).
    var app: String?
    /// `--listen`, in order (none: the default address).
    var listen: [GPSDService.Address] = []
    /// `--nmea`: Unix sockets of plain NMEA.
    var nmea: [String] = []
}

extension ServeOptions {
    /// The options of `parsed`, checked: the endpoint (a word that is a slip of a command's name
    /// is refused) and the app.
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        self = parsed.serve
        endpoint = try parsed.endpoint(parsed.positional, .endpointUnlessSlip, environment: environment)
        app = try parsed.app(environment: environment)
    }

    /// Checks a Unix socket's path: absolute, and short enough for a socket address (107
    /// bytes; a longer one would be cut, and listen elsewhere).
    static func unixSocketPath(_ path: String, flag: String, shown: String) throws(UsageError) {
        guard path.hasPrefix("/"), !UntrustedText.hasHidden(path) else {
            throw UsageError(message: "'\(flag) \(shown)': a Unix socket needs an absolute path")
        }
        guard path.utf8.count <= 107 else {
            throw UsageError(message: "'\(flag) \(shown)': a Unix socket's path is at most 107 bytes, not \(path.utf8.count)")
        }
    }

    /// A `--listen` address: `unix:PATH`, or a loopback `HOST:PORT` (`127.0.0.1:2948`,
    /// `[::1]:2948`, `localhost:2948`); anything else would serve positions beyond this machine.
    static func listenAddress(_ text: String) throws(UsageError) -> GPSDService.Address {
        let shown = UntrustedText.visible(text, limit: 80)
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            try unixSocketPath(path, flag: "--listen", shown: shown)
            return .unix(path: path)
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError(message: "'--listen \(shown)': expected HOST:PORT or unix:PATH")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        guard ServerSocket.isLoopback(host) else {
            throw UsageError(
                message: "'--listen \(shown)': not a loopback address (serve listens only on 127.0.0.0/8, ::1 or a Unix socket)")
        }
        return .loopback(host: host, port: port)
    }
}
