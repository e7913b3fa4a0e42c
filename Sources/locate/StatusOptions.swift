import GPSLocation
import LocateSupport

/// `locate status`'s options: gpsd's endpoint, whose permission (`--app`), how long gpsd has to
/// answer (`--timeout`), and whether the facts are JSON.
struct StatusOptions: Sendable {
    /// The endpoint given on the command line or in `LOCATE_GPSD`; `nil` leaves it to the settings.
    var endpoint: GPSDEndpoint?
    /// `--app` or `LOCATE_APP` (`nil`: `[location]`).
    var app: String?
    /// `--timeout`; `nil` for `StatusCommand.defaultTimeout`.
    var timeout: Duration?
    var json = false
}

extension StatusOptions {
    /// The options of `parsed`, checked: the endpoint (a word that is a slip of a command's name
    /// is refused) and the app.
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        self = parsed.status
        try parsed.checkOutput()
        endpoint = try parsed.endpoint(parsed.positional, .endpointUnlessSlip, environment: environment)
        app = try parsed.app(environment: environment)
        json = parsed.output.isJSON
    }
}
