import LocateSupport

/// What happened on a connection during one `service` round.
enum ConnectionEvent: Equatable {
    /// The broker's CONNACK (an HTTP endpoint's first 2xx answer): `refusal` is `nil` when it accepted the connection.
    case connected(refusal: String?)
    /// The broker acknowledged message `id` (QoS 1 and 2), or it was written (QoS 0), or an
    /// HTTP endpoint answered its request with a 2xx; `refused` when its MQTT 5 reason code is a
    /// failure (0x80 and above: not authorized, quota exceeded).
    case acknowledged(id: Int32, refused: Bool)
}

/// One connection of an ``MQTTClient``'s loop to its destination, used by the loop's thread
/// only: a broker's (`MosquittoConnection`) or an HTTP endpoint's (`CurlConnection`).
protocol PublishingConnection: AnyObject {
    /// Starts connecting. - Returns: why it failed, or `nil`.
    func connect(host: String, port: Int, keepalive: Int) -> String?
    /// Whether messages may be handed over before `.connected` (an HTTP endpoint's first
    /// answer is its `.connected`); a broker's wait for its CONNACK.
    var isUpBeforeItAnswers: Bool { get }
    /// Hands `message` over; its id (for the acknowledgement), or `nil` when it failed.
    /// `admits` says whether it may still go while it has not gone yet (an HTTP request that
    /// waits for its connection is given up when it says no).
    func publish(_ message: MQTTMessage, while admits: (@Sendable () -> Bool)?) -> Int32?
    /// Ends the connection cleanly.
    func disconnect()
    /// Ends the connection so that nothing it still holds is sent.
    func abort()
    /// The socket to wait on; `nil` once the connection is closed, or when it has none to wait
    /// on (``waitsOnSocket`` is false).
    var socket: PollRequest? { get }
    /// Whether the loop waits on ``socket`` (an HTTP connection's requests are made in `publish`).
    var waitsOnSocket: Bool { get }
    /// Does the connection's work. - Returns: why it failed, or `nil` while it holds.
    func service(readable: Bool) -> String?
    /// Whether something happened that was not taken yet.
    var hasEvents: Bool { get }
    /// What happened since the last call, in order.
    func takeEvents() -> [ConnectionEvent]
}
