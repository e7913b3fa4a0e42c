/// What one message from gpsd meant, as Swift values; produced by `GPSDSession.read()`.
enum GPSDReport: Sendable, Hashable {
    /// A TPV with mode 2 or 3 and a finite latitude and longitude.
    case fix(Location)
    /// A TPV without a usable position (mode 0 or 1): the receiver has no fix yet.
    case noFix
    /// gpsd's list of devices (the paths it knows).
    case devices([String])
    /// gpsd started using a device (one plugged in, or opened at last).
    case deviceAdded(String)
    /// gpsd refused a request, such as a WATCH for a device it does not have.
    case error(String)
    /// Anything else (VERSION, WATCH, SKY, ...): nothing to act on.
    case other

    /// A TPV: gpsd told whether the receiver has a fix, so the connection really works.
    var isFixState: Bool {
        switch self {
        case .fix, .noFix: true
        case .devices, .deviceAdded, .error, .other: false
        }
    }
}
