/// How an ``MQTTClient`` reaches its broker and what it keeps for it. One home for the defaults.
public struct MQTTConfiguration: Sendable, Hashable {
    /// The MQTT protocol spoken.
    public enum ProtocolVersion: String, Sendable, Hashable, CaseIterable {
        /// MQTT 3.1.1, which every broker speaks (nats-server's MQTT speaks only this one).
        case v311 = "3.1.1"
        /// MQTT 5.
        case v5 = "5"
    }

    /// The broker, the user and the base topic.
    public var broker: MQTTBroker
    /// The password for ``MQTTBroker/user``, read from a private file, never from a command line.
    public var password: String?
    /// The CA certificates (PEM) that `mqtts://` trusts; `nil` for the system's store.
    public var caFile: String?
    /// The protocol version; 3.1.1 by default.
    public var protocolVersion: ProtocolVersion
    /// The keepalive: a broker that says nothing for about this long counts as gone.
    public var keepalive: Duration
    /// What the broker publishes when the connection is lost without a goodbye (the last will).
    public var will: MQTTMessage?
    /// The most messages kept while the broker cannot be reached; the oldest go first.
    public var queueLimit: Int
    /// Hold messages and send them in one burst every so often, connected only for the burst (a
    /// radio woken that often, not at every fix); `nil` sends each at once. The first burst goes
    /// as soon as there is something to send; a burst ends, with a clean disconnect (no last
    /// will), once the broker acknowledged everything.
    public var sendInterval: Duration?
    /// Where messages wait on disk for the broker, so that a restart, a crash or a power cut
    /// loses none; `nil` keeps them in memory only.
    public var outbox: MQTTOutbox?
    /// The most messages handed to the broker and not yet acknowledged (at QoS 0: not yet written);
    /// an HTTP endpoint gets one request at a time.
    public var window: Int
    /// An HTTP endpoint's request headers (`Name: value`), such as its `Content-Type`.
    public var httpHeaders: [String] = []
    /// The first wait before connecting again; each failed attempt doubles it.
    public var reconnectDelay: Duration
    /// The longest wait between attempts.
    public var maximumReconnectDelay: Duration

    /// The default ``queueLimit``.
    public static let defaultQueueLimit = 10_000

    /// A configuration for `broker`; the defaults suit a broker on the local network.
    public init(
        broker: MQTTBroker, password: String? = nil, caFile: String? = nil, protocolVersion: ProtocolVersion = .v311,
        keepalive: Duration = .seconds(30), will: MQTTMessage? = nil, queueLimit: Int = defaultQueueLimit, window: Int = 20,
        reconnectDelay: Duration = .milliseconds(250), maximumReconnectDelay: Duration = .seconds(4)
    ) {
        self.broker = broker
        self.password = password
        self.caFile = caFile
        self.protocolVersion = protocolVersion
        self.keepalive = keepalive
        self.will = will
        self.queueLimit = max(1, queueLimit)
        self.window = max(1, window)
        self.reconnectDelay = reconnectDelay
        self.maximumReconnectDelay = maximumReconnectDelay
    }
}

/// The outbox on disk of an ``MQTTClient``: the user's store in a private state directory
/// (`$XDG_STATE_HOME/locate/store.sqlite`), one queue per broker, topic and app.
///
/// A message is committed to it (with the disk's word) before it goes to the broker and deleted
/// once the broker acknowledged it (at QoS 0: once written); the next client of the same broker,
/// topic and app sends what is left first, in order (``MQTTClient/restore(while:)``). A position
/// whose admission says no is deleted at once, never sent, after any restart.
public struct MQTTOutbox: Sendable, Hashable {
    /// The private state directory the store is in.
    public var directory: String
    /// Whose permission the positions were taken under: a revoke of this app deletes them.
    public var app: String
    /// When the settings last changed (Unix seconds): positions an earlier run kept before it are
    /// deleted, unsent, when the client restores them, since no run watched that change (a deny
    /// and an allow again may be between); `nil` for settings that never existed.
    public var settingsChanged: Double?

    /// The outbox in `directory` for `app`, the settings last changed at `settingsChanged`.
    public init(directory: String, app: String, settingsChanged: Double? = nil) {
        self.directory = directory
        self.app = app
        self.settingsChanged = settingsChanged
    }
}
