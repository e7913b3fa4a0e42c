import GPSLocationConsent
import GeoClueAgent
import LocateSupport

/// `locate agent`: GeoClue's agent, answering desktop apps' location requests from the consent
/// store (`GeoClueAgent`), on the system bus. Runs until SIGINT or SIGTERM (SIGHUP has nothing to
/// re-read: settings changes are live). An app nothing is decided for is asked about on the
/// terminal, when the agent runs in the foreground of one.
struct AgentCommand {
    let store: ConsentStore

    func run() async -> ExitStatus {
        do throws(GeoClueAgent.Failure) {
            let agent = try GeoClueAgent(store: store, prompter: TerminalPrompter(), diagnose: StandardStreams.diagnose)
            try await agent.run()
        } catch {
            StandardStreams.diagnose("agent: \(error.description)")
            return .unavailable
        }
        return .success
    }
}

extension AgentCommand {
    /// Runs `locate agent` over the consent store (of `app`, from `LOCATE_APP`) until a signal:
    /// a service, so SIGHUP has nothing to re-read (settings changes are taken as they come).
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(app: String?) throws(StandardStreams.OutputError) -> ExitStatus {
        try ConsentSetup.run(app: app) { setup throws(StandardStreams.OutputError) in
            let command = AgentCommand(store: setup.store)
            return try Locate.waitFor { () async throws(StandardStreams.OutputError) in
                try await StreamLifetime.run(for: nil, ignoring: [SignalTrap.hangUp]) { .success(await command.run()) }
            }
        }
    }
}
