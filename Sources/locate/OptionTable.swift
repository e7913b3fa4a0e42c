import GPSLocation
import GPSLocationConsent
import GPSLocationMQTT
import GPSLocationPlaces
import LocateFleet
import LocateSupport

/// Where an option applies: the command, and for positions the mode.
enum OptionScope: String, Sendable, CaseIterable {
    case once = "--once"
    case follow = "--follow"
    case permissionStatus = "permission status"
    case permissionAllow = "permission allow"
    case permissionDeny = "permission deny"
    case permissionReset = "permission reset"
    case status
    case geocode
    case monitor
    case visits
    case publish
    case serve
    case access
    case record
    case history
    case agent

    /// The scopes of both position modes.
    static let positions: [OptionScope] = [.once, .follow]
    /// The commands that follow a stream of fixes.
    static let streams: [OptionScope] = [.follow, .monitor, .visits]
    /// Everything that reads positions: a single fix and the streams.
    static let reading: [OptionScope] = [.once] + streams
    /// Where the gpsd endpoint, the replay, the accuracy and the permission's purpose apply.
    static let sourced: [OptionScope] = reading + [.publish, .record]
    /// What stops after N records or S seconds.
    static let ending: [OptionScope] = streams + [.publish, .record]
}

/// One command, the first word of a command line, declared once: its name, the scopes of the
/// options it takes, a line saying what it does, and how it is read. The parser, the help of each
/// command, the man page and the completions all read `CommandTable.commands`, so adding a command
/// is one entry here, its scope in `OptionScope`, its usage lines in `Usage.usageLines`, and its
/// options type (its slice of `ParsedArguments`, checked into its case of `ParsedCommandLine`).
struct CommandSpec: Sendable {
    let name: String
    let scopes: [OptionScope]
    let summary: String
    /// The words the command takes after its name before any option (permission's actions).
    var words: [String] = []
    /// Records the command in the arguments being parsed, reading its own words from the front of
    /// `remaining`.
    let select: @Sendable (inout ParsedArguments, _ remaining: inout ArraySlice<String>) throws(UsageError) -> Void
}

enum CommandTable {
    /// `locate` without a command word: positions, one fix or a stream.
    static let positions = CommandSpec(
        name: "", scopes: OptionScope.positions,
        summary: "Print this machine's position from gpsd: one fix (--once, the default) or a live stream (--follow)."
    ) { _, _ in }

    static let commands: [CommandSpec] = [
        CommandSpec(
            name: "permission", scopes: [.permissionStatus, .permissionAllow, .permissionDeny, .permissionReset],
            summary: "Show, give, refuse or forget an app's location permission (the settings' [location] and [app] sections).",
            words: PermissionOptions.Action.allCases.map(\.rawValue)
        ) { parsed, remaining throws(UsageError) in
            parsed.command = .permission
            guard let word = remaining.first, !word.hasPrefix("-") else { return }
            guard let action = PermissionOptions.Action(rawValue: word) else {
                throw UsageError(
                    message:
                        "unknown permission action '\(UntrustedText.visible(word, limit: 80))' (expected status, allow, deny or reset)"
                        + Suggestion.didYouMean(word, among: PermissionOptions.Action.allCases.map(\.rawValue)))
            }
            remaining.removeFirst()
            parsed.permission.action = action
        },
        CommandSpec(
            name: "status", scopes: [.status],
            summary: "Explain the location services, the permission, gpsd and the receiver, and exit with the status a fix would get."
        ) { parsed, _ in
            parsed.command = .status
        },
        CommandSpec(
            name: "geocode", scopes: [.geocode],
            summary: "Name the place at a coordinate, find the places of a name, or name the place of every point read from stdin; offline."
        ) { parsed, _ in
            parsed.command = .geocode
        },
        CommandSpec(
            name: "monitor", scopes: [.monitor],
            summary: "Print an event each time the position enters or leaves a circular region."
        ) { parsed, _ in
            parsed.command = .monitor
        },
        CommandSpec(
            name: "visits", scopes: [.visits],
            summary: "Print an arrival when the position stays put a while, and a departure when it leaves."
        ) { parsed, _ in
            parsed.command = .visits
        },
        CommandSpec(
            name: "publish", scopes: [.publish],
            summary: "Publish the position to an MQTT broker (OwnTracks, Home Assistant or JSON), through outages, under the permission."
        ) { parsed, _ in
            parsed.command = .publish
        },
        CommandSpec(
            name: "serve", scopes: [.serve],
            summary: "Serve gpsd's protocol (and NMEA) to local programs, each through its own permission, over one gpsd connection."
        ) { parsed, _ in
            parsed.command = .serve
        },
        CommandSpec(
            name: "access", scopes: [.access],
            summary: "List who had the location (the access log's sessions, never a position) and who receives it now."
        ) { parsed, _ in
            parsed.command = .access
        },
        CommandSpec(
            name: "record", scopes: [.record],
            summary: "Keep each position of the live stream in the history on disk (an app named record, under its permission)."
        ) { parsed, _ in
            parsed.command = .record
        },
        CommandSpec(
            name: "history", scopes: [.history],
            summary:
                "Print where this machine was (the points record kept), a summary per day, or forget them; under the reader's permission."
        ) { parsed, _ in
            parsed.command = .history
        },
        CommandSpec(
            name: "agent", scopes: [.agent],
            summary: "Be GeoClue's agent: answer desktop apps' location requests from the settings, on the system bus."
        ) { parsed, _ in
            parsed.command = .agent
        },
        CommandSpec(
            name: "help", scopes: [], summary: "Show the help of locate, or of one command."
        ) { parsed, remaining throws(UsageError) in
            parsed.showHelp = true
            parsed.helpCommand = nil
            guard let word = remaining.popFirst() else { return }
            guard let topic = command(word), topic.name != "help" else {
                throw UsageError(
                    message: "no help for '\(UntrustedText.visible(word, limit: 80))'" + Suggestion.didYouMean(word, among: topics))
            }
            parsed.helpCommand = topic.name
            if let extra = remaining.first {
                throw UsageError(message: "unexpected argument '\(UntrustedText.visible(extra, limit: 80))'")
            }
        },
    ]

