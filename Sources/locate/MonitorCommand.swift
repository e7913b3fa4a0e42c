import GPSLocation
import LocateFleet
import LocateSupport

/// `locate monitor`: the regions of the settings and of `--region` (one on the command line
/// replaces one of the same name), kept between runs with `--name`, watched in this machine's
/// positions (`EventCommand`) or, with `--by`, in a fleet's records (`FleetCommand`).
enum MonitorCommand {
    /// Runs the command with `options`; 64 for options that do not go together or no region to monitor.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    static func run(_ options: MonitorOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        let fleet = options.fleet
        return try CommandContext.run(
            options.stream, output: options.output,
            records: options.output.recordFormat(kind: .region, devices: fleet.deviceKey != nil), via: "locate monitor",
            asks: fleet.subscription == nil, isStream: true
        ) { context throws(StandardStreams.OutputError) in
            let (store, settings) = (context.store, context.settings)
            guard fleet.fit(options.stream, until: options.until != nil) else { return .usage }
            // The settings' regions first: one on the command line replaces one of the same name.
            let monitor: RegionMonitor
            if let name = fleet.name, fleet.subscription == nil {
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
            if let key = fleet.deviceKey {
                var command = FleetCommand(
                    "monitor", options: fleet, stream: options.stream, kind: .region, writer: context.writer,
                    detector: DeviceRegionMonitor(monitor)
                ) { EventRecord.region($0) }
                return try command.run(by: key, settings: settings, stateDirectory: store.paths.stateDirectory)
            }
            let until = options.until
            let keeper = NamedMonitorKeeper(monitor: monitor, store: store)
            let command = EventCommand(
                options: options.stream, activity: "region monitoring", manager: context.manager, writer: context.writer,
                explainer: context.explainer, detector: monitor, record: { EventRecord.region($0) }, until: until,
                isGoal: { event in until.map { event.region.name == $0.region && event.state == $0.state } ?? false },
                handedOut: keeper.map { keeper in { keeper.keep($0, releasedUnder: $1) } })
            return try Locate.waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        }
    }
}
