/// How hard the broker tries to deliver a message (MQTT's quality of service).
public enum MQTTQoS: Int32, Sendable, Hashable, CaseIterable {
    /// At most once: sent, never acknowledged.
    case atMostOnce = 0
    /// At least once: acknowledged by the broker, sent again until it is (a receiver may see it twice).
    case atLeastOnce = 1
    /// Exactly once: a four-way handshake with the broker.
    case exactlyOnce = 2
}

/// One message for the broker: where it goes, what it says, and how.
public struct MQTTMessage: Sendable, Hashable {
    /// The topic it is published to (no wildcards).
    public var topic: String
    /// The bytes it carries; an empty retained message clears the topic's retained one.
    public var payload: [UInt8]
    /// The quality of service it is published with.
    public var qos: MQTTQoS
    /// Whether the broker keeps it for subscribers that come later.
    public var retain: Bool

    /// A message with `payload` for `topic`.
    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A message whose payload is `text` in UTF-8.
    public init(topic: String, text: String, qos: MQTTQoS = .atLeastOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }
}

/// Why an MQTT client cannot be made or used.
public enum MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A broker URL that cannot be used, and why.
    case invalidURL(String)
    /// A setting libmosquitto refused (a CA file it cannot read), or a resource the system refused.
    case unusable(String)
    /// The outbox's store cannot be used: a file or directory that is not the user's alone, a
    /// file that is not the store, a library missing. Nothing was read or written.
    case outboxRefused(String)
    /// The outbox's disk is full or failing: a message could not be kept (it is still sent).
    case outboxFailed(String)
    /// Another process sends this outbox's queue now (a second `locate publish` to the same
    /// broker, topic and app): one sender a queue, so that nothing goes twice or out of order.
    case outboxInUse(String)

    /// The words for a message.
    public var description: String {
        switch self {
        case .invalidURL(let reason): "not a destination URL: \(reason)"
        case .unusable(let reason): "MQTT: \(reason)"
        case .outboxRefused(let reason): "the outbox cannot be used: \(reason)"
        case .outboxFailed(let reason): "the outbox cannot keep what waits: \(reason)"
        case .outboxInUse(let reason): "the outbox is in use: \(reason)"
        }
    }
}