    /// The commands `help` explains.
    static var topics: [String] { commands.map(\.name).filter { $0 != "help" } }

    /// The command named `name`.
    static func command(_ name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The command a command line runs: its first word's, else `locate`'s own (positions).
    static func command(of arguments: some Collection<String>) -> CommandSpec {
        arguments.first.flatMap(command) ?? positions
    }
}

/// What a shell completion offers for an option's value.
enum ValueCompletion: Sendable {
    /// Nothing: a number or free text.
    case nothing
    /// File names.
    case files
    /// `inside:NAME` and `outside:NAME` for the settings' `[region "NAME"]` sections.
    case regionConditions
    /// The settings' `[app "NAME"]` names.
    case appNames
}

/// One command-line option, declared once: its spellings, the name of its value (`nil` for a
/// switch), where it applies, its help, and what it sets (in the options of the commands it applies
/// to). The parser, `--help`, the man page and the three shell completions all read
/// `OptionTable.options`, so adding an option is one entry (and its field in its command's options).
struct OptionSpec: Sendable {
    let flags: [String]
    let value: String?
    /// Where the option applies; `nil` for everywhere (help, version). An array, not a set: a
    /// handful of cases, and no hashing machinery to set up at each start.
    let scopes: [OptionScope]?
    let help: String
    /// What the shell completions offer for the option's value.
    var completes = ValueCompletion.nothing
    /// Records the option (with its value, or `""` for a switch) in the arguments being parsed;
    /// throws only `UsageError` (the closures of the table cannot say so in their type without
    /// each spelling it out).
    let apply: @Sendable (inout ParsedArguments, _ flag: String, _ value: String) throws -> Void

    /// The option's long name (its last spelling), as messages name it.
    var name: String { flags.last ?? "" }

