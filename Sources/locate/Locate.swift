import Dispatch
import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationMQTT
import GPSLocationPlaces
import GeoClueAgent
import LocateFleet
import LocateSupport
import Synchronization

/// The `locate` command: parse, run, and map the outcome to an exit status in one place.
///
/// `main` is synchronous: `--once` (the hot path) runs on the main thread alone, with no Swift
/// concurrency at all; the commands that need it run as a detached task the main thread waits
/// for, its signal mask staying as `SignalTrap` set it (an `async` main would park the main thread
/// in libdispatch's `sigsuspend` with every signal unblocked).
@main
enum Locate {
    static func main() {
        // Before anything opens a descriptor: a closed stdout must not lend its number to a file.
        StandardIO.reserveClosedDescriptors()
        // Before any other thread exists, so that all of them inherit it (see SignalTrap).
        SignalTrap.blockSignals()
        // A closed pipe must surface as EPIPE from write(2), not kill the process mid-line.
        StandardIO.ignoreBrokenPipes()
        let environment = EnvironmentVariables.process
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let file = environment["LOCATE_GENERATE"], let text = generated(file) {
            // `make install NAME=...`: the man page and completions for the name it was run as.
            StandardIO.exit((try? StandardStreams.write(Array(text.utf8))) == nil ? ExitStatus.ioError.rawValue : 0)
        }
        let status: ExitStatus
        do {
            let options = try CommandLineOptions(arguments: arguments, environment: environment)
            // Only the streams end cleanly on a signal; everything else ends with its default action.
            if !options.isStream { SignalTrap.restoreDefaultActions() }
            status = run(options, environment: environment)
        } catch {
            StandardStreams.diagnose("error: " + error.message)
            let command = CommandTable.command(of: arguments)
            let program = Usage.program
            var first = true
            for usage in Usage.usageLines where usage.commands.contains(command.name) {
                StandardStreams.writeMessage((first ? "Usage: " : "       ") + program + " " + usage.line)
                first = false
            }
            let helpCommand = command.name.isEmpty || command.name == "help" ? "" : " " + command.name
            StandardStreams.writeMessage("See '\(program)\(helpCommand) --help' for more information.")
            status = .usage
        }
        StandardIO.exit(status.rawValue)
    }

    /// Whether the options go with `--by` (a fleet's records from `--replay`, nothing kept, or
    /// from `--subscribe` in `--name`'s session; no goal or time limit yet); says why not.
    private static func fleetOptionsFit(_ options: CommandLineOptions) -> Bool {
        let problem: String? =
            if options.eventBroker != nil, options.deviceKey == nil {
                "'--publish' publishes a fleet's events: it needs --by topic|FIELD"
            } else if options.subscription != nil, options.deviceKey == nil {
                "'--subscribe' reads a fleet's records: it needs --by topic|FIELD"
            } else if options.subscription != nil, options.monitorName == nil {
                "'--subscribe' needs --name NAME: the broker keeps the monitor's session under it"
            } else if options.subscription != nil, options.replay != nil {
                "'--subscribe' reads the broker: not with --replay"
            } else if options.subscription != nil, options.until != nil || options.duration != nil {
                "'--subscribe' ends with --count or a signal: not with --until or --duration"
            } else if options.subscription != nil {
                nil
            } else if options.replay == nil {
                "'--by' reads a fleet's records from --replay FILE (- for stdin)"
            } else if options.monitorName != nil {
                "'--by' keeps no state between runs: not with --name"
            } else if options.until != nil || options.duration != nil {
                "'--by' ends with its input or --count: not with --until or --duration"
            } else {
                nil
            }
        if let problem { StandardStreams.diagnose("error: " + problem) }
        return problem == nil
    }

