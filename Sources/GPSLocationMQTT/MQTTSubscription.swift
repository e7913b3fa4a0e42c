import LocateSupport

/// A message a subscription received: the topic it was published to and its payload.
public struct MQTTReceivedMessage: Sendable, Hashable {
    /// The topic, or `nil` when it is not UTF-8 (a broker that did not check it).
    public let topic: String?
    /// The bytes it carries.
    public let payload: [UInt8]
}

/// A subscription in a persistent session: the broker keeps the session (its subscription and
/// the QoS 1 messages that come while the subscriber is away) under the client id `session`,
/// so a subscriber that stops, crashes or loses the broker resumes where it stopped.
///
/// At least once, and never more ahead than what was handed out: libmosquitto's acknowledgement of
/// a message (its PUBACK) is held until ``next()`` (or ``nextBatch(upTo:)``) is called again, so a
/// message is acknowledged only after its receiver took it and asked for more. A subscriber killed before then
/// gets it again from the broker (it may see the last one twice, never miss one). It reads the
/// socket only when asked for a message, so a receiver that cannot keep up leaves the messages
/// with the broker (in its socket buffers, then its queue for the session, which the broker
/// bounds: mosquitto's `max_queued_messages`), never in this process.
///
/// A broker that is away, refuses the connection or the subscription, or stops answering is no
/// failure: the subscription connects again with a capped back-off and subscribes again on each
/// connection, saying what happened through `report`.
///
/// - Important: ``next()`` blocks until a message comes: call it from a thread of its own,
///   never from the cooperative pool. A subscription is used by one thread only.
public final class MQTTSubscription {
    /// How the subscription reaches the broker.
    public let configuration: MQTTConfiguration
    /// The topic filter subscribed to (`+` and `#` as MQTT has them).
    public let filter: String
    /// The client id the broker keeps the session under.
    public let session: String

    private let report: (MQTTEvent) -> Void
    private var connection: MosquittoConnection?
    private var opened = ContinuousClock.now
    private var isSubscribed = false
    private var received: [MosquittoDelivery] = []
    private var head = 0
    private var delay: Duration
    private var nextAttempt = ContinuousClock.now
    private var waiter = EventWait(wakeUp: nil)

    /// A subscription to `filter` on `configuration`'s broker in the persistent session
    /// `session`; it connects when ``next()`` is first called.
    /// - Throws: ``MQTTError/invalidURL(_:)`` for a filter or client id MQTT does not allow,
    ///   ``MQTTError/unusable(_:)`` when libmosquitto refuses the configuration (a CA file it cannot read).
    public init(
        configuration: MQTTConfiguration, filter: String, session: String, report: @escaping (MQTTEvent) -> Void
    ) throws(MQTTError) {
        try MQTTBroker.checkFilter(filter)
        guard !session.isEmpty, session.utf8.count <= 65535, !session.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw .invalidURL("the client id must have 1 to 65535 bytes and no control character")
        }
        // A first handle checks the settings, so that a mistake is an error now, not a retry forever.
        _ = try MosquittoConnection(configuration, session: session)
        self.configuration = configuration
        self.filter = filter
        self.session = session
        self.report = report
        delay = configuration.reconnectDelay
    }

    /// The next message, in the order the broker sent them; blocks until one comes, through
    /// any outage. Calling it acknowledges the messages it returned before.
    public func next() -> MQTTReceivedMessage {
        nextBatch(upTo: 1)[0]
    }

    /// The messages that have come, at least one and at most `limit`, in the order the broker
    /// sent them; blocks until one comes, through any outage. Calling it acknowledges every
    /// message handed out before, in one write: a receiver that keeps what a batch changed
    /// (a commit) before it asks for the next batch pays for it once a batch, not once a message.
    public func nextBatch(upTo limit: Int) -> [MQTTReceivedMessage] {
        while true {
            if head < received.count {
                let end = min(received.count, head + max(1, limit))
                defer { head = end }
                return received[head..<end].map { message in
                    MQTTReceivedMessage(topic: String(validating: message.topic, as: UTF8.self), payload: message.payload)
                }
            }
            received.removeAll(keepingCapacity: true)
            head = 0
            guard let connection else {
                if ContinuousClock.now < nextAttempt {
                    waiter.wait(for: nil, until: nextAttempt)
                } else {
                    open()
                }
                continue
            }
            if let failure = service(connection, reading: max(1, limit)) { close(because: failure) }
        }
    }

    /// One round: the acknowledgements of what was handed out and any ping written first, then
    /// the packets that have come, up to `limit` messages (their acknowledgements wait for the
    /// next round).
    /// - Returns: why the connection failed, or `nil` while it holds.
    private func service(_ connection: MosquittoConnection, reading limit: Int) -> String? {
        if let failure = connection.service(readable: false) { return failure }
        guard let socket = connection.socket else { return "the connection was closed" }
        let ready = waiter.wait(for: socket, until: .now + .seconds(1))
        if ready.isReadable || ready.isHangUpOrError {
            // A packet a read (libmosquitto's); on while packets come, so one wait serves a batch.
            while connection.messageCount < limit {
                let before = connection.messageCount
                if let failure = connection.read(upTo: 1) { return failure }
                if connection.messageCount == before { break }
            }
        }
        for event in connection.takeEvents() {
            switch event {
            case .connected(nil):
                if let failure = connection.subscribe(filter) { return "cannot subscribe to \(filter): \(failure)" }
            case .connected(let refusal?):
                return "the broker refused the connection: \(refusal)"
            case .acknowledged:
                break
            }
        }
        if !isSubscribed, let granted = connection.grantedQoS {
            guard granted < 128 else { return "the broker refused the subscription to \(filter)" }
            isSubscribed = true
            delay = configuration.reconnectDelay
            report(.connected)
        }
        received = connection.takeMessages()
        if !isSubscribed, opened.duration(to: .now) > .seconds(10) { return "the broker did not answer in 10 s" }
        return nil
    }

    private func open() {
        do throws(MQTTError) {
            let connection = try MosquittoConnection(configuration, session: session)
            connection.receiveMessages()
            if let failure = connection.connectSession(
                host: configuration.broker.host, port: configuration.broker.port,
                keepalive: Int(configuration.keepalive.components.seconds))
            {
                retryLater(.connectionFailed("cannot reach \(configuration.broker): \(failure)"))
                return
            }
            self.connection = connection
            opened = .now
            isSubscribed = false
        } catch {
            retryLater(.connectionFailed(error.description))
        }
    }

    /// Drops the connection: what was handed out and not acknowledged comes again on the next one.
    private func close(because failure: String) {
        let said = "\(configuration.broker): \(failure)"
        connection = nil
        retryLater(isSubscribed ? .connectionLost(said) : .connectionFailed(said))
    }

    private func retryLater(_ event: MQTTEvent) {
        report(event)
        nextAttempt = .now + delay
        delay = min(delay * 2, configuration.maximumReconnectDelay)
    }
}
