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
            for await event in client.events {
                switch event {
                case .connected:
                    lastFailure = nil
                    StandardStreams.diagnose(connected)
                case .connectionFailed(let reason), .connectionLost(let reason):
                    if reason != lastFailure { StandardStreams.diagnose("\(reason); trying again (\(kind)s are kept meanwhile)") }
                    lastFailure = reason
                case .dropped(let count):
                    if count == 1 || count % 1000 == 0 {
                        StandardStreams.diagnose(
                            "the broker has been away too long: dropped the \(count == 1 ? "oldest \(kind)" : "\(count) oldest \(kind)s") (the queue holds \(client.configuration.queueLimit))"
                        )
                    }
                }
            }
        }
    }
}
