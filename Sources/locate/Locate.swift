import FoundationEssentials
import GPSLocation
import Glibc

/// The `locate` command: parse, run, and map the outcome to an exit status in one place.
@main
enum Locate {
    static func main() async {
        // A closed pipe must surface as EPIPE from write(2), not kill the process mid-line.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let status: ExitStatus
        do {
            let options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
            status = await run(options, environment: environment)
        } catch {
            StandardStreams.diagnose("error: " + error.message)
            StandardStreams.writeMessage(Usage.synopsis)
            StandardStreams.writeMessage("See 'locate --help' for more information.")
            status = .usage
        }
        exit(status.rawValue)
    }

    private static func run(_ options: CommandLineOptions, environment: [String: String]) async -> ExitStatus {
        if options.showHelp {
            return write(HelpText.text)
        }
        if options.showVersion {
            return write("locate \(Usage.version) (built with libgps \(GPSLocationManager.libgpsVersion))")
        }
        var settings = PermissionSettings(files: SettingsFiles(environment: environment), app: options.app)
        if case .permission(let action) = options.command {
            return PermissionCommand(action: action, options: options, settings: settings,
                                     cache: LastFixCache(environment: environment)).run()
        }
        // Fail closed: with a malformed settings or policy file nothing is printed and gpsd is not asked.
        var permission: Permission
        do {
            permission = try settings.resolve()
            if options.command == .locate, permission.status == .notDetermined, permission.context.isForeground,
               let answer = PermissionPrompt(app: options.app, purpose: options.purpose).ask() {
                try save(answer, to: &settings)
                permission = try settings.resolve()
            }
        } catch {
            StandardStreams.diagnose(error.description)
            return .configuration
        }
        let endpoint = options.endpoint ?? permission.gpsdServer ?? .default
        let manager = GPSLocationManager(configuration: GPSLocationConfiguration(
            permission: settings, cache: LastFixCache(environment: environment), endpoint: endpoint))
        let writer = RecordWriter(format: options.outputFormat, fallback: options.fallbackEnabled ? permission.fallback : nil)
        let userFile = settings.files.userFile
        switch (options.command, options.mode) {
        case (.status, _):
            return await StatusCommand(options: options, manager: manager, permission: permission).run()
        case (_, .once):
            let settingsTimeout = permission.timeout.map { Duration.milliseconds(Int64($0 * 1000)) }
            return await OnceCommand(options: options, manager: manager, writer: writer,
                                     settingsTimeout: settingsTimeout, userFile: userFile).run(permission: permission)
        case (_, .follow):
            return await FollowCommand(options: options, manager: manager, writer: writer, userFile: userFile).run()
        }
    }

    /// Saves the prompt's answer, except "Allow once", which holds for this process only.
    private static func save(_ answer: PermissionPrompt.Answer, to settings: inout PermissionSettings) throws(ConfigurationError) {
        let value: String
        switch answer {
        case .allowOnce:
            settings.isAllowedOnce = true
            return
        case .allowWhileUsing: value = "when-in-use"
        case .allowAlways: value = "always"
        case .deny: value = "denied"
        }
        try UserSettingsEditor(file: settings.files.userFile).update(app: settings.app, setting: [("authorization", value)])
    }

    private static func write(_ text: String) -> ExitStatus {
        (try? StandardStreams.writeRecord(text)) == nil ? .failure : .success
    }
}
