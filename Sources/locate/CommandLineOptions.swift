import GPSDService
import GPSLocation
import GPSLocationConsent
import GPSLocationMQTT
import GPSLocationPlaces
import LocateFleet
import LocateSupport

/// What the command line asked for, parsed and validated; the usage lines and options in value form.
struct CommandLineOptions: Sendable {
    enum Command: Sendable, Equatable {
        /// `locate [--once | --follow]`: positions.
        case locate
        /// `locate permission [status|allow|deny|reset]`.
        case permission(PermissionAction)
        /// `locate status`: explain services, permission, gpsd and the receiver.
        case status
        /// `locate geocode LAT LON | NAME | --batch`: the place at a coordinate, the places of a
        /// name, or the place of every point read from stdin.
        case geocode
        /// `locate monitor`: region events (enter, exit) for circular regions.
        case monitor
        /// `locate visits`: arrivals and departures.
        case visits
        /// `locate publish URL`: positions to an MQTT broker.
        case publish
        /// `locate serve`: gpsd's protocol for local clients, each through its own permission.
        case serve
        /// `locate access`: who had the location, and who receives it now.
        case access
        /// `locate record`: the live stream kept in the history.
        case record
        /// `locate history`: the history read, summed up by day, or forgotten.
        case history
        /// `locate agent`: GeoClue's agent, answering from the settings.
        case agent
    }

    /// `--until inside:NAME` or `outside:NAME`: the state that ends `locate monitor`.
    struct RegionCondition: Sendable, Equatable {
        let state: RegionState
        let region: String
    }

    /// What `locate geocode` looks up.
    enum GeocodeQuery: Sendable, Equatable {
        case coordinate(latitude: Double, longitude: Double)
        case name(String)
        /// `--batch`: points from stdin, a record each.
        case batch
    }

    enum PermissionAction: String, Sendable, CaseIterable {
        case status, allow, deny, reset
    }

    enum Mode: Sendable { case once, follow }
    enum Format: Sendable {
        case text, json, csv, gpx, geojson
        case template(TemplateFormat)
    }

    var command = Command.locate
    var mode = Mode.once
    /// The gpsd endpoint given on the command line or in `LOCATE_GPSD`; `nil` leaves it to the settings.
    var endpoint: GPSDEndpoint?
    /// `--timeout`; `nil` leaves it to the settings (default 30 s).
    var timeout: Duration?
    var accuracy: Double?
    /// `--min-fix`: the least fix type of a fix handed out.
    var minimumFix: Location.FixType?
    /// `--reject-suspect`: leave out the fixes whose integrity is suspect.
    var rejectsSuspect = false
    /// `--max-age`: a cached or current fix this young is good enough.
    var maxAge: Duration?
    var distance = 0.0
    var interval: Duration?
    var heartbeat: Duration?
    var count: Int?
    var duration: Duration?
    var format = Format.text
    /// `--events`: status events into stdout (with `--json`).
    var events = false
    /// `--no-header` turns the CSV header off.
    var csvHeader = true
    var fallbackEnabled = true
    /// `--app` or `LOCATE_APP`.
    var app: String?
    var purpose: String?
    var always = false
    var reduced = false
    var showHelp = false
    /// The command whose help `--help` or `locate help COMMAND` shows: `nil` for all of them,
    /// `""` for `locate` itself.
    var helpCommand: String?
    var showVersion = false
    /// `--geocode`: place fields in JSON and CSV records.
    var placeFields = false
    /// `--lang`; `nil` follows `LANGUAGE` and the locale.
    var placeLanguage: PlaceLanguage?
    /// `--limit`, for `geocode NAME`.
    var limit = 10
    /// `--batch`, for `geocode`.
    var geocodeBatch = false
    /// The arguments of `locate geocode`.
    var geocodeQuery: GeocodeQuery?
    /// `--region`, in order (the settings' regions join them when the command runs).
    var regions: [CircularRegion] = []
    /// `--until`, for `monitor`.
    var until: RegionCondition?
    /// `--name`, for `monitor`: the named monitor whose states are kept between runs.
    var monitorName: String?
    /// `--by KEY`, for `monitor` and `visits`: a state per device of a fleet's records.
    var deviceKey: DeviceKey?
    /// `--from`, `--to` (Unix seconds), `--near`, `--days`, `--forget` and `--before`, for `history`.
    var historyFrom: Double?
    var historyTo: Double?
    var historyNear: CircularRegion?
    var historyDays = false
    var historyForget = false
    var historyBefore: Double?
    /// `--radius` and `--dwell`, for `visits`.
    var visitRadius = 50.0
    var visitDwell = Duration.seconds(300)
    /// `--replay FILE`: a track instead of gpsd.
    var replay: String?
    /// `--replay-speed`; 0 for as fast as read.
    var replaySpeed: Double?
    /// The broker and topic of `locate publish`.
    var broker: MQTTBroker?
    /// `--subscribe URL`, for `monitor` and `visits` with `--by`: the broker and topic filter a fleet's records come from.
    var subscription: MQTTBroker?
    /// `--publish URL`, for `monitor` and `visits` with `--by`: the broker and topic each event's record goes to as well.
    var eventBroker: MQTTBroker?
    /// `--as`, `--qos`, `--retain` and `--mqtt-version`, for `publish`.
    var publishAs = PublishFormat.Kind.json
    var qos = MQTTQoS.atLeastOnce
    var retain = false
    var mqttVersion = MQTTConfiguration.ProtocolVersion.v311
    /// `--every S`, for `publish`: the interval between bursts (`nil`: each record at once).
    var sendInterval: Duration?
    /// `--outbox-limit N`, for `publish`: the most records kept waiting for the broker.
    var outboxLimit = MQTTConfiguration.defaultQueueLimit
    /// `--listen`, for `serve`, in order (none: the default address).
    var listen: [GPSDService.Address] = []
    /// `--nmea`, for `serve`: Unix sockets of plain NMEA.
    var nmea: [String] = []

