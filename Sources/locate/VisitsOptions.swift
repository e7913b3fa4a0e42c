import GPSLocation
import LocateSupport

/// `locate visits`'s options: the stream's, the output's (a visit's record), a fleet's records
/// (`FleetOptions`), and what makes a visit (`--radius`, `--dwell`).
struct VisitsOptions: Sendable {
    var stream = StreamOptions()
    var output = OutputOptions()
    var fleet = FleetOptions()
    /// `--radius` and `--dwell`.
    var radius = 50.0
    var dwell = Duration.seconds(300)
    /// The visit detector of `radius` and `dwell`, checked when the command line is parsed.
    private(set) var detector: VisitDetector?
}

extension VisitsOptions {
    /// The options of `parsed`, checked.
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        self = parsed.visits
        fleet = parsed.fleet
        (stream, output) = try parsed.readingOptions(records: .visit, .endpoint, following: false, environment: environment)
        do throws(GPSLocationError) {
            detector = try VisitDetector(radius: radius, dwell: dwell)
        } catch {
            throw UsageError(message: error.description)
        }
    }
}
