import GPSLocation
import LocateFleet

/// `locate visits`: arrivals and departures (`--radius`, `--dwell`) in this machine's positions
/// (`EventCommand`) or, with `--by`, in a fleet's records (`FleetCommand`).
enum VisitsCommand {
    /// Runs the command; 64 for options that do not go together.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    static func run(_ context: CommandContext) throws(StandardStreams.OutputError) -> ExitStatus {
        let options = context.options
        guard let detector = options.visitDetector else { return .usage }
        guard options.fleetOptionsFit() else { return .usage }
        if let key = options.deviceKey {
            var command = FleetCommand(options: options, writer: context.writer, detector: DeviceEventDetector(detector)) {
                EventRecord.visit($0)
            }
            return try command.run(by: key, settings: context.settings, stateDirectory: context.store.paths.stateDirectory)
        }
        if options.monitorName != nil {
            StandardStreams.diagnose("error: 'visits --name' names the broker's session of --subscribe")
            return .usage
        }
        let command = EventCommand(
            options: options, manager: context.manager, writer: context.writer, explainer: context.explainer, detector: detector,
            record: { EventRecord.visit($0) }, isGoal: { _ in false })
        return try Locate.waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
    }
}