    /// The stream's filters, checked when the command line is parsed.
    private(set) var liveUpdateOptions = LiveUpdateOptions.everyFix
    /// The visit detector of `locate visits`, checked when the command line is parsed.
    private(set) var visitDetector: VisitDetector?

    /// What messages call the replayed track: its file, or `standard input` for `-`.
    var replayName: String? { replay.map { $0 == "-" ? "standard input" : $0 } }

    /// How long of receiver time within its accuracy makes a `--follow` position `stationary`.
    static let stationaryAfter = Duration.seconds(60)

    /// Whether the command follows a stream of fixes (`--follow`, `monitor`, `visits`).
    var isStream: Bool {
        command == .monitor || command == .visits || command == .publish || command == .serve || command == .record || command == .agent
            || (command == .locate && mode == .follow)
    }

    /// What handed positions out, in the access log: `locate --once`, `locate --follow`,
    /// `locate monitor`, ...
    var accessVia: String {
        switch command {
        case .monitor: "locate monitor"
        case .visits: "locate visits"
        case .publish: "locate publish"
        case .record: "locate record"
        case .history: "locate history"
        default: mode == .follow ? "locate --follow" : "locate --once"
        }
    }

    /// What kind of record the command writes.
    var recordKind: RecordKind {
        switch command {
        case .monitor: .region
        case .visits: .visit
        default: .fix
        }
    }

    /// A fresh output format for one run.
    var outputFormat: any OutputFormat {
        switch format {
        case .text: TextFormat(kind: recordKind, devices: deviceKey != nil)
        case .json: JSONFormat(includesEvents: events, fields: recordKind.fields(includingPlaces: placeFields, devices: deviceKey != nil))
        case .csv: CSVFormat(includesHeader: csvHeader, fields: recordKind.fields(includingPlaces: placeFields, devices: deviceKey != nil))
        case .gpx: GPXFormat(shape: mode == .once ? .waypoint : .track)
        case .geojson: GeoJSONFormat(fields: recordKind.fields(includingPlaces: false))
        case .template(let template): template
        }
    }