    /// Whether the option applies to `command` (everywhere-options apply to every command).
    func applies(to command: CommandSpec) -> Bool {
        scopes.map { scopes in scopes.contains { command.scopes.contains($0) } } ?? true
    }
}

enum OptionTable {
    static let options: [OptionSpec] = [
        OptionSpec(flags: ["--once"], value: nil, scopes: [.once], help: "Print one fix and exit (the default).") { parsed, _, _ in
            parsed.mode = .once
        },
        OptionSpec(
            flags: ["-f", "--follow"], value: nil, scopes: [.follow],
            help: "Print fixes as they come until interrupted, --count or --duration."
        ) { parsed, _, _ in
            parsed.mode = .follow
        },
        OptionSpec(
            flags: ["--gpsd"], value: "SPEC", scopes: OptionScope.sourced + [.status, .serve],
            help: "The gpsd endpoint, host[:port[:device]]."
        ) { parsed, _, value in
            parsed.gpsdOption = value
        },
        OptionSpec(
            flags: ["--listen"], value: "ADDR", scopes: [.serve],
            help:
                "(serve) Listen on ADDR: a loopback HOST:PORT or unix:PATH (in a directory of yours alone); may be given more than once (default 127.0.0.1:2948)."
        ) { parsed, _, value in
            parsed.serve.listen.append(try ServeOptions.listenAddress(value))
        },
        OptionSpec(
            flags: ["--nmea"], value: "PATH", scopes: [.serve],
            help:
                "(serve) Also serve NMEA 0183 on the Unix socket PATH (the receiver's sentences; a grid cell's GGA, RMC and GSA under reduced accuracy), for GeoClue's nmea-socket and chart plotters."
        ) { parsed, _, value in
            try ServeOptions.unixSocketPath(value, flag: "--nmea", shown: UntrustedText.visible(value, limit: 80))
            parsed.serve.nmea.append(value)
        },
        OptionSpec(
            flags: ["--timeout"], value: "S", scopes: [.once, .status],
            help:
                "(once) Give up after S seconds without an acceptable fix (default 30); (status) wait S seconds for gpsd's answer (default 3)."
        ) { parsed, flag, value in
            let timeout = try seconds(value, for: flag, allowingZero: false, allowingForever: true)
            parsed.once.timeout = timeout
            parsed.status.timeout = timeout
        },
        OptionSpec(
            flags: ["--accuracy"], value: "M", scopes: OptionScope.sourced,
            help:
                "Use only fixes with a horizontal error of M metres or less; --once prints the best fix seen on timeout, marked timed_out."
        ) { parsed, flag, value in
            parsed.stream.accuracy = try number(value, for: flag, excludingZero: true)
        },
        OptionSpec(
            flags: ["--min-fix"], value: "TYPE", scopes: OptionScope.positions + [.publish],
            help:
                "(once, follow, publish) Use only fixes at least this good: gps < dgps < rtk_float < rtk_fixed; --once prints the best fix seen on timeout, marked timed_out."
        ) { parsed, flag, value in
            let ranked: [Location.FixType] = [.gps, .dgps, .rtkFloat, .rtkFixed]
            guard let type = ranked.first(where: { $0.rawValue == value }) else {
                throw UsageError(
                    message:
                        "invalid value '\(UntrustedText.visible(value, limit: 40))' for '\(flag)' (expected gps, dgps, rtk_float or rtk_fixed)"
                        + Suggestion.didYouMean(value, among: ranked.map(\.rawValue)))
            }
            parsed.stream.minimumFix = type
        },
        OptionSpec(
            flags: ["--reject-suspect"], value: nil, scopes: OptionScope.streams + [.publish],
            help:
                "(follow, monitor, visits, publish) Leave out fixes whose integrity is suspect (a jump, a speed or a time that contradicts the fix before)."
        ) { parsed, _, _ in
            parsed.stream.rejectsSuspect = true
        },
        OptionSpec(
            flags: ["--max-age"], value: "S", scopes: [.once],
            help: "(once) A fix no older than S seconds is good enough: from the last-fix cache without asking gpsd, or gpsd's current fix."
        ) { parsed, flag, value in
            parsed.once.maxAge = try seconds(value, for: flag, allowingZero: true, allowingForever: true)
        },
        OptionSpec(
            flags: ["-n", "--count"], value: "N", scopes: OptionScope.ending,
            help: "(follow, monitor, visits, publish) Stop after N records."
        ) {
            parsed, flag, value in
            parsed.stream.count = try count(value, for: flag)
        },
        OptionSpec(
            flags: ["--duration"], value: "S", scopes: OptionScope.ending,
            help: "(follow, monitor, visits, publish) Stop after S seconds (inf: no limit)."
        ) {
            parsed, flag, value in
            parsed.stream.duration = try seconds(value, for: flag, allowingZero: false, allowingForever: true)
        },
        OptionSpec(
            flags: ["--distance"], value: "M", scopes: [.follow, .publish, .record],
            help: "(follow, publish, record) Print a fix only after moving M metres from the last one printed."
        ) { parsed, flag, value in
            parsed.stream.distance = try number(value, for: flag, excludingZero: false)
        },
        OptionSpec(
            flags: ["--interval"], value: "S", scopes: [.follow, .publish, .record],
            help: "(follow, publish, record) Print at most one fix every S seconds."
        ) {
            parsed, flag, value in
            parsed.stream.interval = try seconds(value, for: flag, allowingZero: true)
        },
        OptionSpec(
            flags: ["--heartbeat"], value: "S", scopes: [.follow, .publish, .record],
            help: "(follow, publish, record) Print the newest fix at least every S seconds, even when --distance holds it back."
        ) { parsed, flag, value in
            parsed.stream.heartbeat = try seconds(value, for: flag, allowingZero: false)
        },
        OptionSpec(
            flags: ["--json"], value: nil, scopes: OptionScope.reading + [.permissionStatus, .status, .geocode, .access, .history],
            help: "One JSON object per line."
        ) { parsed, flag, _ in
            parsed.output.format = .json
            parsed.formats.append(flag)
        },
        OptionSpec(
            flags: ["--geocode"], value: nil, scopes: OptionScope.positions,
            help: "(with --json or --csv) Add the place of each record: city, state, country, country_code, timezone."
        ) { parsed, _, _ in
            parsed.output.placeFields = true
        },
        OptionSpec(
            flags: ["--lang"], value: "LANG", scopes: OptionScope.positions + [.geocode],
            help: "Place names in LANG (such as ko or pt_BR; C for the data's English names) instead of LANGUAGE or the locale's."
        ) { parsed, flag, value in
            parsed.output.placeLanguage = try language(value, for: flag)
        },
        OptionSpec(flags: ["--limit"], value: "N", scopes: [.geocode], help: "(geocode NAME) Print at most N places (default 10).") {
            parsed, flag, value in
            parsed.geocode.limit = try count(value, for: flag)
        },
        OptionSpec(
            flags: ["--batch"], value: nil, scopes: [.geocode],
            help: "(geocode) Read points from stdin (LAT LON, LAT,LON or JSON Lines with lat and lon) and write a record for each line."
        ) { parsed, _, _ in
            parsed.geocode.batch = true
        },
        OptionSpec(
            flags: ["--events"], value: nil, scopes: OptionScope.reading,
            help: "(with --json) Status events on stdout as {\"type\":\"status\",...} objects."
        ) { parsed, _, _ in
            parsed.output.events = true
        },
        OptionSpec(
            flags: ["--csv"], value: nil, scopes: OptionScope.reading + [.geocode, .history],
            help: "CSV (RFC 4180) with a header line and the JSON fields as columns (geocode: with --batch)."
        ) { parsed, flag, _ in
            parsed.output.format = .csv
            parsed.formats.append(flag)
        },
        OptionSpec(
            flags: ["--no-header"], value: nil, scopes: OptionScope.reading + [.geocode, .history],
            help: "(with --csv) Leave the header line out."
        ) {
            parsed, _, _ in
            parsed.output.csvHeader = false
        },
        OptionSpec(
            flags: ["--gpx"], value: nil, scopes: OptionScope.positions + [.history],
            help: "GPX 1.1: a waypoint for --once, a track for --follow and history."
        ) { parsed, flag, _ in
            parsed.output.format = .gpx
            parsed.formats.append(flag)
        },
        OptionSpec(
            flags: ["--geojson"], value: nil, scopes: [.history],
            help: "(history) A GeoJSON (RFC 7946) FeatureCollection: a Point feature per point, its record's fields as properties."
        ) { parsed, flag, _ in
            parsed.output.format = .geojson
            parsed.formats.append(flag)
        },
        OptionSpec(
            flags: ["--from"], value: "TIME", scopes: [.history],
            help:
                "(history) Points at or after TIME: YYYY-MM-DD[THH:MM[:SS]] local time, with Z or ±HH:MM for another zone, or Unix seconds."
        ) { parsed, flag, value in
            parsed.history.from = try time(value, for: flag)
        },
        OptionSpec(
            flags: ["--to"], value: "TIME", scopes: [.history], help: "(history) Points before TIME (as --from)."
        ) { parsed, flag, value in
            parsed.history.to = try time(value, for: flag)
        },
        OptionSpec(
            flags: ["--near"], value: "LAT,LON,RADIUS", scopes: [.history],
            help: "(history) Points within RADIUS metres of LAT,LON."
        ) { parsed, flag, value in
            parsed.history.near = try near(value, for: flag)
        },
        OptionSpec(
            flags: ["--days"], value: nil, scopes: [.history],
            help: "(history) A line per local day: date, points, distance_m (geodesic), moving_s (text, or --json)."
        ) { parsed, _, _ in
            parsed.history.days = true
        },
        OptionSpec(
            flags: ["--forget"], value: nil, scopes: [.history], help: "(history) Delete the stored points (all, or those before --before)."
        ) { parsed, _, _ in
            parsed.history.forget = true
        },
        OptionSpec(
            flags: ["--before"], value: "TIME", scopes: [.history], help: "(history, with --forget) Delete only the points before TIME."
        ) { parsed, flag, value in
            parsed.history.before = try time(value, for: flag)
        },
        OptionSpec(
            flags: ["--format"], value: "TEMPLATE", scopes: OptionScope.reading,
            help:
                "A line per record from tokens: \(TemplateFormat.tokenList) (monitor: %\(RecordKind.region.tokenNames), visits: %\(RecordKind.visit.tokenNames)); %% is a percent sign, \\n and \\t a line break and a tab."
        ) { parsed, flag, value in
            parsed.template = value
            parsed.formats.append(flag)
        },
        OptionSpec(
            flags: ["--null"], value: "TEXT", scopes: OptionScope.reading,
            help: "(with --format) What an unknown value is written as (default: nothing)."
        ) { parsed, _, value in
            parsed.nullText = value
        },
        OptionSpec(
            flags: ["--no-fallback"], value: nil, scopes: OptionScope.positions,
            help: "Print nothing instead of the fallback coordinate."
        ) { parsed, _, _ in
            parsed.output.fallbackEnabled = false
        },
        OptionSpec(
            // Not the agent's: it answers for every app, each by its own section.
            flags: ["--app"], value: "NAME", scopes: OptionScope.allCases.filter { $0 != .agent },
            help: "Whose permission applies ([app \"NAME\"] in the settings); also LOCATE_APP.", completes: .appNames
        ) { parsed, flag, value in
            do throws(GPSLocationError) {
                try ConsentStore.checkAppName(value)
                parsed.app = value
            } catch {
                throw UsageError(message: "'\(flag)' needs an app name: \(error.description)")
            }
        },
        OptionSpec(
            flags: ["--purpose"], value: "TEXT", scopes: OptionScope.sourced,
            help: "Why the location is needed, shown in the permission prompt."
        ) { parsed, _, value in
            parsed.stream.purpose = value
        },
        OptionSpec(
            flags: ["--region"], value: "NAME=LAT,LON,RADIUS", scopes: [.monitor, .publish],
            help:
                "(monitor, publish) A circular region of RADIUS metres; repeatable, and [region \"NAME\"] sections in the settings add more."
        ) { parsed, flag, value in
            let region = try region(value, for: flag)
            parsed.monitor.regions.append(region)
            parsed.publish.regions.append(region)
        },
        OptionSpec(
            flags: ["--until"], value: "STATE:NAME", scopes: [.monitor],
            help: "(monitor) Exit 0 as soon as region NAME is inside or outside (as at the start).", completes: .regionConditions
        ) { parsed, flag, value in
            parsed.monitor.until = try condition(value, for: flag)
        },
        OptionSpec(
            flags: ["--name"], value: "NAME", scopes: [.monitor, .visits],
            help:
                "(monitor) Keep the regions and their last states as monitor NAME (in $XDG_STATE_HOME/locate/monitors), so the next run reports enter and exit against them; with --subscribe (monitor, visits), the broker's session is NAME's."
        ) { parsed, flag, value in
            guard RegionMonitor.isValidName(value) else {
                throw UsageError(
                    message: "'\(flag)': '\(UntrustedText.visible(value, limit: 80))' is not a monitor name (\(RegionMonitor.nameRule))")
            }
            parsed.fleet.name = value
        },
        OptionSpec(
            flags: ["--by"], value: "KEY", scopes: [.monitor, .visits],
            help:
                "(monitor, visits; with --replay or --subscribe) Keep a state per device of a fleet's records: KEY is topic (the MQTT topic, as in mosquitto_sub -v lines) or a JSON field such as tid (OwnTracks)."
        ) { parsed, flag, value in
            guard !value.isEmpty, value.utf8.count <= 64, !UntrustedText.hasHidden(value), !value.contains(" ") else {
                throw UsageError(message: "'\(flag)' needs topic or a JSON field name, not '\(UntrustedText.visible(value, limit: 80))'")
            }
            parsed.fleet.deviceKey = DeviceKey(value)
        },
        OptionSpec(
            flags: ["--radius"], value: "M", scopes: [.visits],
            help: "(visits) A visit keeps within M metres of its centre (default 50)."
        ) { parsed, flag, value in
            parsed.visits.radius = try number(value, for: flag, excludingZero: true)
        },
        OptionSpec(
            flags: ["--dwell"], value: "S", scopes: [.visits],
            help: "(visits) A visit lasts at least S seconds of receiver time (default 300)."
        ) { parsed, flag, value in
            parsed.visits.dwell = try seconds(value, for: flag, allowingZero: false)
        },
        OptionSpec(
            flags: ["--replay"], value: "FILE", scopes: OptionScope.sourced,
            help:
                "Read the fixes of a track (GPX 1.1, NMEA 0183 or locate's JSON Lines; - for stdin) instead of gpsd; no permission needed, nothing cached.",
            completes: .files
        ) { parsed, flag, value in
            guard !value.isEmpty, !UntrustedText.hasHidden(value) else {
                throw UsageError(message: "'\(flag)' needs a file name, not '\(UntrustedText.visible(value, limit: 80))'")
            }
            parsed.stream.replay = value
        },
        OptionSpec(
            flags: ["--replay-speed"], value: "X", scopes: OptionScope.sourced,
            help: "(with --replay) Play the track at X times its pace; 0 for as fast as the output is read (default 1)."
        ) { parsed, flag, value in
            parsed.stream.replaySpeed = try number(value, for: flag, excludingZero: false)
        },
        OptionSpec(
            flags: ["--as"], value: "FORMAT", scopes: [.publish],
            help:
                "(publish) What to publish: owntracks, homeassistant (MQTT only), json (locate's --json record; the default) or osmand (Traccar's form; HTTP only)."
        ) { parsed, flag, value in
            parsed.publish.kind = try choice(value, for: flag, PublishFormat.Kind.allCases.map { ($0.rawValue, $0) })
        },
        OptionSpec(flags: ["--qos"], value: "Q", scopes: [.publish], help: "(publish; MQTT) Quality of service: 0, 1 (the default) or 2.") {
            parsed, flag, value in
            parsed.publish.qos = try choice(value, for: flag, MQTTQoS.allCases.map { (String($0.rawValue), $0) })
        },
        OptionSpec(
            flags: ["--retain"], value: nil, scopes: [.publish],
            help: "(publish) The broker keeps the newest position for subscribers that come later (cleared when location is revoked)."
        ) { parsed, _, _ in
            parsed.publish.retain = true
        },
        OptionSpec(
            flags: ["--every"], value: "S", scopes: [.publish],
            help:
                "(publish) Hold records and send them in one burst every S seconds, connected to the broker only for the burst (nothing lost; a revoke in between deletes what was held)."
        ) { parsed, flag, value in
            parsed.publish.sendInterval = try seconds(value, for: flag, allowingZero: false)
        },
        OptionSpec(
            flags: ["--outbox-limit"], value: "N", scopes: [.publish],
            help:
                "(publish) Keep at most N records waiting for the broker (default 10000), on disk in the outbox; past it the oldest are dropped, said on stderr, and the status is not 0."
        ) { parsed, flag, value in
            parsed.publish.outboxLimit = try count(value, for: flag)
        },
        OptionSpec(
            flags: ["--subscribe"], value: "URL", scopes: [.monitor, .visits],
            help:
                "(monitor, visits; with --by and --name) Read the fleet's records from mqtt[s]://[USER@]HOST[:PORT]/FILTER in a persistent session named after --name, so a restart resumes where it stopped."
        ) { parsed, _, value in
            do throws(MQTTError) {
                parsed.fleet.subscription = try MQTTBroker(parsing: value, isFilter: true)
            } catch {
                throw UsageError(message: "'--subscribe': " + error.description)
            }
        },
        OptionSpec(
            flags: ["--publish"], value: "URL", scopes: [.monitor, .visits],
            help:
                "(monitor, visits; with --by) Publish each event's JSON record to mqtt[s]://[USER@]HOST[:PORT]/TOPIC (QoS 1) as well as printing it."
        ) { parsed, _, value in
            do throws(MQTTError) {
                parsed.fleet.eventBroker = try MQTTBroker(parsing: value)
            } catch {
                throw UsageError(message: "'--publish': " + error.description)
            }
        },
        OptionSpec(
            flags: ["--mqtt-version"], value: "V", scopes: [.publish, .monitor, .visits],
            help: "(publish, monitor and visits with --subscribe) The MQTT protocol: 3.1.1 (the default) or 5."
        ) { parsed, flag, value in
            let version = try choice(value, for: flag, MQTTConfiguration.ProtocolVersion.allCases.map { ($0.rawValue, $0) })
            parsed.publish.mqttVersion = version
            parsed.fleet.mqttVersion = version
        },
        OptionSpec(
            flags: ["--always"], value: nil, scopes: [.permissionAllow],
            help: "(permission allow) Allow also without a terminal or in the background."
        ) { parsed, _, _ in
            parsed.permission.always = true
        },
        OptionSpec(
            flags: ["--reduced"], value: nil, scopes: [.permissionAllow],
            help: "(permission allow) Allow only positions snapped to a grid cell of about 5.6 km."
        ) { parsed, _, _ in
            parsed.permission.reduced = true
        },
        OptionSpec(flags: ["-V", "--version"], value: nil, scopes: nil, help: "Show the version and the libgps it was built with.") {
            parsed, _, _ in
            parsed.showVersion = true
        },
        OptionSpec(flags: ["-h", "--help"], value: nil, scopes: nil, help: "Show help information.") { parsed, _, _ in
            parsed.showHelp = true
        },
    ]

