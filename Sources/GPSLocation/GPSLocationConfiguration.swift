import LocateSupport

/// How a ``GPSLocationManager`` reaches gpsd. One home for the defaults.
public struct GPSLocationConfiguration: Sendable, Hashable {
    /// Where gpsd listens; `localhost:2947` by default.
    public var endpoint: GPSDEndpoint
    /// The longest a connection attempt may take before gpsd counts as unreachable.
    /// libgps connects with a blocking `connect()` that has no limit of its own.
    public var connectTimeout: Duration
    /// The first wait before reconnecting after gpsd went away; each failed attempt doubles it.
    public var reconnectDelay: Duration
    /// The longest wait between reconnection attempts.
    public var maximumReconnectDelay: Duration

    /// Creates a configuration; the defaults suit a local gpsd.
    public init(
        endpoint: GPSDEndpoint = .default,
        connectTimeout: Duration = .seconds(5),
        reconnectDelay: Duration = .milliseconds(250),
        maximumReconnectDelay: Duration = .seconds(4)
    ) {
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.reconnectDelay = reconnectDelay
        self.maximumReconnectDelay = maximumReconnectDelay
    }
}