    var isJSON: Bool {
        if case .json = format { return true }
        return false
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

extension CommandLineOptions {
    /// Parses the arguments (without the program name). A first word `permission` or `status`
    /// selects that command. The gpsd endpoint comes from the positional `host[:port[:device]]`,
    /// else `--gpsd`, else `environment["LOCATE_GPSD"]`. Options take their value as the next
    /// argument or after `=`; every option is one of `OptionTable.options`.
    init(arguments: [String], environment: EnvironmentVariables) throws(UsageError) {
        var remaining = arguments[...]
        var parsed = ParsedArguments()
        if let first = remaining.first, let command = CommandTable.command(first) {
            remaining.removeFirst()
            parsed.options.helpCommand = command.name
            try command.select(&parsed, &remaining)
        }
        var positional: [String] = []
        var used: [OptionSpec] = []
        while let argument = remaining.popFirst() {
            // A negative number is an argument (a coordinate, also `-33.9,151.2`), not an option.
            let firstNumber = argument.split(maxSplits: 1) { $0 == "," || $0 == " " }.first.map(String.init) ?? argument
            guard argument.hasPrefix("-"), argument != "-", !NumericText.isNumber(firstNumber) else {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                positional += remaining
                break
            }
            // `-fn2` is `-f -n 2`, as getopt reads it: switches bundle, and a short option that
            // takes a value takes the rest of the word.
            if !argument.hasPrefix("--"), argument.dropFirst().count > 1 {
                remaining = ArraySlice(Self.unbundled(argument)) + remaining
                continue
            }
            let name = String(argument.prefix { $0 != "=" })
            let inlineValue = argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = OptionTable.option(name) else {
                throw UsageError(
                    message: "unknown option '\(UntrustedText.visible(name, limit: 80))'"
                        + Suggestion.didYouMean(name, among: OptionTable.options.flatMap(\.flags)))
            }
            let value: String
            if option.value == nil {
                guard inlineValue == nil else { throw UsageError(message: "'\(name)' takes no value") }
                value = ""
            } else if let inlineValue {
                value = inlineValue
            } else if let next = remaining.popFirst() {
                value = next
            } else {
                throw UsageError(message: "missing value for '\(name)'")
            }
            do {
                try option.apply(&parsed, name, value)
            } catch {
                throw error as? UsageError ?? UsageError(message: "'\(name)': \(error)")
            }
            used.append(option)
        }
        self = parsed.options
        if showHelp || showVersion { return }
        if let misplaced = used.first(where: { !($0.scopes?.contains(scope) ?? true) }) {
            throw UsageError(message: "'\(misplaced.name)' does not apply to \(scope.rawValue)")
        }
        try checkCombinations(parsed, used: used)
        if command == .geocode {
            geocodeQuery = geocodeBatch ? try Self.batchQuery(positional, used: used) : try Self.geocodeQuery(positional, used: used)
            return
        }
        if command == .publish {
            guard !positional.isEmpty else {
                throw UsageError(
                    message: "'publish' needs a destination: mqtt[s]://[USER@]HOST[:PORT]/TOPIC or http[s]://[USER@]HOST[:PORT]/PATH")
            }
            do {
                broker = try MQTTBroker(parsing: positional.removeFirst(), allowsHTTP: true)
            } catch {
                throw UsageError(message: error.description)
            }
            if let broker {
                try PublishFormat.check(publishAs, broker: broker)
                if broker.isHTTP, let mqttOnly = used.first(where: { ["--qos", "--retain", "--mqtt-version"].contains($0.name) }) {
                    throw UsageError(message: "'\(mqttOnly.name)' is for an MQTT broker, not an HTTP endpoint")
                }
            }
        }
        if let word = positional.first, command == .locate || command == .status || command == .serve || command == .publish {
            try Self.checkIsNoCommand(word)
        }
        guard positional.count <= 1 else {
            throw UsageError(message: "unexpected argument '\(UntrustedText.visible(positional[1], limit: 80))'")
        }
        if let word = positional.first, replay != nil {
            throw UsageError(message: "unexpected argument '\(UntrustedText.visible(word, limit: 80))': a replay reads no gpsd")
        }
        if positional.first != nil, parsed.gpsdOption != nil {
            throw UsageError(message: "give the gpsd endpoint either as an argument or with --gpsd, not both")
        }
        if case .permission = command, let word = positional.first {
            throw UsageError(message: "unexpected argument '\(UntrustedText.visible(word, limit: 80))'")
        }
        if command == .agent, let word = positional.first {
            throw UsageError(message: "unexpected argument '\(UntrustedText.visible(word, limit: 80))'")
        }
        if let spec = positional.first ?? parsed.gpsdOption ?? environment["LOCATE_GPSD"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do {
                endpoint = try GPSDEndpoint(parsing: spec)
            } catch {
                throw UsageError(message: error.description)
            }
        }
        do throws(GPSLocationError) {
            liveUpdateOptions =
                mode == .follow && (command == .locate || command == .publish || command == .record)
                ? try LiveUpdateOptions(
                    distanceFilter: distance, minimumInterval: interval, heartbeat: heartbeat, desiredAccuracy: accuracy,
                    stationaryAfter: Self.stationaryAfter, minimumFix: minimumFix, rejectsSuspect: rejectsSuspect)
                : try LiveUpdateOptions(desiredAccuracy: accuracy, minimumFix: minimumFix, rejectsSuspect: rejectsSuspect)
            if command == .visits { visitDetector = try VisitDetector(radius: visitRadius, dwell: visitDwell) }
        } catch {
            throw UsageError(message: error.description)
        }
        if app == nil, let fromEnvironment = environment["LOCATE_APP"], !fromEnvironment.isEmpty {
            do {
                try ConsentStore.checkAppName(fromEnvironment)
                app = fromEnvironment
            } catch {
                throw UsageError(message: "LOCATE_APP: \(error.description)")
            }
        }
        // `locate record` is an app like any other: its own permission, `[app "record"]`, unless named.
        if command == .record, app == nil { app = "record" }
    }

    /// Where the options must apply: the command, and the mode for positions.
    var scope: OptionScope {
        switch command {
        case .locate: mode == .once ? .once : .follow
        case .permission(.status): .permissionStatus
        case .permission(.allow): .permissionAllow
        case .permission(.deny): .permissionDeny
        case .permission(.reset): .permissionReset
        case .status: .status
        case .geocode: .geocode
        case .monitor: .monitor
        case .visits: .visits
        case .publish: .publish
        case .serve: .serve
        case .access: .access
        case .record: .record
        case .history: .history
        case .agent: .agent
        }
    }

    /// Checks a Unix socket's path: absolute, and short enough for a socket address (107
    /// bytes; a longer one would be cut, and listen elsewhere).
    static func unixSocketPath(_ path: String, flag: String, shown: String) throws(UsageError) {
        guard path.hasPrefix("/"), !UntrustedText.hasHidden(path) else {
            throw UsageError(message: "'\(flag) \(shown)': a Unix socket needs an absolute path")
        }
        guard path.utf8.count <= 107 else {
            throw UsageError(message: "'\(flag) \(shown)': a Unix socket's path is at most 107 bytes, not \(path.utf8.count)")
        }
    }

    /// A `--listen` address: `unix:PATH`, or a loopback `HOST:PORT` (`127.0.0.1:2948`,
    /// `[::1]:2948`, `localhost:2948`); anything else would serve positions beyond this machine.
    static func listenAddress(_ text: String) throws(UsageError) -> GPSDService.Address {
        let shown = UntrustedText.visible(text, limit: 80)
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            try unixSocketPath(path, flag: "--listen", shown: shown)
            return .unix(path: path)
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError(message: "'--listen \(shown)': expected HOST:PORT or unix:PATH")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        guard ServerSocket.isLoopback(host) else {
            throw UsageError(
                message: "'--listen \(shown)': not a loopback address (serve listens only on 127.0.0.0/8, ::1 or a Unix socket)")
        }
        return .loopback(host: host, port: port)
    }

    /// The options of a bundle of short ones (`-fn2` as `-f`, `-n`, `2`); a letter that is no
    /// option ends the bundle, to be reported as unknown.
    private static func unbundled(_ bundle: String) -> [String] {
        var words: [String] = []
        var rest = bundle.dropFirst()
        while let letter = rest.first {
            rest = rest.dropFirst()
            let flag = "-" + String(letter)
            words.append(flag)
            guard let option = OptionTable.option(flag) else { break }
            if option.value != nil {
                if !rest.isEmpty { words.append(String(rest.first == "=" ? rest.dropFirst() : rest)) }
                return words
            }
        }
        return rest.isEmpty ? words : words + ["-" + rest]
    }

    /// A gpsd endpoint word that is a slip of a command or option name (`statsu`, `follow`,
    /// `help`) is a usage error, before any name lookup; `host:port`, a dotted name or an address
    /// is always an endpoint, as is anything given with `--gpsd`.
    private static func checkIsNoCommand(_ word: String) throws(UsageError) {
        guard !word.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }) else {
            return
        }
        var names: [(name: String, shown: String)] = []
        for command in CommandTable.commands { names.append((command.name, command.name)) }
        for command in CommandTable.commands {
            for subcommand in command.words { names.append((subcommand, command.name + " " + subcommand)) }
        }
        for option in OptionTable.options where option.name.hasPrefix("--") {
            names.append((String(option.name.dropFirst(2)), option.name))
        }
        let near = Suggestion.nearest(word, among: names)
        guard !near.isEmpty else { return }
        let shown = UntrustedText.visible(word, limit: 80)
        throw UsageError(
            message: "'\(shown)' is not a command; did you mean "
                + near.prefix(2).map { "'\($0)'" }.joined(separator: " or ")
                + "? (a gpsd host of that name is given as \(shown):2947 or with --gpsd \(shown))")
    }

