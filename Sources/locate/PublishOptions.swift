import GPSLocation
import GPSLocationMQTT
import LocateSupport

/// `locate publish URL`'s options: the stream's (followed), what is published and how (`--as`,
/// `--qos`, `--retain`, `--mqtt-version`), when it goes (`--every`), how much waits for the
/// broker (`--outbox-limit`), and the regions whose transitions go too (`--region`).
struct PublishOptions: Sendable {
    var stream = StreamOptions()
    /// `--as`.
    var kind = PublishFormat.Kind.json
    /// `--qos`, `--retain` and `--mqtt-version`: MQTT's, not an HTTP endpoint's.
    var qos = MQTTQoS.atLeastOnce
    var retain = false
    var mqttVersion = MQTTConfiguration.ProtocolVersion.v311
    /// `--every S`: the interval between bursts (`nil`: each record at once).
    var sendInterval: Duration?
    /// `--outbox-limit N`: the most records kept waiting for the broker.
    var outboxLimit = MQTTConfiguration.defaultQueueLimit
    /// `--region`, in order (the settings' regions join them when the command runs).
    var regions: [CircularRegion] = []
}

extension PublishOptions {
    /// The destination and the options of `parsed`, checked: the replay's combinations, the
    /// destination URL (the first argument) and what `--as` needs of it, no MQTT option for an
    /// HTTP endpoint, then gpsd's endpoint (a word that is a slip of a command's name is
    /// refused), the filters of a followed stream and the app.
    static func parse(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) -> (MQTTBroker, PublishOptions) {
        try parsed.checkReplay()
        var options = parsed.publish
        guard let destination = parsed.positional.first else {
            throw UsageError(
                message: "'publish' needs a destination: mqtt[s]://[USER@]HOST[:PORT]/TOPIC or http[s]://[USER@]HOST[:PORT]/PATH")
        }
        let broker: MQTTBroker
        do {
            broker = try MQTTBroker(parsing: destination, allowsHTTP: true)
        } catch {
            throw UsageError(message: error.description)
        }
        try PublishFormat.check(options.kind, broker: broker)
        if broker.isHTTP, let mqttOnly = parsed.used.first(where: { ["--qos", "--retain", "--mqtt-version"].contains($0.name) }) {
            throw UsageError(message: "'\(mqttOnly.name)' is for an MQTT broker, not an HTTP endpoint")
        }
        options.stream = try StreamOptions(
            parsed, words: Array(parsed.positional.dropFirst()), .endpointUnlessSlip, following: true, environment: environment)
        return (broker, options)
    }
}
