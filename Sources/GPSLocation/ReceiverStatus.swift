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

    /// Creates a status.
    public init(devices: [String], mode: FixMode? = nil, satellitesUsed: Int? = nil, horizontalAccuracy: Double? = nil) {
        self.devices = devices
        self.mode = mode
        self.satellitesUsed = satellitesUsed
        self.horizontalAccuracy = horizontalAccuracy
    }
}
