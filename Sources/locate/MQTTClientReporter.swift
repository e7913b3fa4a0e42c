import GPSLocationMQTT

/// What an MQTT client's connection does, said on stderr while it runs (`publish`, and a fleet
/// monitor's `--publish`): its connections, each cause of a failure once (not at every attempt
/// of the back-off), and what its queue dropped.
enum MQTTClientReporter {
    /// Reports `client`'s events until they end; `connected` is said at each connection, and
    /// `kind` names what its queue holds ("record", "event").
    static func start(_ client: MQTTClient, connected: String, kind: String) -> Task<Void, Never> {
        Task {
            var lastFailure: String?
            var outboxFailed = false
            var reportedDrops = 0
            for await event in client.events {
                switch event {
                case .connected:
                    lastFailure = nil
                    StandardStreams.diagnose(connected)
                case .connectionFailed(let reason), .connectionLost(let reason):
                    if reason != lastFailure { StandardStreams.diagnose("\(reason); trying again (\(kind)s are kept meanwhile)") }
                    lastFailure = reason
                case .dropped(let count):
                    // The first drop, then once a thousand (the queue drops one or a batch at a time).
                    defer { reportedDrops = count }
                    if reportedDrops == 0 || count / 1000 > reportedDrops / 1000 {
                        StandardStreams.diagnose(
                            "\(client.configuration.broker.isHTTP ? "the endpoint" : "the broker") has been away too long: dropped the \(count == 1 ? "oldest \(kind)" : "\(count) oldest \(kind)s") (the queue holds \(client.configuration.queueLimit))"
                        )
                    }
                case .outboxFailed(let reason):
                    // Once: a full disk fails every commit until it has room.
                    if !outboxFailed { StandardStreams.diagnose("\(reason); \(kind)s are still sent, but a crash now would lose them") }
                    outboxFailed = true
                }
            }
        }
    }
}