    /// The option spelled `flag`.
    static func option(_ flag: String) -> OptionSpec? {
        options.first { $0.flags.contains(flag) }
    }

    // MARK: - Values

    /// One of `choices`, by its word.
    private static func choice<Value>(
        _ text: String, for option: String, _ choices: [(word: String, value: Value)]
    ) throws(UsageError)
        -> Value
    {
        guard let chosen = choices.first(where: { $0.word == text }) else {
            let words = choices.map(\.word)
            throw UsageError(
                message:
                    "'\(option)' needs \(words.dropLast().joined(separator: ", ")) or \(words.last ?? ""), not '\(UntrustedText.visible(text, limit: 40))'"
            )
        }
        return chosen.value
    }

    private static func number(_ text: String, for option: String, excludingZero: Bool) throws(UsageError) -> Double {
        do {
            return try NumericText.number(text, excludingZero: excludingZero)
        } catch {
            throw UsageError(message: "'\(option)' needs \(error.expected), not '\(UntrustedText.visible(text, limit: 40))'")
        }
    }

    /// Seconds, as a number or with a unit (`90`, `90s`, `1.5m`, `2h`); `inf` too where waiting
    /// without end makes sense (`allowingForever`), as the longest wait there is.
    private static func seconds(
        _ text: String, for option: String, allowingZero: Bool, allowingForever: Bool = false
    ) throws(UsageError) -> Duration {
        if allowingForever, text == "inf" || text == "infinity" { return NumericText.maximumDuration }
        let units: [(suffix: UInt8, seconds: Double)] = [(UInt8(ascii: "s"), 1), (UInt8(ascii: "m"), 60), (UInt8(ascii: "h"), 3600)]
        do {
            guard let last = text.utf8.last, let unit = units.first(where: { $0.suffix == last }), text.utf8.count > 1 else {
                return try NumericText.seconds(text, allowingZero: allowingZero)
            }
            let number = String(text.dropLast())
            guard unit.seconds > 1 else { return try NumericText.seconds(number, allowingZero: allowingZero) }
            let value = try NumericText.number(number, in: 0...(1e9 / unit.seconds), excludingZero: !allowingZero)
            // As a number of seconds, so that a value below a millisecond is refused as there.
            return try NumericText.seconds(NumberFormatting.plain(value * unit.seconds), allowingZero: allowingZero)
        } catch {
            throw UsageError(message: "'\(option)' needs \(error.expected), not '\(UntrustedText.visible(text, limit: 40))'")
        }
    }

