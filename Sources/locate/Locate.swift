import Dispatch
import FoundationEssentials
import GPSLocation
import Glibc
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
        // Before any other thread exists, so that all of them inherit it (see SignalTrap).
        SignalTrap.blockSignals()
        // A closed pipe must surface as EPIPE from write(2), not kill the process mid-line.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessEnvironment.variables
        let status: ExitStatus
        do {
            let options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
            // Only --follow ends cleanly on a signal; everything else ends with its default action.
            if options.command != .locate || options.mode != .follow { SignalTrap.restoreDefaultActions() }
            status = run(options, environment: environment)
        } catch {
            StandardStreams.diagnose("error: " + error.message)
            StandardStreams.writeMessage(Usage.synopsis)
            StandardStreams.writeMessage("See 'locate --help' for more information.")
            status = .usage
        }
        exit(status.rawValue)
    }

    /// Runs `work` as a detached task (on Swift's cooperative pool) and waits for its status.
    private static func waitFor(
        _ work: @escaping @Sendable () async throws(StandardStreams.OutputError) -> ExitStatus
    ) throws(StandardStreams.OutputError) -> ExitStatus {
        let outcome = Mutex(Result<ExitStatus, StandardStreams.OutputError>.success(.failure))
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(StandardStreams.OutputError) {
                let status = try await work()
                outcome.withLock { $0 = .success(status) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }.get()
    }

    /// Runs the command; a write error on stdout other than a closed pipe becomes status 74.
    private static func run(_ options: CommandLineOptions, environment: [String: String]) -> ExitStatus {
        do {
            return try command(options, environment: environment)
        } catch .closed {
            return .success
        } catch {
            StandardStreams.diagnose(error.description)
            return .ioError
        }
    }

    private static func command(_ options: CommandLineOptions, environment: [String: String]) throws(StandardStreams.OutputError) -> ExitStatus {
        if options.showHelp {
            try StandardStreams.writeRecord(HelpText.text)
            return .success
        }
        if options.showVersion {
            try StandardStreams.writeRecord("locate \(Usage.version) (built with libgps \(GPSLocationManager.libgpsVersion))")
            return .success
        }
        if options.command == .geocode, let query = options.geocodeQuery {
            return try GeocodeCommand(query: query, json: options.isJSON, limit: options.limit,
                                      language: options.placeLanguage ?? .environment(environment)).run()
        }
        let settings = PermissionSettings(files: SettingsFiles(environment: environment), app: options.app)
        if case .permission(let action) = options.command {
            return try PermissionCommand(action: action, options: options, settings: settings,
                                         cache: LastFixCache(environment: environment)).run()
        }
        // Fail closed: with a malformed settings or policy file nothing is printed and gpsd is not asked.
        var permission: Permission
        let manager: GPSLocationManager
        do {
            permission = try settings.resolve()
            let endpoint = options.endpoint ?? permission.gpsdServer ?? .default
            manager = GPSLocationManager(configuration: GPSLocationConfiguration(
                permission: settings, cache: LastFixCache(environment: environment), endpoint: endpoint))
            // Asked only in the foreground of a terminal, and only for positions.
            if options.command == .locate, permission.status == .notDetermined, permission.context.isForeground {
                permission = try manager.requestAuthorization(.whenInUse, purpose: options.purpose, prompter: PermissionPrompt())
            }
        } catch {
            StandardStreams.diagnose(error.description)
            return .configuration
        }
        let format = options.outputFormat
        var places: PlaceFinder?
        if format.needsPlaces {
            do {
                places = try PlaceFinder(language: options.placeLanguage ?? .environment(environment))
            } catch {
                StandardStreams.diagnose(error.description)
                return .unavailable
            }
        }
        let writer = RecordWriter(format: format, fallback: options.fallbackEnabled ? permission.fallback : nil, places: places)
        let userFile = settings.files.userFile
        switch (options.command, options.mode) {
        case (.status, _):
            let command = StatusCommand(options: options, manager: manager, permission: permission)
            return try waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        case (_, .once):
            return try OnceCommand(options: options, manager: manager, writer: writer,
                                   settingsTimeout: permission.timeout, userFile: userFile).run(permission: permission)
        case (_, .follow):
            let command = FollowCommand(options: options, manager: manager, writer: writer, userFile: userFile)
            return try waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        }
    }
}
