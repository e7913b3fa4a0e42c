import GPSLocationMQTT
import LocateFleet

/// What `monitor` and `visits` share beyond the stream and the output: the name of a run
/// (`--name`), and a fleet's records instead of this machine's positions (`--by`, `--subscribe`,
/// `--publish`, `--mqtt-version`).
struct FleetOptions: Sendable {
    /// `--name`: the named monitor whose states are kept between runs, and the broker's session
    /// of `--subscribe`.
    var name: String?
    /// `--by KEY`: a state per device of a fleet's records.
    var deviceKey: DeviceKey?
    /// `--subscribe URL`, with `--by`: the broker and topic filter a fleet's records come from.
    var subscription: MQTTBroker?
    /// `--publish URL`, with `--by`: the broker and topic each event's record goes to as well.
    var eventBroker: MQTTBroker?
    /// `--mqtt-version`, for `--subscribe` and `--publish`.
    var mqttVersion = MQTTConfiguration.ProtocolVersion.v311

    /// Whether the options go with a fleet's (`--by`, `--subscribe`, `--publish`): a fleet's
    /// records from `--replay` (`stream`'s), nothing kept, or from `--subscribe` in `--name`'s
    /// session; no goal (`until`) or time limit yet. True when none of them is given; says why
    /// not on stderr.
    func fit(_ stream: StreamOptions, until: Bool) -> Bool {
        guard deviceKey != nil || subscription != nil || eventBroker != nil else { return true }
        let problem: String? =
            if eventBroker != nil, deviceKey == nil {
                "'--publish' publishes a fleet's events: it needs --by topic|FIELD"
            } else if subscription != nil, deviceKey == nil {
                "'--subscribe' reads a fleet's records: it needs --by topic|FIELD"
            } else if subscription != nil, name == nil {
                "'--subscribe' needs --name NAME: the broker keeps the monitor's session under it"
            } else if subscription != nil, stream.replay != nil {
                "'--subscribe' reads the broker: not with --replay"
            } else if subscription != nil, until || stream.duration != nil {
                "'--subscribe' ends with --count or a signal: not with --until or --duration"
            } else if subscription != nil {
                nil
            } else if stream.replay == nil {
                "'--by' reads a fleet's records from --replay FILE (- for stdin)"
            } else if name != nil {
                "'--by' keeps no state between runs: not with --name"
            } else if until || stream.duration != nil {
                "'--by' ends with its input or --count: not with --until or --duration"
            } else {
                nil
            }
        if let problem { StandardStreams.diagnose("error: " + problem) }
        return problem == nil
    }
}