    /// The man page (`man`) or a completion script (`bash`, `zsh`, `fish`) for `Usage.program`.
    private static func generated(_ file: String) -> String? {
        switch file {
        case "man": ManPage.text(program: Usage.program)
        case "man-pages": ManualPage.all.map { $0.name + " " + ManPage.fileName(of: $0, program: Usage.program) + "\n" }.joined()
        case let page where page.hasPrefix("man:"): ManPage.text(String(page.dropFirst(4)), program: Usage.program)
        case "bash": Completions.bash(program: Usage.program)
        case "zsh": Completions.zsh(program: Usage.program)
        case "fish": Completions.fish(program: Usage.program)
        default: nil
        }
    }

    /// Runs `work` as a detached task (on Swift's cooperative pool) and waits for its value.
    static func waitFor<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () async throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let outcome = Mutex<Result<Value, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<Value, Failure>
            do throws(Failure) {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // The task set it before it signalled.
        guard let result = outcome.withLock({ $0 }) else { preconditionFailure("the task ended without a result") }
        return try result.get()
    }

    /// `--replay -`: the track piped in, read as it comes by the stream (which a signal stops,
    /// even while the pipe stays open without a byte). Not from a terminal: its lines are a
    /// person's typing, not a track.
    private static func trackFromStandardInput() throws(GPSLocationError) -> ReplayTrack {
        let name = "standard input"
        guard !StandardIO.isTerminal(.input) else {
            throw .invalidTrack(file: name, line: nil, reason: "is a terminal; pipe a track in, or name its file")
        }
        return ReplayTrack(readingFrom: StandardIO.Stream.input.rawValue, name: name)
    }

    /// Runs the command; a write error on stdout other than a closed pipe becomes status 74.
    private static func run(_ options: CommandLineOptions, environment: EnvironmentVariables) -> ExitStatus {
        do {
            return try command(options, environment: environment)
        } catch .closed {
            return .success
        } catch {
            StandardStreams.diagnose(error.description)
            return .ioError
        }
    }

