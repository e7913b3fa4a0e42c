import GPSLocationMQTT
import LocateSupport

/// A command line, parsed and checked: the command it runs, each with its own options (and its
/// argument, where it takes one that is not gpsd's endpoint), so that a command reads only what
/// applies to it.
enum ParsedCommandLine: Sendable {
    /// `--help`, `-h` or `locate help [COMMAND]`: the help of `command` (`nil` for every command,
    /// `""` for `locate` itself).
    case help(command: String?)
    /// `--version`.
    case version
    /// `locate [--once]`: one fix.
    case once(OnceOptions)
    /// `locate --follow`: a stream of fixes.
    case follow(FollowOptions)
    /// `locate permission [status|allow|deny|reset]`.
    case permission(PermissionOptions)
    /// `locate status`: explain services, permission, gpsd and the receiver.
    case status(StatusOptions)
    /// `locate geocode LAT LON | NAME | --batch`: the place at a coordinate, the places of a
    /// name, or the place of every point read from stdin.
    case geocode(GeocodeQuery, GeocodeOptions)
    /// `locate monitor`: region events (enter, exit) for circular regions.
    case monitor(MonitorOptions)
    /// `locate visits`: arrivals and departures.
    case visits(VisitsOptions)
    /// `locate publish URL`: positions to an MQTT broker or an HTTP endpoint.
    case publish(MQTTBroker, PublishOptions)
    /// `locate serve`: gpsd's protocol for local clients, each through its own permission.
    case serve(ServeOptions)
    /// `locate access`: who had the location, and who receives it now (`--app`, `--json`).
    case access(app: String?, json: Bool)
    /// `locate record`: the live stream kept in the history.
    case record(StreamOptions)
    /// `locate history`: the history read, summed up by day, or forgotten.
    case history(HistoryOptions)
    /// `locate agent`: GeoClue's agent, answering from the settings (`LOCATE_APP` for the store).
    case agent(app: String?)

    /// Whether the command follows a stream that a signal ends cleanly (`--follow`, `monitor`,
    /// `visits`, `publish`, `serve`, `record`, `agent`); every other command ends with a
    /// signal's default action.
    var isStream: Bool {
        switch self {
        case .follow, .monitor, .visits, .publish, .serve, .record, .agent: true
        case .help, .version, .once, .permission, .status, .geocode, .access, .history: false
        }
    }
}

extension ParsedCommandLine {
    /// Parses the arguments (without the program name) and checks them as the command they
    /// select takes them: an option that does not apply to it, options that do not go together,
    /// and its argument. The gpsd endpoint comes from the positional `host[:port[:device]]`,
    /// else `--gpsd`, else `environment["LOCATE_GPSD"]`; the app from `--app`, else
    /// `environment["LOCATE_APP"]`.
    init(arguments: [String], environment: EnvironmentVariables) throws(UsageError) {
        let parsed = try ParsedArguments(arguments)
        if parsed.showHelp {
            self = .help(command: parsed.helpCommand)
            return
        }
        if parsed.showVersion {
            self = .version
            return
        }
        try parsed.checkScopes()
        switch parsed.command {
        case .locate where parsed.mode == .once: self = .once(try OnceOptions(parsed, environment: environment))
        case .locate: self = .follow(try FollowOptions(parsed, environment: environment))
        case .permission: self = .permission(try PermissionOptions(parsed, environment: environment))
        case .status: self = .status(try StatusOptions(parsed, environment: environment))
        case .geocode:
            let options = try GeocodeOptions(parsed)
            self = .geocode(try GeocodeQuery(parsed), options)
        case .monitor: self = .monitor(try MonitorOptions(parsed, environment: environment))
        case .visits: self = .visits(try VisitsOptions(parsed, environment: environment))
        case .publish:
            let (broker, options) = try PublishOptions.parse(parsed, environment: environment)
            self = .publish(broker, options)
        case .serve: self = .serve(try ServeOptions(parsed, environment: environment))
        case .access:
            // The endpoint is of no use to it, but one that is not an endpoint is refused as everywhere.
            try parsed.checkOutput()
            _ = try parsed.endpoint(parsed.positional, .endpoint, environment: environment)
            self = .access(app: try parsed.app(environment: environment), json: parsed.output.isJSON)
        case .record:
            try parsed.checkReplay()
            var stream = try StreamOptions(parsed, words: parsed.positional, .endpoint, following: true, environment: environment)
            // `locate record` is an app like any other: its own permission, `[app "record"]`, unless named.
            if stream.app == nil { stream.app = "record" }
            self = .record(stream)
        case .history: self = .history(try HistoryOptions(parsed, environment: environment))
        case .agent:
            // No argument; `LOCATE_GPSD` is of no use to it, but one that is not an endpoint is refused as everywhere.
            _ = try parsed.endpoint(parsed.positional, .none, environment: environment)
            self = .agent(app: try parsed.app(environment: environment))
        }
    }
}

/// A command line that cannot be run; exit status 64.
struct UsageError: Error, Sendable, Equatable {
    /// What is wrong, with any control character in the quoted input made visible.
    let message: String

    init(message: String) {
        self.message = UntrustedText.visible(message)
    }
}
