import FoundationEssentials
import GPSLocation
import GPSLocationMQTT
import LocateSupport

/// `locate publish URL`: the live stream, as `--follow` reads it, published to an MQTT broker
/// in the format of `--as`, until `--count`, `--duration`, SIGINT, SIGTERM or the end of a replay.
///
/// Consent, as everywhere: each record is made of a position the stream handed out, and goes
/// to the broker only while the authorization it was taken under holds, checked at the moment
/// the client hands it to the broker (so what waited through an outage is dropped by a revoke).
/// The fallback is never published; when location is not authorized (or paused) a status
/// message says so instead, and the retained position is cleared. The broker away is no
/// failure: records wait in the client's bounded outbox, on disk, and go out in order when it
/// is back, or first in the next run for the same broker, topic and app (positions taken under
/// an authorization this run no longer has, or reduced to, are deleted from disk, never sent).
struct PublishCommand {
    let options: PublishOptions
    let manager: GPSLocationManager
    let explainer: AuthorizationMessages
    let client: MQTTClient
    let format: PublishFormat
    /// The regions whose transitions are published: the settings', then `--region`'s (which
    /// replace those of the same name), as `locate monitor` takes them.
    let regions: RegionMonitor
    let started = ContinuousClock.now

    func run() async -> ExitStatus {
        // A second signal gives up on the farewell; the end still says what was not delivered.
        let outcome = try? await StreamLifetime.run(
            for: options.stream.duration, second: { [client] in client.abandon() }, { .success(await publish()) })
        return outcome ?? .failure
    }

    /// What the session did, for the exit status and the status messages.
    private struct Progress {
        var stream: StreamProgress
        var published = 0
        /// Whether the status now says unavailable (not authorized, paused).
        var isUnavailable = false
        /// The last status said on stderr.
        var lastSaid: String?
    }

    private func publish() async -> ExitStatus {
        let broker = client.configuration.broker
        let reporter = MQTTClientReporter.start(
            client, connected: broker.isHTTP ? "\(broker) answers" : "connected to \(broker)", kind: "record")
        if let discovery = format.discovery { client.announce(discovery) }
        var progress = Progress(stream: StreamProgress(replay: options.stream.replayName))
        var updates = await manager.liveUpdates(options.stream.liveUpdateOptions).makeAsyncIterator()
        progress.stream.note(updates.authorization)
        // What an earlier run left goes first, while this run's first authorization holds, and
        // only if it is precise: under any other, those positions are deleted, unsent.
        if let restored = updates.admissionNow {
            client.restore { restored.isAdmittedPrecise }
        } else {
            client.restore(while: nil)
        }
        // Not authorized from the start: a retained position of an earlier run goes too.
        setAvailability(updates.authorization.denial?.rawValue, progress: &progress)
        var monitor = regions
        var monitorGeneration = updates.authorizationChanges
        var status: ExitStatus?
        do throws(GPSLocationError) {
            while let update = try await updates.next() {
                progress.stream.note(updates.authorization)
                progress.stream.noteHeldBack(updates.locationsHeldBack)
                switch update {
                case .location(let location):
                    progress.stream.notePosition()
                    // The gate again when the client hands a record to the broker: only under
                    // the authorization the location was released under.
                    guard let admission = updates.lastLocationAdmission else { continue }
                    let now = Date()
                    // A replay read as fast as it goes goes at the broker's pace, not past the outbox's bound.
                    if options.stream.replay != nil, options.stream.replaySpeed == 0 { await client.waitForRoom() }
                    client.publish(format.location(location, now: now)) { admission.isAdmitted }
                    // Available again only with a fresh position out first: Home Assistant shows
                    // the state it had the moment it reads `online`, which must not be the one from
                    // before the revoke.
                    if progress.isUnavailable { setAvailability(nil, afterAPosition: true, progress: &progress) }
                    progress.published += 1
                    let changes = updates.authorizationChanges
                    if changes != monitorGeneration {
                        // Nothing decided under another authorization carries over (as `monitor` does).
                        monitor = regions
                        monitorGeneration = changes
                    }
                    // Regions need precise positions; a reduced cell decides none.
                    if !regions.regions.isEmpty, location.accuracy == .fullAccuracy {
                        for event in monitor.process(location) {
                            if let record = format.transition(event, now: now) { client.publish(record) { admission.isAdmittedPrecise } }
                        }
                    }
                case .status(let event):
                    progress.stream.note(event)
                    let said = StatusEvent(event, endpoint: manager.configuration.endpoint, explanation: explainer.explain).message
                    StandardStreams.diagnose(said)
                    progress.lastSaid = said
                    switch event {
                    case .authorizationChanged, .paused, .resumed, .accuracyChanged, .settingsInvalid:
                        // Nothing handed to the client's connection outlives a change of admission
                        // (a precise record after a switch to reduced accuracy, too).
                        client.admissionsChanged()
                    default:
                        break
                    }
                    switch event {
                    case .authorizationChanged(_, let denial?):
                        setAvailability(denial.rawValue, progress: &progress)
                    case .paused:
                        setAvailability("paused", progress: &progress)
                    case .authorizationChanged(_, nil), .resumed:
                        // `online` waits for the first position (see above).
                        break
                    default:
                        break
                    }
                }
                if let count = options.stream.count, progress.published >= count { break }
            }
        } catch .cancelled {
        } catch {
            // Settings gone bad (78), a malformed track (65), gpsd or the system: said, and its status.
            StandardStreams.diagnose(error.description)
            status = ExitStatus(error)
        }
        progress.stream.noteHeldBack(updates.locationsHeldBack)
        await client.finish(farewell: format.farewell, within: MQTTSetup.finishDeadline)
        reporter.cancel()
        // The access log records this publish session here (app, accuracy, first and last
        // delivery, count), once `locate serve`'s log lands: `progress.published` records.
        let undelivered = client.waiting + client.unacknowledged
        if undelivered > 0 {
            let kept = client.configuration.outbox != nil && client.outboxFailures == 0 ? "; the outbox keeps them for the next run" : ""
            StandardStreams.diagnose(
                "\(Self.records(undelivered, "was", "were")) not delivered: \(client.configuration.broker) could not be reached, did not acknowledge, or refused, until the end\(kept)"
            )
        }
        if client.refused > 0 {
            StandardStreams.diagnose(
                "\(Self.records(client.refused, "was", "were")) refused by the broker (do its access rules let this user publish to \(format.topic)?)"
            )
        }
        if client.dropped > 0 {
            StandardStreams.diagnose(
                "\(Self.records(client.dropped, "was", "were")) dropped while \(client.configuration.broker.isHTTP ? "the endpoint" : "the broker") was away"
            )
        }
        if let status { return status }
        if progress.stream.endsWithInvalidSettings { return .configuration }
        // The disk did not keep what it was to keep: a crash could have lost it.
        if client.outboxFailures > 0 { return .ioError }
        // Never 0 after a record was lost, nor after a second signal cut the goodbye short.
        if undelivered > 0 || client.refused > 0 || client.dropped > 0 { return .unavailable }
        if client.wasAbandoned { return .failure }
        guard progress.stream.positions == 0 else { return .success }
        let (reason, message) = progress.stream.reasonForNoPosition(
            endpoint: manager.configuration.endpoint, started: started, explain: explainer.explain)
        // Once: a denial was said when it came.
        if message != progress.lastSaid { StandardStreams.diagnose(message) }
        return ExitStatus(reason)
    }

