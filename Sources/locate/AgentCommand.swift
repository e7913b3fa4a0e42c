import GPSLocationConsent
import GeoClueAgent

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
