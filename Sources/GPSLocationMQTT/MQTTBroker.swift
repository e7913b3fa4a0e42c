/// Where a broker is and what is published on it: `mqtt[s]://[USER@]HOST[:PORT]/TOPIC`; or, for
/// a client that POSTs each message, an HTTP endpoint: `http[s]://[USER@]HOST[:PORT]/PATH`.
///
/// A password never comes in the URL (a command line is visible to every local user in `ps`);
/// it comes from a private file (``MQTTConfiguration/password``).
public struct MQTTBroker: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address (an IPv6 address without its brackets).
    public let host: String
    /// The TCP port: 1883 for `mqtt://`, 8883 for `mqtts://` unless given.
    public let port: Int
    /// Whether the connection is TLS (`mqtts://`, `https://`).
    public let usesTLS: Bool
    /// Whether this is an HTTP endpoint (`http://`, `https://`): each message is POSTed to it.
    public let isHTTP: Bool
    /// The user name to log in with, if any.
    public let user: String?
    /// The topic after the host: the base the messages are published under; for an HTTP
    /// endpoint, the path (and query) after the host's `/`, possibly empty.
    public let topic: String

    /// The most bytes of a topic MQTT allows.
    public static let maximumTopicLength = 65535

    /// Parses `url`; with `isFilter`, its topic is a filter to subscribe to (``checkFilter(_:)``);
    /// with `allowsHTTP`, an `http[s]://` endpoint is taken too.
    /// - Throws: ``MQTTError/invalidURL(_:)`` naming what is wrong.
    public init(parsing url: String, isFilter: Bool = false, allowsHTTP: Bool = false) throws(MQTTError) {
        let scheme = url.prefix { $0 != ":" }
        let schemes = allowsHTTP ? ["mqtt", "mqtts", "http", "https"] : ["mqtt", "mqtts"]
        guard url.dropFirst(scheme.count).hasPrefix("://"), schemes.contains(String(scheme)) else {
            throw .invalidURL(
                allowsHTTP
                    ? "expected mqtt[s]://HOST/TOPIC or http[s]://HOST/PATH" : "expected mqtt://HOST/TOPIC or mqtts://HOST/TOPIC")
        }
        usesTLS = scheme.hasSuffix("s")
        isHTTP = scheme.hasPrefix("http")
        let rest = url.dropFirst(scheme.count + 3)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let topic: String
        if isHTTP {
            // The path and query as given (an empty one is "/"), for the request line.
            topic = String(rest.dropFirst(authority.count).drop { $0 == "/" })
            guard topic.utf8.count <= 8192, topic.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "#" })
            else {
                throw .invalidURL("the path has a space, a control character, a '#' or a byte that is not ASCII (percent-encode it)")
            }
        } else {
            guard rest.count > authority.count + 1 else { throw .invalidURL("no topic after the host (mqtt://HOST/TOPIC)") }
            topic = String(rest.dropFirst(authority.count + 1))
            if isFilter { try Self.checkFilter(topic) } else { try Self.checkTopic(topic) }
        }
        self.topic = topic
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            guard !user.contains(":") else {
                throw .invalidURL(
                    "a password does not go in the URL; name a private file in the settings ([\(isHTTP ? "http" : "mqtt")] password-file)")
            }
            guard !user.isEmpty, user.utf8.count <= 256, !user.contains("@"),
                user.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
            else {
                throw .invalidURL("not a user name before '@'")
            }
            self.user = String(user)
            hostPort = authority[authority.index(after: at)...]
        } else {
            user = nil
        }
        let hostPart: Substring
        let portPart: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .invalidURL("an IPv6 address needs its closing ']'") }
            hostPart = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let after = hostPort[hostPort.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw .invalidURL("expected ':PORT' after ']'") }
            portPart = after.isEmpty ? nil : after.dropFirst()
        } else {
            hostPart = hostPort.prefix { $0 != ":" }
            portPart = hostPort.count > hostPart.count ? hostPort.dropFirst(hostPart.count + 1) : nil
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:")
        guard !hostPart.isEmpty, hostPart.count <= 253, hostPart.allSatisfy(allowed.contains) else {
            throw .invalidURL("not a host name or address")
        }
        host = String(hostPart)
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCIIDigit), let port = Int(portPart),
                (1...65535).contains(port)
            else {
                throw .invalidURL("the port must be a number from 1 to 65535")
            }
            self.port = port
        } else {
            port = isHTTP ? (usesTLS ? 443 : 80) : (usesTLS ? 8883 : 1883)
        }
    }

    /// Whether `topic` can be published to: not empty, no wildcard (`+`, `#`), no NUL or other
    /// control character, at most ``maximumTopicLength`` bytes.
    public static func checkTopic(_ topic: String) throws(MQTTError) {
        guard !topic.isEmpty, topic.utf8.count <= maximumTopicLength else { throw .invalidURL("the topic must have 1 to 65535 bytes") }
        guard !topic.contains("+"), !topic.contains("#") else { throw .invalidURL("a topic to publish to has no wildcard (+ or #)") }
        guard topic.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }) else {
            throw .invalidURL("the topic has a control character")
        }
    }

    /// The URL again, without the topic: `mqtt://user@host:port` (`https://user@host:port`).
    public var description: String {
        let address = host.contains(":") ? "[\(host)]" : host
        return "\(isHTTP ? "http" : "mqtt")\(usesTLS ? "s" : "")://\(user.map { $0 + "@" } ?? "")\(address):\(port)"
    }

    /// An HTTP endpoint's URL to request, without the user: `https://host:port/path`.
    var requestURL: String {
        let address = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "https" : "http")://\(address):\(port)/\(topic)"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
