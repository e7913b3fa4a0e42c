/// What `locate status` tells about gpsd and the receiver: no coordinates, only fix quality.
public struct ReceiverStatus: Sendable, Hashable {
    /// The devices gpsd knows, by path.
    public var devices: [String]
    /// The current fix's dimension, or `nil` when there is no fix.
    public var mode: FixMode?
    /// Satellites used in the current fix, if known.
    public var satellitesUsed: Int?
    /// The current fix's horizontal error in metres, if known (the grid cell's size under reduced accuracy).
    public var horizontalAccuracy: Double?
    /// How the current fix was made (``Location/FixType``), if known; `nil` under reduced accuracy.
    public var fixType: Location.FixType?
    /// This machine's clock minus the receiver's time of the current fix, seconds (the fix's
    /// age when both clocks are right; far off when the system clock is, as on a computer
    /// without a battery-backed clock that was off), or `nil` without a fix.
    public var clockOffset: Double?

    /// Creates a status.
    public init(
        devices: [String], mode: FixMode? = nil, satellitesUsed: Int? = nil, horizontalAccuracy: Double? = nil,
        fixType: Location.FixType? = nil, clockOffset: Double? = nil
    ) {
        self.devices = devices
        self.mode = mode
        self.satellitesUsed = satellitesUsed
        self.horizontalAccuracy = horizontalAccuracy
        self.fixType = fixType
        self.clockOffset = clockOffset
    }
}
