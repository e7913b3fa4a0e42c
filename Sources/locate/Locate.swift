import Dispatch
import GPSLocation
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
            StandardIO.exit((try? StandardStreams.write(Array(text.utf8)[...])) == nil ? ExitStatus.ioError.rawValue : 0)
        }
        let status: ExitStatus
        do {
            let commandLine = try ParsedCommandLine(arguments: arguments, environment: environment)
            // Only the streams end cleanly on a signal; everything else ends with its default action.
            if !commandLine.isStream { SignalTrap.restoreDefaultActions() }
            status = run(commandLine)
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

    /// Runs the command; a write error on stdout other than a closed pipe becomes status 74.
    private static func run(_ commandLine: ParsedCommandLine) -> ExitStatus {
        do {
            return try command(commandLine)
        } catch .closed {
            return .success
        } catch {
            StandardStreams.diagnose(error.description)
            return .ioError
        }
    }

    /// Runs the command's type with its options.
    private static func command(_ commandLine: ParsedCommandLine) throws(StandardStreams.OutputError) -> ExitStatus {
        switch commandLine {
        case .help(let command):
            try StandardStreams.writeRecord(HelpText.text(for: command, program: Usage.program))
            return .success
        case .version:
            try StandardStreams.writeRecord("\(Usage.program) \(Usage.version) (built with libgps \(GPSLocationManager.libgpsVersion))")
            return .success
        case .once(let options): return try OnceCommand.run(options)
        case .follow(let options): return try FollowCommand.run(options)
        case .permission(let options): return try PermissionCommand.run(options)
        case .status(let options): return try StatusCommand.run(options)
        case .geocode(let query, let options): return try GeocodeCommand.run(query, options)
        case .monitor(let options): return try MonitorCommand.run(options)
        case .visits(let options): return try VisitsCommand.run(options)
        case .publish(let broker, let options): return PublishCommand.run(options, to: broker)
        case .serve(let options): return try ServeCommand.run(options)
        case .access(let app, let json): return try AccessCommand.run(app: app, json: json)
        case .record(let options): return RecordCommand.run(options)
        case .history(let options): return try HistoryCommand.run(options)
        case .agent(let app): return try AgentCommand.run(app: app)
        }
    }
}