    /// `--batch`: no coordinate or name (the points come from stdin), and no `--limit`.
    private static func batchQuery(_ words: [String], used: [OptionSpec]) throws(UsageError) -> GeocodeQuery {
        if let word = words.first {
            throw UsageError(
                message: "'geocode --batch' reads its points from stdin; unexpected argument '\(UntrustedText.visible(word, limit: 80))'")
        }
        if let limit = used.first(where: { $0.flags.contains("--limit") }) {
            throw UsageError(message: "'\(limit.name)' applies to 'geocode NAME', not to --batch")
        }
        return .batch
    }

    /// `LAT LON`, `LAT,LON` or either as one word (two numbers in range) or a name (the words,
    /// joined by spaces); CSV only with
    /// `--batch`.
    private static func geocodeQuery(_ words: [String], used: [OptionSpec]) throws(UsageError) -> GeocodeQuery {
        if let csv = used.first(where: { $0.flags.contains("--csv") || $0.flags.contains("--no-header") }) {
            throw UsageError(message: "'\(csv.name)' with geocode needs --batch")
        }
        guard !words.isEmpty else { throw UsageError(message: "'geocode' needs a coordinate (LAT LON) or a place name") }
        // `37.5 127`, `37.5,127`, `"37.5 127"` and `37.5, 127` are all one coordinate.
        let parts = words.joined(separator: " ").split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
        if parts.count <= 2, parts.contains(where: NumericText.isNumber) {
            let words = parts
            guard words.count == 2, words.allSatisfy(NumericText.isNumber) else {
                throw UsageError(message: "'geocode' needs a latitude and a longitude, or a place name")
            }
            do {
                return .coordinate(
                    latitude: try NumericText.number(words[0], in: -90...90),
                    longitude: try NumericText.number(words[1], in: -180...180))
            } catch {
                throw UsageError(
                    message: "not a coordinate: '\(UntrustedText.visible(error.text, limit: 40))' (expected \(error.expected))")
            }
        }
        let name = words.joined(separator: " ")
        guard name.count <= 200, !UntrustedText.hasHidden(name) else {
            throw UsageError(message: "not a place name: '\(UntrustedText.visible(name, limit: 80))'")
        }
        return .name(name)
    }

