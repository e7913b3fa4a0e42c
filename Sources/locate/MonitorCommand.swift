import GPSLocation
import LocateFleet
import LocateSupport

/// `locate monitor`: the regions of the settings and of `--region` (one on the command line
/// replaces one of the same name), kept between runs with `--name`, watched in this machine's
/// positions (`EventCommand`) or, with `--by`, in a fleet's records (`FleetCommand`).
enum MonitorCommand {
    /// Runs the command; 64 for options that do not go together or no region to monitor.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    static func run(_ context: CommandContext) throws(StandardStreams.OutputError) -> ExitStatus {
        let (options, store, settings) = (context.options, context.store, context.settings)
        guard options.fleetOptionsFit() else { return .usage }
        // The settings' regions first: one on the command line replaces one of the same name.
        let monitor: RegionMonitor
        if let name = options.monitorName, options.subscription == nil {
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
        if let key = options.deviceKey {
            var command = FleetCommand(options: options, writer: context.writer, detector: DeviceRegionMonitor(monitor)) {
                EventRecord.region($0)
            }
            return try command.run(by: key, settings: settings, stateDirectory: store.paths.stateDirectory)
        }
        let until = options.until
        let keeper = NamedMonitorKeeper(monitor: monitor, store: store)
        let command = EventCommand(
            options: options, manager: context.manager, writer: context.writer, explainer: context.explainer, detector: monitor,
            record: { EventRecord.region($0) },
            isGoal: { event in until.map { event.region.name == $0.region && event.state == $0.state } ?? false },
            handedOut: keeper.map { keeper in { keeper.keep($0, releasedUnder: $1) } })
        return try Locate.waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
    }
}
