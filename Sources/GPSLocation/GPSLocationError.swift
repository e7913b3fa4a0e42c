/// Everything that can go wrong while asking gpsd for a position.
public enum GPSLocationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint text could not be parsed, or a part of it has characters it cannot have.
    case invalidEndpoint(text: String, reason: String)
    /// gpsd could not be reached at the endpoint; `reason` is the system's or the resolver's.
    case gpsdUnreachable(endpoint: GPSDEndpoint, reason: String)
    /// Connecting did not finish within `timeout`.
    case connectTimedOut(endpoint: GPSDEndpoint, timeout: Duration)
    /// gpsd answered but has no GPS device (or not the one asked for).
    case noDevice(endpoint: GPSDEndpoint)
    /// gpsd refused the request; `message` is gpsd's (such as "No such device as /dev/x").
    case gpsdRefused(endpoint: GPSDEndpoint, message: String)
    /// gpsd closed the connection while a single fix was awaited.
    case gpsdClosedConnection(endpoint: GPSDEndpoint)
    /// No fix arrived within `timeout`.
    case noFix(timeout: Duration)
    /// Fixes arrived within `timeout`, but none within the accuracy asked for; `bestSeen` is the
    /// most accurate of them, released as any position is (its grid cell under reduced accuracy).
    case accuracyNotReached(timeout: Duration, bestSeen: Location)
    /// Location is not authorized for this process now; `reason` says why.
    case notAuthorized(reason: DenialReason)

    /// A one-line explanation for a person; outside text in it has its control characters made visible.
    public var description: String {
        switch self {
        case let .invalidEndpoint(text, why):
            "invalid gpsd endpoint '\(UntrustedText.visible(text, limit: 80))': \(why) (expected host[:port[:device]])"
        case let .gpsdUnreachable(endpoint, why):
            "cannot reach gpsd at \(endpoint): \(UntrustedText.visible(why, limit: 300))"
        case let .connectTimedOut(endpoint, timeout):
            "cannot reach gpsd at \(endpoint): no answer within \(timeout.formattedSeconds) s"
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
            "no fix within \(timeout.formattedSeconds) s"
        case let .accuracyNotReached(timeout, _):
            "no fix accurate enough within \(timeout.formattedSeconds) s"
        case let .notAuthorized(reason):
            "location is not authorized (\(reason.rawValue))"
        }
    }
}

extension Duration {
    /// Seconds for a message: to a tenth, and a whole number without a decimal point.
    var formattedSeconds: String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() && abs(tenths) < 1e15 ? String(Int64(tenths)) : String(tenths)
    }
}
