import FoundationEssentials
import GPSLocation
import Glibc

/// The `locate` command: parse, run, and map the outcome to an exit status in one place.
@main
enum Locate {
    static func main() async {
        // A closed pipe must surface as EPIPE from write(2), not kill the process mid-line.
        signal(SIGPIPE, SIG_IGN)
        let status: ExitStatus
        do {
            let options = try CommandLineOptions(
                arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
            status = await run(options)
        } catch {
            StandardStreams.diagnose("error: " + error.message)
            StandardStreams.writeMessage(Usage.synopsis)
            StandardStreams.writeMessage("See 'locate --help' for more information.")
            status = .usage
        }
        exit(status.rawValue)
    }

    private static func run(_ options: CommandLineOptions) async -> ExitStatus {
        if options.showHelp {
            return write(Usage.help)
        }
        if options.showVersion {
            return write("locate \(Usage.version) (libgps API \(GPSLocationManager.libgpsAPIVersion))")
        }
        let manager = GPSLocationManager(configuration: GPSLocationConfiguration(endpoint: options.endpoint))
        switch options.mode {
        case .once: return await OnceCommand(options: options, manager: manager).run()
        case .follow: return await FollowCommand(options: options, manager: manager).run()
        }
    }

    private static func write(_ text: String) -> ExitStatus {
        (try? StandardStreams.writeRecord(text)) == nil ? .failure : .success
    }
}
