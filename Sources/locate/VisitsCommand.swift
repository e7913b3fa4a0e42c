import GPSLocation
import LocateFleet

/// `locate visits`: arrivals and departures (`--radius`, `--dwell`) in this machine's positions
/// (`EventCommand`) or, with `--by`, in a fleet's records (`FleetCommand`).
enum VisitsCommand {
    /// Runs the command with `options`; 64 for options that do not go together.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    static func run(_ options: VisitsOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        let fleet = options.fleet
        return try CommandContext.run(
            options.stream, output: options.output,
            records: options.output.recordFormat(kind: .visit, devices: fleet.deviceKey != nil), via: "locate visits",
            asks: fleet.subscription == nil, isStream: true
        ) { context throws(StandardStreams.OutputError) in
            guard let detector = options.detector else { return .usage }
            guard fleet.fit(options.stream, until: false) else { return .usage }
            if let key = fleet.deviceKey {
                var command = FleetCommand(
                    "visits", options: fleet, stream: options.stream, kind: .visit, writer: context.writer,
                    detector: DeviceEventDetector(detector)
                ) { EventRecord.visit($0) }
                return try command.run(by: key, settings: context.settings, stateDirectory: context.store.paths.stateDirectory)
            }
            if fleet.name != nil {
                StandardStreams.diagnose("error: 'visits --name' names the broker's session of --subscribe")
                return .usage
            }
            let command = EventCommand(
                options: options.stream, activity: "visit detection", manager: context.manager, writer: context.writer,
                explainer: context.explainer, detector: detector, record: { EventRecord.visit($0) }, isGoal: { _ in false })
            return try Locate.waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        }
    }
}
