import GPSLocation
import LocateSupport

/// The options the commands that read this machine's positions share (`--once`, `--follow`,
/// `monitor`, `visits`, `publish`, `record`; `history` its endpoint and app): where the positions
/// come from and whose they are, which fixes the stream hands out, and when it ends. A command
/// reads only what applies to it: the parser refuses an option elsewhere, so the rest keep
/// their defaults.
struct StreamOptions: Sendable {
    /// The gpsd endpoint given on the command line or in `LOCATE_GPSD`; `nil` leaves it to the settings.
    var endpoint: GPSDEndpoint?
    /// `--app` or `LOCATE_APP`: whose permission applies (`nil`: `[location]`).
    var app: String?
    /// `--purpose`: why the location is needed, shown in the permission prompt.
    var purpose: String?
    /// `--replay FILE`: a track instead of gpsd (`-` for stdin).
    var replay: String?
    /// `--replay-speed`; 0 for as fast as read.
    var replaySpeed: Double?
    /// `--accuracy`: the largest horizontal error of a fix handed out, metres.
    var accuracy: Double?
    /// `--min-fix`: the least fix type of a fix handed out.
    var minimumFix: Location.FixType?
    /// `--reject-suspect`: leave out the fixes whose integrity is suspect.
    var rejectsSuspect = false
    /// `--distance`, `--interval` and `--heartbeat`: how a followed stream is thinned.
    var distance = 0.0
    var interval: Duration?
    var heartbeat: Duration?
    /// `--count` and `--duration`: when a stream ends.
    var count: Int?
    var duration: Duration?

    /// The stream's filters, checked when the command line is parsed.
    private(set) var liveUpdateOptions = LiveUpdateOptions.everyFix

    /// What messages call the replayed track: its file, or `standard input` for `-`.
    var replayName: String? { replay.map { $0 == "-" ? "standard input" : $0 } }

    /// How long of receiver time within its accuracy makes a followed position `stationary`.
    static let stationaryAfter = Duration.seconds(60)
}

extension ParsedArguments {
    /// What does not go with `--replay`: `--replay-speed` without it, and with it `--gpsd` or
    /// `--max-age`.
    func checkReplay() throws(UsageError) {
        let flags = flags
        if flags.contains("--replay-speed"), stream.replay == nil {
            throw UsageError(message: "'--replay-speed' goes with --replay")
        }
        if stream.replay != nil, let gpsd = used.first(where: { $0.flags.contains("--gpsd") }) {
            throw UsageError(message: "'\(gpsd.name)' and --replay: a replay reads no gpsd")
        }
        if stream.replay != nil, flags.contains("--max-age") {
            throw UsageError(message: "'--max-age' and --replay: a recorded track's fixes have no age now")
        }
    }
}

extension StreamOptions {
    /// The stream's options of `parsed`, with the endpoint of `words` (the command's argument),
    /// the filters, and the app.
    /// - Parameter following: a followed stream's filters (`--distance`, `--interval`,
    ///   `--heartbeat`, and stationary after ``stationaryAfter``), for `--follow`, `publish` and
    ///   `record`; otherwise only those of every fix (`--accuracy`, `--min-fix`, `--reject-suspect`).
    init(
        _ parsed: ParsedArguments, words: [String], _ argument: ParsedArguments.EndpointArgument, following: Bool,
        environment: EnvironmentVariables
    ) throws(UsageError) {
        self = parsed.stream
        endpoint = try parsed.endpoint(words, argument, environment: environment)
        do throws(GPSLocationError) {
            liveUpdateOptions =
                following
                ? try LiveUpdateOptions(
                    distanceFilter: distance, minimumInterval: interval, heartbeat: heartbeat, desiredAccuracy: accuracy,
                    stationaryAfter: Self.stationaryAfter, minimumFix: minimumFix, rejectsSuspect: rejectsSuspect)
                : try LiveUpdateOptions(desiredAccuracy: accuracy, minimumFix: minimumFix, rejectsSuspect: rejectsSuspect)
        } catch {
            throw UsageError(message: error.description)
        }
        app = try parsed.app(environment: environment)
    }
}

extension ParsedArguments {
    /// The stream's and the output's options of a command that writes records of what it reads
    /// (`--once`, `--follow`, `monitor`, `visits`), checked in order: the output's combinations,
    /// the replay's, the template for `kind`'s records, then the endpoint of the command's
    /// argument, the filters (`following`) and the app.
    func readingOptions(
        records kind: RecordKind, _ argument: EndpointArgument, following: Bool, environment: EnvironmentVariables
    ) throws(UsageError) -> (StreamOptions, OutputOptions) {
        try checkOutput()
        try checkReplay()
        let output = try outputOptions(for: kind)
        return (try StreamOptions(self, words: positional, argument, following: following, environment: environment), output)
    }
}