    /// One output format at most, and the options that only make sense with another one.
    private mutating func checkCombinations(_ parsed: ParsedArguments, used: [OptionSpec]) throws(UsageError) {
        // One format; the same one given again is no conflict, and a message names each once.
        var formats: [String] = []
        for format in parsed.formats where !formats.contains(format) { formats.append(format) }
        if formats.count > 1 {
            throw UsageError(message: "choose one output format, not \(formats.joined(separator: " and "))")
        }
        let flags = Set(used.flatMap(\.flags))
        for (option, needs, given) in [
            ("--events", "--json", isJSON), ("--no-header", "--csv", formats == ["--csv"]),
            ("--geocode", "--json or --csv", isJSON || formats == ["--csv"]),
            ("--null", "--format", parsed.template != nil),
        ] where flags.contains(option) && !given {
            throw UsageError(message: "'\(option)' goes with \(needs)")
        }
        if flags.contains("--before"), !historyForget {
            throw UsageError(message: "'--before' goes with --forget")
        }
        if historyForget,
            let other = ["--from", "--to", "--near", "--days", "--json", "--csv", "--gpx", "--geojson"].first(where: flags.contains)
        {
            throw UsageError(message: "'\(other)' and --forget: --forget deletes (all, or --before TIME), it prints nothing")
        }
        if historyDays, let other = ["--csv", "--gpx", "--geojson", "--no-header"].first(where: flags.contains) {
            throw UsageError(message: "'\(other)' and --days: a day's line is text, or --json")
        }
        if let from = historyFrom, let to = historyTo, to <= from {
            throw UsageError(message: "'--to' is not after '--from': no point can be in between")
        }
        if flags.contains("--replay-speed"), replay == nil {
            throw UsageError(message: "'--replay-speed' goes with --replay")
        }
        if replay != nil, let gpsd = used.first(where: { $0.flags.contains("--gpsd") }) {
            throw UsageError(message: "'\(gpsd.name)' and --replay: a replay reads no gpsd")
        }
        if replay != nil, flags.contains("--max-age") {
            throw UsageError(message: "'--max-age' and --replay: a recorded track's fixes have no age now")
        }
        if let template = parsed.template {
            format = .template(try TemplateFormat(template, nullText: parsed.nullText ?? "", kind: recordKind))
        }
    }
}
