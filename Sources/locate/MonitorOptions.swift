import GPSLocation
import LocateSupport

/// `locate monitor`'s options: the stream's, the output's (a region event's record), a named run
/// and a fleet's records (`FleetOptions`), the regions given (`--region`), and the state that
/// ends it (`--until`).
struct MonitorOptions: Sendable {
    /// `--until inside:NAME` or `outside:NAME`: the state that ends `locate monitor`.
    struct RegionCondition: Sendable, Equatable {
        let state: RegionState
        let region: String
    }

    var stream = StreamOptions()
    var output = OutputOptions()
    var fleet = FleetOptions()
    /// `--region`, in order (the settings' regions join them when the command runs).
    var regions: [CircularRegion] = []
    /// `--until`.
    var until: RegionCondition?
}

extension MonitorOptions {
    /// The options of `parsed`, checked.
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        self = parsed.monitor
        fleet = parsed.fleet
        (stream, output) = try parsed.readingOptions(records: .region, .endpoint, following: false, environment: environment)
    }
}
