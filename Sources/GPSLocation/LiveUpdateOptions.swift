/// What a live stream lets through: CoreLocation's `distanceFilter`, plus a rate limit and a heartbeat.
public struct LiveUpdateOptions: Sendable, Hashable {
    /// No filter: every fix, no motion reported.
    public static let everyFix = LiveUpdateOptions(checked: 0, nil, nil, nil, nil, nil, false)

    /// Emit a fix only after moving at least this many metres from the last emitted one (0: every fix).
    public internal(set) var distanceFilter: Double
    /// Emit at most one fix per this interval; `nil` for no limit.
    public internal(set) var minimumInterval: Duration?
    /// Emit the newest fix at least this often even when the distance filter holds it back,
    /// so a consumer knows the stream is alive; `nil` for no heartbeat.
    public internal(set) var heartbeat: Duration?
    /// Emit only fixes whose horizontal accuracy is at most this many metres (CoreLocation's
    /// `desiredAccuracy`; a fix that does not state its accuracy is taken as exact); `nil` for
    /// any fix.
    public internal(set) var desiredAccuracy: Double?
    /// Report `stationary` after the position stayed within its accuracy for this long of
    /// receiver time, and `moving` when it leaves; `nil` for neither.
    public internal(set) var stationaryAfter: Duration?
    /// Emit only fixes at least this good (``Location/FixType/rank``); `nil` for any. Not
    /// applied under reduced accuracy, whose grid cells have no fix type.
    public internal(set) var minimumFix: Location.FixType?
    /// Leave out the fixes whose ``Location/integrity`` is suspect.
    public internal(set) var rejectsSuspect: Bool

    /// Creates options; by default every fix is emitted, and no motion is reported.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` for a distance that is not a
    ///   number of metres, 0 or above; an accuracy that is not above 0; an interval below zero; a
    ///   heartbeat or a stationary time that is not above zero.
    public init(
        distanceFilter: Double = 0, minimumInterval: Duration? = nil, heartbeat: Duration? = nil, desiredAccuracy: Double? = nil,
        stationaryAfter: Duration? = nil, minimumFix: Location.FixType? = nil, rejectsSuspect: Bool = false
    ) throws(GPSLocationError) {
        guard distanceFilter.isFinite, distanceFilter >= 0 else {
            throw .invalidArgument(name: "distanceFilter", reason: "\(distanceFilter) is not a number of metres, 0 or above")
        }
        if let desiredAccuracy, !(desiredAccuracy.isFinite && desiredAccuracy > 0) {
            throw .invalidArgument(name: "desiredAccuracy", reason: "\(desiredAccuracy) is not a number of metres above 0")
        }
        if let minimumInterval, minimumInterval < .zero {
            throw .invalidArgument(name: "minimumInterval", reason: "\(minimumInterval) is below zero")
        }
        if let heartbeat, heartbeat <= .zero { throw .invalidArgument(name: "heartbeat", reason: "\(heartbeat) is not above zero") }
        if let stationaryAfter, stationaryAfter <= .zero {
            throw .invalidArgument(name: "stationaryAfter", reason: "\(stationaryAfter) is not above zero")
        }
        self.init(checked: distanceFilter, minimumInterval, heartbeat, desiredAccuracy, stationaryAfter, minimumFix, rejectsSuspect)
    }

    private init(
        checked distanceFilter: Double, _ minimumInterval: Duration?, _ heartbeat: Duration?, _ desiredAccuracy: Double?,
        _ stationaryAfter: Duration?, _ minimumFix: Location.FixType?, _ rejectsSuspect: Bool
    ) {
        self.distanceFilter = distanceFilter
        self.minimumInterval = minimumInterval
        self.heartbeat = heartbeat
        self.desiredAccuracy = desiredAccuracy
        self.stationaryAfter = stationaryAfter
        self.minimumFix = minimumFix
        self.rejectsSuspect = rejectsSuspect
    }
}
