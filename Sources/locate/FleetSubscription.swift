import GPSLocation
import GPSLocationConsent
import GPSLocationMQTT
import LocateFleet
import LocateSupport

/// `locate monitor|visits --subscribe URL --name NAME --by KEY`: a fleet's records straight from
/// a broker, in the persistent session `locate-COMMAND-NAME` (QoS 1), each message's payload
/// parsed as a `mosquitto_sub -v` line's would be.
///
/// The messages come in batches (what has come, up to ``batch``); a batch is acknowledged to the
/// broker only when the next one is asked for, after the `checkpoint` record that ends it, that
/// is once its events are written and flushed and the devices' states committed
/// (`FleetStateKeeper`): a monitor killed (even by SIGKILL) loses none, the broker sends the
/// batch again to the next run, which skips what the kept states already took. The socket is
/// read only when messages are wanted, so a monitor that cannot keep up leaves the backlog with
/// the broker.
struct SubscribedRecords: DeviceRecordSource {
    let subscription: MQTTSubscription
    let key: DeviceKey
    /// What messages call the source: the broker and filter.
    let name: String
    private var number = 0
    /// The batch being handed out, and the next of it.
    private var batch: [MQTTReceivedMessage] = []
    private var index = 0

    /// The most messages a batch: a commit and one write of acknowledgements each.
    static let batchSize = 500

    init(subscription: MQTTSubscription, by key: DeviceKey) {
        self.subscription = subscription
        self.key = key
        name = "\(subscription.configuration.broker)/\(subscription.filter) message"
    }

    /// The next message's position, a message that is not one, or the checkpoint that ends a
    /// batch; never `nil` (the subscription waits out any outage).
    mutating func next() -> DeviceRecord? {
        while true {
            if index == batch.count {
                // What was handed out is acknowledged by the next call: keep it first.
                if !batch.isEmpty {
                    batch = []
                    index = 0
                    return .checkpoint
                }
                batch = subscription.nextBatch(upTo: Self.batchSize)
            }
            let message = batch[index]
            index += 1
            number += 1
            guard let topic = message.topic else { return .skipped(line: number, reason: "its topic is not UTF-8") }
            do throws(DeviceRecordProblem) {
                if let location = try DeviceLocation.parse(topic: topic, payload: message.payload[...], by: key) {
                    return .location(location)
                }
            } catch {
                return .skipped(line: number, reason: error.description)
            }
        }
    }

    /// The client id a named fleet monitor's session has.
    static func session(command: String, name: String) -> String { "locate-\(command)-\(name)" }

    /// The records of `broker`'s filter in the persistent session `session` (in protocol
    /// `version`), devices named by `key`; connection news said on stderr, once per cause.
    /// - Throws: `MQTTSetup.Failure` when the settings' files or libmosquitto refuse.
    static func open(
        _ broker: MQTTBroker, session: String, version: MQTTConfiguration.ProtocolVersion, settings: ConsentSettings, by key: DeviceKey
    ) throws(MQTTSetup.Failure) -> SubscribedRecords {
        let configuration = try MQTTSetup.configuration(broker, settings: settings, version: version)
        var lastFailure: String?
        let filter = broker.topic
        do throws(MQTTError) {
            let subscription = try MQTTSubscription(
                configuration: configuration, filter: filter, session: session
            ) { event in
                switch event {
                case .connected:
                    lastFailure = nil
                    StandardStreams.diagnose(UntrustedText.visible("subscribed to \(filter) on \(broker)"))
                case .connectionFailed(let reason), .connectionLost(let reason):
                    if reason != lastFailure {
                        StandardStreams.diagnose(UntrustedText.visible("\(reason); trying again (the broker keeps the messages meanwhile)"))
                    }
                    lastFailure = reason
                case .dropped, .outboxFailed:
                    break
                }
            }
            return SubscribedRecords(subscription: subscription, by: key)
        } catch {
            throw MQTTSetup.Failure(message: error.description, status: ExitStatus(error))
        }
    }
}

extension FleetCommand {
    /// The records of `--subscribe` when it is given, else of `--replay`, devices named by `key`.
    /// With `--publish`, the events go to its broker as well. A named subscription's device
    /// states are kept in the store under `stateDirectory`, opened (and refused when it cannot be
    /// trusted, 78) before anything else.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    mutating func run(
        by key: DeviceKey, settings: ConsentSettings, stateDirectory: String?
    ) throws(StandardStreams.OutputError) -> ExitStatus {
        let session = SubscribedRecords.session(command: command, name: options.name ?? "")
        if options.subscription != nil, options.name != nil {
            guard let stateDirectory else {
                StandardStreams.diagnose(
                    "error: a named monitor keeps its devices' states, and no state directory is known (HOME is not set)")
                return .configuration
            }
            do throws(FleetStateKeeper.Failure) {
                let kept = try FleetStateKeeper(directory: stateDirectory, monitor: session, detector: &detector)
                if kept.dropped > 0 {
                    StandardStreams.diagnose("the monitor's regions or rules changed: the \(kept.dropped) devices it knew start afresh")
                }
                keeper = kept
            } catch {
                StandardStreams.diagnose("error: the fleet's states: " + error.description)
                return ExitStatus(error)
            }
        }
        var source: SubscribedRecords?
        do throws(MQTTSetup.Failure) {
            if let broker = options.subscription {
                source = try SubscribedRecords.open(broker, session: session, version: options.mqttVersion, settings: settings, by: key)
            }
            if let broker = options.eventBroker {
                publisher = try FleetPublisher(broker, version: options.mqttVersion, kind: kind, settings: settings)
            }
        } catch {
            StandardStreams.diagnose("error: " + error.message)
            return error.status
        }
        defer { publisher?.finish() }
        guard var source else { return try run(by: key) }
        return try run(from: &source)
    }
}
