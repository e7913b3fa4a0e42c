/// What a live stream lets through: CoreLocation's `distanceFilter`, plus a rate limit and a heartbeat.
public struct LiveUpdateOptions: Sendable, Hashable {
    /// Emit a fix only after moving at least this many metres from the last emitted one (0: every fix).
    public var distanceFilter: Double
    /// Emit at most one fix per this interval; `nil` for no limit.
    public var minimumInterval: Duration?
    /// Emit the newest fix at least this often even when the distance filter holds it back,
    /// so a consumer knows the stream is alive; `nil` for no heartbeat.
    public var heartbeat: Duration?
    /// Emit only fixes whose horizontal accuracy is known and at most this many metres
    /// (CoreLocation's `desiredAccuracy`); `nil` for any fix.
    public var desiredAccuracy: Double?
    /// Report `stationary` after the position stayed within its accuracy for this long of
    /// receiver time, and `moving` when it leaves; `nil` for neither.
    public var stationaryAfter: Duration?

    /// Creates options; by default every fix is emitted, and no motion is reported.
    public init(
        distanceFilter: Double = 0, minimumInterval: Duration? = nil, heartbeat: Duration? = nil, desiredAccuracy: Double? = nil,
        stationaryAfter: Duration? = nil
    ) {
        self.distanceFilter = distanceFilter
        self.minimumInterval = minimumInterval
        self.heartbeat = heartbeat
        self.desiredAccuracy = desiredAccuracy
        self.stationaryAfter = stationaryAfter
    }
}