    /// "1 record was", "3 records were".
    static func records(_ count: Int, _ singular: String, _ plural: String) -> String {
        count == 1 ? "1 record \(singular)" : "\(count) records \(plural)"
    }

    /// Announces availability: `online` when `reason` is `nil`, otherwise the status that says
    /// why not (a keyword: `denied`, `paused`; the local explanation, with the settings file's
    /// path, stays on stderr); then (not authorized, paused) the retained position goes too, whatever
    /// `--retain` says (an earlier run may have left one).
    /// Formats with an `online` announce the one or the other, again on every connection;
    /// OwnTracks (which has none) publishes its `lwt` once.
    /// - Parameter afterAPosition: `online` goes out after the position just queued (a
    ///   re-allow), not ahead of what is queued as announcements do.
    private func setAvailability(_ reason: String?, afterAPosition: Bool = false, progress: inout Progress) {
        if let reason {
            guard !progress.isUnavailable else { return }
            if let clear = format.clearRetained { client.publish(clear) }
            if let status = format.unavailable(reason: reason) {
                if format.online != nil { client.announce(status) } else { client.publish(status) }
            }
            progress.isUnavailable = true
        } else {
            if let online = format.online { client.announce(online, inOrder: afterAPosition) }
            progress.isUnavailable = false
        }
    }
}

extension PublishCommand {
    /// Runs `locate publish URL` to `given` with `options`: the broker's client (or the HTTP
    /// endpoint's), with the credentials and the outbox the settings say.
    static func run(_ options: PublishOptions, to given: MQTTBroker) -> ExitStatus {
        CommandContext.run(options.stream, via: "locate publish", asks: true, isStream: true) { context in
            let (store, settings) = (context.store, context.settings)
            let (broker, http) = PublishFormat.destination(given, kind: options.kind)
            var format = PublishFormat(kind: options.kind, topic: broker.topic, qos: options.qos, retain: options.retain, started: Date())
            format.http = http
            let client: MQTTClient
            do throws(MQTTSetup.Failure) {
                var configuration = try MQTTSetup.configuration(broker, settings: settings, version: options.mqttVersion)
                configuration.will = format.will
                configuration.httpHeaders = broker.isHTTP ? format.httpHeaders(user: broker.user) : []
                configuration.outbox = store.paths.stateDirectory.map {
                    MQTTOutbox(directory: $0, app: store.appName ?? "", settingsChanged: store.settingsLastChanged)
                }
                configuration.queueLimit = options.outboxLimit
                configuration.sendInterval = options.sendInterval
                client = try MQTTSetup.client(configuration)
            } catch {
                StandardStreams.diagnose("error: " + error.message)
                return error.status
            }
            let command = PublishCommand(
                options: options, manager: context.manager, explainer: context.explainer, client: client, format: format,
                regions: RegionMonitor(regions: settings.regions + options.regions))
            return Locate.waitFor { await command.run() }
        }
    }
}
