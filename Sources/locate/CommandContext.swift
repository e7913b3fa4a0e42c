import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import LocateSupport

/// What a command that reads this machine's positions runs with, set up the same way for each
/// (`run(_:output:records:via:asks:isStream:_:)`): the consent store and its settings, gpsd's
/// configuration, the track replayed instead of gpsd, the manager (over gpsd, or over the
/// track), the messages that explain authorization, and the writer of records.
struct CommandContext {
    let store: ConsentStore
    let settings: ConsentSettings
    let configuration: GPSLocationConfiguration
    /// The track played instead of gpsd (`--replay`), if any.
    let replay: ReplayTrack?
    let manager: GPSLocationManager
    let explainer: AuthorizationMessages
    let writer: RecordWriter
}

extension CommandContext {
    /// Sets up a command that reads positions with `stream`'s source and app, runs `body` with
    /// it, and then keeps the run's session in the access log when it handed positions out.
    /// - Parameters:
    ///   - output: how records are written: the language of their places, and whether the
    ///     fallback stands in (the defaults for a command that writes none).
    ///   - format: the format of the records (text for a command that writes none).
    ///   - via: what handed positions out, in the access log (`locate --once`, `locate monitor`, ...).
    ///   - asks: whether nothing decided is asked about on the terminal (a run that reads this
    ///     machine's positions), before anything else is set up.
    ///   - isStream: whether a signal ends the run cleanly (its signals stay blocked after the question).
    /// - Returns: `body`'s status, or that of a step of the set-up that failed (said on stderr).
    static func run<Failure: Error>(
        _ stream: StreamOptions, output: OutputOptions = OutputOptions(), records format: any OutputFormat = TextFormat(),
        via: String, asks: Bool, isStream: Bool, _ body: (CommandContext) throws(Failure) -> ExitStatus
    ) throws(Failure) -> ExitStatus {
        try ConsentSetup.run(app: stream.app, replay: stream.replay) { setup throws(Failure) in
            let store = setup.store
            let configuration = setup.configuration(endpoint: stream.endpoint)
            // One manager per run: over the replayed track, or over gpsd with the user's consent.
            let manager =
                setup.replay.map { GPSLocationManager(replaying: $0, speed: stream.replaySpeed ?? 1) }
                ?? GPSLocationManager(authorizationSource: store, configuration: configuration)
            var explainer = AuthorizationMessages(store: store, app: stream.app)
            let decision = setup.settings.decision
            if asks, setup.replay == nil, decision.status == .notDetermined, decision.locationServicesEnabled {
                // Nothing is decided: the manager asks, on the terminal (only a person at its
                // foreground is asked). Ctrl-C at the prompt ends locate at once: nothing is started yet.
                SignalTrap.restoreDefaultActions()
                let prompter = TerminalPrompter()
                let purpose = stream.purpose
                do throws(GPSLocationError) {
                    _ = try Locate.waitFor { () async throws(GPSLocationError) in
                        try await manager.requestWhenInUseAuthorization(purpose: purpose, prompter: prompter)
                    }
                } catch {
                    StandardStreams.diagnose(error.description)
                    return ExitStatus(error)
                }
                if isStream { SignalTrap.blockSignals() }
                explainer.wasAsked = prompter.wasAsked
            }
            var places: PlaceFinder?
            if format.needsPlaces {
                do throws(GPSLocationError) {
                    places = try PlaceFinder(language: output.placeLanguage ?? .current)
                } catch {
                    StandardStreams.diagnose(error.description)
                    return ExitStatus(error)
                }
            }
            // Who had my location: a run that handed out this machine's positions is a session of the access log.
            let tally = DeliveryTally(app: stream.app, via: via)
            defer { tally.record(in: AccessLog(paths: store.paths)) }
            let writer = RecordWriter(format: format, fallback: output.fallbackEnabled ? setup.fallback : nil, places: places, tally: tally)
            return try body(
                CommandContext(
                    store: store, settings: setup.settings, configuration: configuration, replay: setup.replay, manager: manager,
                    explainer: explainer, writer: writer))
        }
    }
}
