import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationMQTT
import LocateSupport

/// `--publish mqtt[s]://[USER@]HOST[:PORT]/TOPIC` of a fleet monitor (`--by`): each event's
/// record, the JSON object `--json` prints (naming its device), published to TOPIC at QoS 1 as
/// well as printed. Other devices' positions are data, so no consent of this machine gates them.
///
/// The client queues through outages (its bound, oldest dropped and said); the monitor stops
/// reading its source while half that bound waits (`waitWhileBackedUp`), so with `--subscribe`
/// the backlog stays with the broker. At the end the queue has 3 s to go out. A monitor killed
/// loses what was queued and not yet acknowledged by the broker (printed, not published).
struct FleetPublisher {
    let client: MQTTClient
    let topic: String
    private var format: JSONFormat
    private let reporter: Task<Void, Never>

    /// A started client for `broker` in protocol `version`, with the settings' password and CA
    /// file, for the records of `kind`'s events.
    /// - Throws: `MQTTSetup.Failure` when the settings' files or libmosquitto refuse.
    init(
        _ broker: MQTTBroker, version: MQTTConfiguration.ProtocolVersion, kind: RecordKind, settings: ConsentSettings
    ) throws(MQTTSetup.Failure) {
        client = try MQTTSetup.client(try MQTTSetup.configuration(broker, settings: settings, version: version))
        topic = broker.topic
        format = JSONFormat(includesEvents: false, fields: kind.fields(includingPlaces: false, devices: true))
        reporter = MQTTClientReporter.start(client, connected: "publishing events to \(client.configuration.broker)", kind: "event")
    }

    /// Queues `event`'s record, of `device`.
    mutating func publish(_ event: EventRecord, device: String) {
        var bytes: [UInt8] = []
        _ = format.record(RecordSource(location: event.location, now: Date(), place: nil, event: event, device: device), to: &bytes)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        client.publish(MQTTMessage(topic: topic, payload: bytes, qos: .atLeastOnce))
    }

    /// Waits (on this thread, never the cooperative pool) while half the client's queue bound
    /// waits for the broker, outages included: the client says when there is room.
    func waitWhileBackedUp() {
        let client = client
        guard client.waiting >= client.configuration.queueLimit / 2 else { return }
        Locate.waitFor { () async -> Void in await client.waitForRoom(throughOutages: true) }
    }

    /// Gives what is queued 3 s to go out, then ends the client.
    func finish() {
        let client = client
        Locate.waitFor { () async -> Void in await client.finish(farewell: [], within: MQTTSetup.finishDeadline) }
        reporter.cancel()
        if client.waiting > 0 {
            StandardStreams.diagnose("\(client.waiting) events were not published: the broker did not take them in time")
        }
    }
}