    /// A language for place names: `C` (or `POSIX`, `en`) for English, else a language name.
    /// A language for place names: any locale name the C library takes (`ko`, `pt_BR`,
    /// `de_DE.UTF-8`, `C.UTF-8`), its language part used; `C` or `POSIX` for English.
    private static func language(_ text: String, for option: String) throws(UsageError) -> PlaceLanguage {
        guard let language = PlaceLanguage.locale(text) else {
            throw UsageError(
                message:
                    "'\(option)' needs a language or locale such as ko, de_DE.UTF-8 or pt_BR (or C), not '\(UntrustedText.visible(text, limit: 40))'"
            )
        }
        return language
    }

    /// `NAME=LAT,LON,RADIUS`: a name of up to 64 characters without `=` or hidden ones, a
    /// coordinate, and a radius in metres.
    private static func region(_ text: String, for option: String) throws(UsageError) -> CircularRegion {
        let expected = "NAME=LAT,LON,RADIUS (such as home=37.5178,126.8863,100)"
        let numbers = text.drop { $0 != "=" }.dropFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard text.contains("="), numbers.count == 3 else {
            throw UsageError(message: "'\(option)' needs \(expected), not '\(UntrustedText.visible(text, limit: 80))'")
        }
        let name = String(text.prefix { $0 != "=" })
        let latitude: Double
        let longitude: Double
        let radius: Double
        do {
            latitude = try NumericText.number(numbers[0], in: -90...90)
            longitude = try NumericText.number(numbers[1], in: -180...180)
            radius = try NumericText.number(numbers[2], in: 0...CircularRegion.maximumRadius, excludingZero: true)
        } catch {
            throw UsageError(message: "'\(option)': \(error.description) in '\(UntrustedText.visible(text, limit: 80))'")
        }
        let region: CircularRegion
        do throws(GPSLocationError) {
            region = try CircularRegion(name: name, latitude: latitude, longitude: longitude, radius: radius)
        } catch {
            throw UsageError(
                message:
                    "'\(option)': '\(UntrustedText.visible(name, limit: 80))' is not a region name (\(CircularRegion.nameRule))"
            )
        }
        return region
    }

