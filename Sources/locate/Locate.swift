import Dispatch
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import GeoClueAgent
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
            return try GeocodeCommand.run(options, query: query)
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
            return try ServeCommand.run(options, configuration: configuration, store: store)
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
        let context = CommandContext(
            options: options, store: store, settings: settings, configuration: configuration, replay: replay, manager: manager,
            explainer: explainer, writer: writer)
        switch (options.command, options.mode) {
        case (.monitor, _): return try MonitorCommand.run(context)
        case (.visits, _): return try VisitsCommand.run(context)
        case (.publish, _): return PublishCommand.run(context)
        case (.record, _): return RecordCommand.run(context)
        case (.history, _): return try HistoryCommand.run(context)
        case (.status, _): return try StatusCommand.run(context)
        case (_, .once): return try OnceCommand.run(context)
        case (_, .follow): return try FollowCommand.run(context)
        }
    }
}
