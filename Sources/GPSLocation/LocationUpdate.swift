/// One element of `GPSLocationManager.liveUpdates(_:)`: a fix, or news about the stream.
public enum LocationUpdate: Sendable, Hashable {
    /// A fix that passed the stream's filters.
    case location(Location)
    /// Something a consumer may want to know that is not a position.
    case status(LocationStatusEvent)
}

/// A status event in a live stream. None of them carries a coordinate.
public enum LocationStatusEvent: Sendable, Hashable {
    /// gpsd reports that the receiver has no fix (mode 1), or no report arrived yet.
    case noFix
    /// gpsd closed the connection or could not be reached; the stream will try again after `retryIn`.
    case gpsdLost(retryIn: Duration)
    /// The stream is connected to gpsd again and watching.
    case reconnected
    /// gpsd knows no GPS device at the moment.
    case noDevice
    /// The authorization changed to `status`; `denial` says why positions stop, or is `nil`
    /// when they resume.
    case authorizationChanged(status: AuthorizationStatus, denial: DenialReason?)
    /// When-in-use and the process went to the background: no positions until it is back.
    case paused
    /// The process is back in the foreground; positions resume.
    case resumed
    /// The consumer took nothing for a while, and this many of the oldest updates were dropped.
    case dropped(count: Int)
    /// The authorization stayed, but how precise positions may be changed (the user switched
    /// "Precise Location"): CoreLocation's `accuracyAuthorization` change.
    case accuracyChanged(AccuracyAuthorization)
    /// The settings that decide cannot be read now (a malformed or unreadable file): the
    /// stream holds back every position, as for a revoke, until they read again (then an
    /// `authorizationChanged` says what they decide).
    case settingsInvalid(SettingsProblem)
    /// The position has not moved beyond its accuracy for ``LiveUpdateOptions/stationaryAfter``
    /// of receiver time (CoreLocation's `isStationary`).
    case stationary
    /// The position moved beyond its accuracy again after `stationary`.
    case moving

    /// A stable, machine-readable name (`no_fix`, `gpsd_lost`, ...), as used in JSON output.
    public var name: String {
        switch self {
        case .noFix: "no_fix"
        case .gpsdLost: "gpsd_lost"
        case .reconnected: "reconnected"
        case .noDevice: "no_device"
        case .authorizationChanged: "authorization_changed"
        case .paused: "paused"
        case .resumed: "resumed"
        case .dropped: "dropped"
        case .accuracyChanged: "accuracy_changed"
        case .settingsInvalid: "settings_invalid"
        case .stationary: "stationary"
        case .moving: "moving"
        }
    }
}
