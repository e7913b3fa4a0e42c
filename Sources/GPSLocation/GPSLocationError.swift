/// Everything that can go wrong while asking gpsd for a position.
public enum GPSLocationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint text could not be parsed, or a part of it has characters it cannot have.
    case invalidEndpoint(text: String, reason: String)
    /// gpsd could not be reached at the endpoint; the second value is libgps's or the system's reason.
    case gpsdUnreachable(GPSDEndpoint, String)
    /// Connecting did not finish within the connect time limit (seconds).
    case connectTimedOut(GPSDEndpoint, Double)
    /// gpsd answered but has no GPS device (or not the one asked for).
    case noDevice(GPSDEndpoint)
    /// gpsd refused the request; the second value is gpsd's message (such as "No such device as /dev/x").
    case gpsdRefused(GPSDEndpoint, String)
    /// gpsd closed the connection while a single fix was awaited.
    case gpsdClosedConnection(GPSDEndpoint)
    /// No fix arrived within the time limit (seconds).
    case noFix(timeout: Double)
    /// Location is not authorized for this process now; the reason says why.
    case notAuthorized(FallbackReason)

    /// A one-line explanation for a person.
    public var description: String {
        switch self {
        case let .invalidEndpoint(text, why):
            "invalid gpsd endpoint '\(UntrustedText.visible(text, limit: 300))': \(why) (expected host[:port[:device]])"
        case let .gpsdUnreachable(endpoint, why):
            "cannot reach gpsd at \(endpoint): \(why)"
        case let .connectTimedOut(endpoint, seconds):
            "cannot reach gpsd at \(endpoint): no answer within \(seconds.formatted) s"
        case let .noDevice(endpoint):
            if let device = endpoint.device {
                "gpsd at \(endpoint) does not know the device \(device)"
            } else {
                "gpsd at \(endpoint) has no GPS device"
            }
        case let .gpsdRefused(endpoint, message):
            "gpsd at \(endpoint) refused: \(UntrustedText.visible(message, limit: 300))"
        case let .gpsdClosedConnection(endpoint):
            "gpsd at \(endpoint) closed the connection"
        case let .noFix(timeout):
            "no fix within \(timeout.formatted) s"
        case let .notAuthorized(reason):
            "location is not authorized (\(reason.rawValue))"
        }
    }
}

extension Double {
    /// Seconds for a message: to a tenth, and a whole number without a decimal point.
    fileprivate var formatted: String {
        let tenths = (self * 10).rounded() / 10
        return tenths == tenths.rounded() && abs(tenths) < 1e15 ? String(Int64(tenths)) : String(tenths)
    }
}