    private static func command(
        _ options: CommandLineOptions, environment: EnvironmentVariables
    ) throws(StandardStreams.OutputError) -> ExitStatus {
        if options.showHelp {
            try StandardStreams.writeRecord(HelpText.text(for: options.helpCommand, program: Usage.program))
            return .success
        }
        if options.showVersion {
            try StandardStreams.writeRecord("\(Usage.program) \(Usage.version) (built with libgps \(GPSLocationManager.libgpsVersion))")
            return .success
        }
        if options.command == .geocode, let query = options.geocodeQuery {
            let format: GeocodeCommand.Format =
                switch options.format {
                case .json: .json
                case .csv: .csv(header: options.csvHeader)
                default: .text
                }
            return try GeocodeCommand(
                query: query, format: format, limit: options.limit,
                language: options.placeLanguage ?? .current
            ).run()
        }
        let store: ConsentStore
        do throws(GPSLocationError) {
            store = try ConsentStore(paths: .current, appName: options.app) { StandardStreams.diagnose($0) }
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        if case .permission(let action) = options.command {
            return try PermissionCommand(action: action, options: options, store: store).run()
        }
        if options.command == .access {
            return try AccessCommand(log: AccessLog(paths: store.paths), json: options.isJSON).run()
        }
        // Fail closed: with an unusable settings or policy file nothing is printed and gpsd is not asked.
        let settings: ConsentSettings
        let fallback: FallbackCoordinate?
        var replay: ReplayTrack?
        do throws(GPSLocationError) {
            settings = try store.settings()
            fallback = try store.fallback(resolvingPlaceNames: FallbackPlace.coordinate(of:))
            if let path = options.replay { replay = try path == "-" ? trackFromStandardInput() : ReplayTrack(contentsOf: path) }
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        let configuration = GPSLocationConfiguration(endpoint: options.endpoint ?? settings.gpsdServer ?? .default)
        if options.command == .serve {
            let command = ServeCommand(
                listen: options.listen.isEmpty && options.nmea.isEmpty ? [ServeCommand.defaultAddress] : options.listen, nmea: options.nmea,
                configuration: configuration, store: store)
            return try waitFor { () async throws(StandardStreams.OutputError) in
                // A service: SIGHUP has nothing to re-read (settings changes are taken as they come).
                try await StreamLifetime.run(for: nil, ignoring: [SignalTrap.hangUp]) { .success(await command.run()) }
            }
        }
        if options.command == .agent {
            let command = AgentCommand(store: store)
            return try waitFor { () async throws(StandardStreams.OutputError) in
                // A service: SIGHUP has nothing to re-read (settings changes are taken as they come).
                try await StreamLifetime.run(for: nil, ignoring: [SignalTrap.hangUp]) { .success(await command.run()) }
            }
        }
        // One manager per run: over the replayed track, or over gpsd with the user's consent.
        let manager =
            replay.map { GPSLocationManager(replaying: $0, speed: options.replaySpeed ?? 1) }
            ?? GPSLocationManager(authorizationSource: store, configuration: configuration)
        var explainer = AuthorizationMessages(store: store, app: options.app)
        let readsPositions =
            options.subscription == nil
            && [.locate, .monitor, .visits, .publish, .record, .history].contains(options.command) && !options.historyForget
        if readsPositions, replay == nil, settings.decision.status == .notDetermined, settings.decision.locationServicesEnabled {
            // Nothing is decided: the manager asks, on the terminal (only a person at its
            // foreground is asked). Ctrl-C at the prompt ends locate at once: nothing is started yet.
            SignalTrap.restoreDefaultActions()
            let prompter = TerminalPrompter()
            let purpose = options.purpose
            do throws(GPSLocationError) {
                _ = try waitFor { () async throws(GPSLocationError) in
                    try await manager.requestWhenInUseAuthorization(purpose: purpose, prompter: prompter)
                }
            } catch {
                StandardStreams.diagnose(error.description)
                return ExitStatus(error)
            }
            if options.isStream { SignalTrap.blockSignals() }
            explainer.wasAsked = prompter.wasAsked
        }
        let format = options.outputFormat
        var places: PlaceFinder?
        if format.needsPlaces {
            do throws(GPSLocationError) {
                places = try PlaceFinder(language: options.placeLanguage ?? .current)
            } catch {
                StandardStreams.diagnose(error.description)
                return ExitStatus(error)
            }
        }
        // Who had my location: a run that handed out this machine's positions is a session of the access log.
        let tally = DeliveryTally(app: options.app, via: options.accessVia)
        defer { tally.record(in: AccessLog(paths: store.paths)) }
        let writer = RecordWriter(format: format, fallback: options.fallbackEnabled ? fallback : nil, places: places, tally: tally)
        switch (options.command, options.mode) {
        case (.monitor, _):
            if options.deviceKey != nil || options.subscription != nil || options.eventBroker != nil, !fleetOptionsFit(options) {
                return .usage
            }
            // The settings' regions first: one on the command line replaces one of the same name.
            let monitor: RegionMonitor
            if let name = options.monitorName, options.subscription == nil {
                do throws(GPSLocationError) {
                    monitor = try store.namedMonitor(name, regions: settings.regions + options.regions)
                } catch {
                    StandardStreams.diagnose(error.description)
                    return ExitStatus(error)
                }
            } else {
                monitor = RegionMonitor(regions: settings.regions + options.regions)
            }
            guard !monitor.regions.isEmpty else {
                StandardStreams.diagnose("error: no region to monitor: give --region NAME=LAT,LON,RADIUS or [region \"NAME\"] sections")
                return .usage
            }
            if let until = options.until, !monitor.regions.contains(where: { $0.name == until.region }) {
                StandardStreams.diagnose("error: '--until': no region named '\(UntrustedText.visible(until.region, limit: 80))'")
                return .usage
            }
            if let key = options.deviceKey {
                var command = FleetCommand(options: options, writer: writer, detector: DeviceRegionMonitor(monitor)) {
                    EventRecord.region($0)
                }
                return try command.run(by: key, settings: settings, stateDirectory: store.paths.stateDirectory)
            }
            let until = options.until
            let keeper = NamedMonitorKeeper(monitor: monitor, store: store)
            let command = EventCommand(
                options: options, manager: manager, writer: writer, explainer: explainer, detector: monitor,
                record: { EventRecord.region($0) },
                isGoal: { event in until.map { event.region.name == $0.region && event.state == $0.state } ?? false },
                handedOut: keeper.map { keeper in { keeper.keep($0, releasedUnder: $1) } })
            return try waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        case (.visits, _):
            guard let detector = options.visitDetector else { return .usage }
            if options.deviceKey != nil || options.subscription != nil || options.eventBroker != nil, !fleetOptionsFit(options) {
                return .usage
            }
            if let key = options.deviceKey {
                var command = FleetCommand(options: options, writer: writer, detector: DeviceEventDetector(detector)) {
                    EventRecord.visit($0)
                }
                return try command.run(by: key, settings: settings, stateDirectory: store.paths.stateDirectory)
            }
            if options.monitorName != nil {
                StandardStreams.diagnose("error: 'visits --name' names the broker's session of --subscribe")
                return .usage
            }
            let command = EventCommand(
                options: options, manager: manager, writer: writer, explainer: explainer, detector: detector,
                record: { EventRecord.visit($0) }, isGoal: { _ in false })
            return try waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        case (.publish, _):
            guard let given = options.broker else { return .usage }
            let (broker, http) = PublishFormat.destination(given, kind: options.publishAs)
            var format = PublishFormat(
                kind: options.publishAs, topic: broker.topic, qos: options.qos, retain: options.retain, started: Date())
            format.http = http
            let client: MQTTClient
            do throws(PublishCommand.SetupError) {
                client = try PublishCommand.client(
                    broker: broker, passwordFile: broker.isHTTP ? settings.httpPasswordFile : settings.mqttPasswordFile,
                    caFile: broker.isHTTP ? settings.httpCAFile : settings.mqttCAFile, version: options.mqttVersion, will: format.will,
                    httpHeaders: broker.isHTTP ? format.httpHeaders(user: broker.user) : [],
                    outbox: store.paths.stateDirectory.map {
                        MQTTOutbox(directory: $0, app: store.appName ?? "", settingsChanged: store.settingsLastChanged)
                    },
                    limit: options.outboxLimit, every: options.sendInterval)
            } catch {
                StandardStreams.diagnose("error: " + error.message)
                return error.status
            }
            let command = PublishCommand(
                options: options, manager: manager, explainer: explainer, client: client, format: format,
                regions: RegionMonitor(regions: settings.regions + options.regions))
            return waitFor { await command.run() }
        case (.record, _):
            let history: LocationHistory
            do throws(LocationHistory.Failure) {
                history = try LocationHistory(paths: store.paths)
            } catch {
                StandardStreams.diagnose("error: " + error.description)
                return ExitStatus(error)
            }
            let command = RecordCommand(
                options: options, manager: manager, explainer: explainer, history: history,
                consent: GPSLocationManager(authorizationSource: store, configuration: configuration), keepDays: settings.historyKeepDays)
            return waitFor { await command.run() }
        case (.history, _):
            let command = HistoryCommand(options: options, manager: manager, explainer: explainer, paths: store.paths, writer: writer)
            return try command.run()
        case (.status, _):
            let command = StatusCommand(options: options, manager: manager, settings: settings, accessLog: AccessLog(paths: store.paths))
            return try waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        case (_, .once):
            let command = OnceCommand(
                options: options, manager: manager, timeout: options.timeout ?? settings.timeout ?? GPSLocationManager.defaultTimeout,
                writer: writer, explainer: explainer)
            // A replay is played by a thread of its own, which the request awaits; gpsd is asked
            // on this thread, with no concurrency at all (the hot path).
            guard replay == nil else {
                return try waitFor { () async throws(StandardStreams.OutputError) in try await command.runReplay() }
            }
            return try command.run()
        case (_, .follow):
            let command = FollowCommand(options: options, manager: manager, writer: writer, explainer: explainer)
            return try waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        }
    }
}