    /// `inside:NAME` or `outside:NAME`.
    private static func condition(_ text: String, for option: String) throws(UsageError) -> MonitorOptions.RegionCondition {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let state = RegionState(rawValue: String(parts[0])), state != .unknown, !parts[1].isEmpty else {
            throw UsageError(message: "'\(option)' needs inside:NAME or outside:NAME, not '\(UntrustedText.visible(text, limit: 80))'")
        }
        return MonitorOptions.RegionCondition(state: state, region: String(parts[1]))
    }

    /// A time of `--from`, `--to`, `--before`: ISO 8601 with its zone, a local date (and time), or Unix seconds.
    private static func time(_ text: String, for option: String) throws(UsageError) -> Double {
        if !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let seconds = Double(text)
        {
            return seconds
        }
        if let date = UTCTimestamp.parse(text) { return date.timeIntervalSince1970 }
        // With its zone but no seconds (`2026-12-01T08:30Z`, `...T08:30+01:00`).
        if text.count > 16, Array(text)[16] != ":", let date = UTCTimestamp.parse(String(text.prefix(16)) + ":00" + text.dropFirst(16)) {
            return date.timeIntervalSince1970
        }
        if let seconds = LocalTime.seconds(parsing: text) { return seconds }
        throw UsageError(
            message:
                "'\(option)' needs YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (local, or with Z or ±HH:MM) or Unix seconds, not '\(UntrustedText.visible(text, limit: 40))'"
        )
    }

    /// `LAT,LON,RADIUS` of `--near`: a coordinate and a radius in metres.
    private static func near(_ text: String, for option: String) throws(UsageError) -> CircularRegion {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard numbers.count == 3 else {
            throw UsageError(
                message: "'\(option)' needs LAT,LON,RADIUS (such as 64.13,-21.9,500), not '\(UntrustedText.visible(text, limit: 80))'")
        }
        do {
            return try CircularRegion(
                name: "near", latitude: try NumericText.number(numbers[0], in: -90...90),
                longitude: try NumericText.number(numbers[1], in: -180...180),
                radius: try NumericText.number(numbers[2], in: 0...CircularRegion.maximumRadius, excludingZero: true))
        } catch {
            throw UsageError(message: "'\(option)': \(error) in '\(UntrustedText.visible(text, limit: 80))'")
        }
    }

    /// A record count: a whole number from 1 to a billion.
    private static func count(_ text: String, for option: String) throws(UsageError) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let number = Int(text), (1...1_000_000_000).contains(number)
        else {
            throw UsageError(
                message: "'\(option)' needs a whole number from 1 to 1000000000, not '\(UntrustedText.visible(text, limit: 40))'")
        }
        return number
    }
}
