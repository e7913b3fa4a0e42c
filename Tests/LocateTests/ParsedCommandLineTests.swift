import GPSLocation
import LocateSupport
import Testing

@testable import locate

struct ParsedCommandLineTests {
    private func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> ParsedCommandLine {
        try ParsedCommandLine(arguments: arguments, environment: EnvironmentVariables(environment))
    }

    /// The options of `locate --once` that `arguments` are.
    private func once(_ arguments: [String], environment: [String: String] = [:]) throws -> OnceOptions {
        guard case .once(let options) = try parse(arguments, environment: environment) else { throw Unexpected(arguments) }
        return options
    }

    /// The options of `locate --follow` that `arguments` are.
    private func follow(_ arguments: [String]) throws -> FollowOptions {
        guard case .follow(let options) = try parse(arguments) else { throw Unexpected(arguments) }
        return options
    }

    /// A command line that parsed as another command than the test expects.
    private struct Unexpected: Error {
        let arguments: [String]
        init(_ arguments: [String]) { self.arguments = arguments }
    }

    @Test func defaultsToOneFixFromLocalGpsdAsText() throws {
        let options = try once([])
        #expect(options.stream.endpoint == nil)
        #expect(options.timeout == nil)
        #expect(options.output.recordFormat() is TextFormat)
    }

    @Test func readsThePermissionCommands() throws {
        guard case .permission(let status) = try parse(["permission"]) else { throw Unexpected(["permission"]) }
        #expect(status.action == .status)
        let arguments = ["permission", "allow", "--always", "--reduced", "--app", "weather"]
        guard case .permission(let allow) = try parse(arguments) else { throw Unexpected(arguments) }
        #expect(allow.action == .allow)
        #expect(allow.always && allow.reduced && allow.app == "weather")
        guard case .status(let options) = try parse(["status", "--json"]) else { throw Unexpected(["status", "--json"]) }
        #expect(options.json)
        #expect(try once([], environment: ["LOCATE_APP": "run"]).stream.app == "run")
    }

    @Test func eachCommandHasItsOwnOptions() throws {
        guard case .publish(let broker, let publish) = try parse(["publish", "mqtt://localhost/a/b/c", "--qos", "2", "--retain"]) else {
            throw Unexpected(["publish"])
        }
        #expect(broker.topic == "a/b/c" && publish.qos == .exactlyOnce && publish.retain)
        guard case .history(let history) = try parse(["history", "--forget", "--before", "0"]) else { throw Unexpected(["history"]) }
        #expect(history.forget && history.before == 0)
        guard case .record(let record) = try parse(["record"]) else { throw Unexpected(["record"]) }
        #expect(record.app == "record", "record is an app of its own unless named")
        guard case .geocode(let query, let geocode) = try parse(["geocode", "37.5", "127", "--limit", "3"]) else {
            throw Unexpected(["geocode"])
        }
        #expect(query == .coordinate(latitude: 37.5, longitude: 127) && geocode.limit == 3)
        guard case .help(let command) = try parse(["monitor", "--help"]) else { throw Unexpected(["monitor", "--help"]) }
        #expect(command == "monitor")
    }

    @Test func shortOptionsBundleAndTakeAttachedValuesAsGetoptDoes() throws {
        for arguments in [["-fn2"], ["-f", "-n2"], ["-fn", "2"], ["-f", "-n=2"], ["-n2", "-f"]] {
            let options = try follow(arguments)
            #expect(options.stream.count == 2, "\(arguments)")
        }
        guard case .help = try parse(["-fVh"]) else { throw Unexpected(["-fVh"]) }
    }

    @Test func durationsTakeAUnitAndInfWhereWaitingWithoutEndMakesSense() throws {
        #expect(try once(["--timeout", "5s"]).timeout == .seconds(5))
        #expect(try once(["--timeout", "1.5m"]).timeout == .seconds(90))
        #expect(try once(["--timeout=2h"]).timeout == .seconds(7200))
        #expect(try once(["--timeout", "inf"]).timeout == NumericText.maximumDuration)
        #expect(try once(["--max-age", "inf"]).maxAge == NumericText.maximumDuration)
        #expect(try follow(["--follow", "--duration", "10m"]).stream.duration == .seconds(600))
        #expect(try follow(["--follow", "--interval", "0s"]).stream.interval == .zero)
    }

    @Test func readsFollowOptionsInBothSpellings() throws {
        let options = try follow([
            "--follow", "--count", "3", "--duration=2.5", "--distance", "10", "--interval=1", "--heartbeat", "30", "--json",
        ])
        #expect(options.stream.count == 3)
        #expect(options.stream.duration == .milliseconds(2500))
        #expect(options.stream.distance == 10)
        #expect(options.stream.interval == .seconds(1))
        #expect(options.stream.heartbeat == .seconds(30))
        #expect(options.output.isJSON)
    }

    @Test func takesTheEndpointFromArgumentThenOptionThenEnvironment() throws {
        #expect(try once([]).stream.endpoint == nil, "left to the settings")
        #expect(
            try once(["host:3000"], environment: ["LOCATE_GPSD": "env:1"]).stream.endpoint == (try GPSDEndpoint(host: "host", port: "3000"))
        )
        #expect(
            try once(["--gpsd", "opt:2"], environment: ["LOCATE_GPSD": "env:1"]).stream.endpoint
                == (try GPSDEndpoint(host: "opt", port: "2")))
        #expect(
            try once([], environment: ["LOCATE_GPSD": "env:1:/dev/gps"]).stream.endpoint
                == (try GPSDEndpoint(host: "env", port: "1", device: "/dev/gps")))
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--timeout"], "missing value for '--timeout'"),
        (["--timeout", "soon"], "'--timeout' needs a number above 0, not 'soon'"),
        (["--timeout", "0"], "'--timeout' needs a number above 0, not '0'"),
        (["--accuracy", "nan"], "'--accuracy' needs a number above 0, not 'nan'"),
        (["--follow", "--count", "0"], "'--count' needs a whole number from 1 to 1000000000, not '0'"),
        (
            ["--follow", "-n", "999999999999999999999999999999"],
            "'-n' needs a whole number from 1 to 1000000000, not '999999999999999999999999999999'"
        ),
        (["--follow", "--count", "+3"], "'--count' needs a whole number from 1 to 1000000000, not '+3'"),
        (["--timeout", "0.0004"], "'--timeout' needs a number of seconds of at least 0.001, not '0.0004'"),
        (["--max-age", "0.0004"], "'--max-age' needs 0 or a number of seconds of at least 0.001, not '0.0004'"),
        (["--follow", "--interval", "inf"], "'--interval' needs a number of 0 or more, not 'inf'"),
        (["--timeout", "5x"], "'--timeout' needs a number above 0, not '5x'"),
        (["--timeout", "0.000001m"], "'--timeout' needs a number of seconds of at least 0.001, not '0.000001m'"),
        (["--timeout", "h"], "'--timeout' needs a number above 0, not 'h'"),
        (["-fx"], "unknown option '-x'"),
        (["--timeout", "-1"], "'--timeout' needs a number above 0, not '-1'"),
        (["--timeout", "1e308"], "'--timeout' needs a number up to 1000000000, not '1e308'"),
        (["--timeout", "0x10"], "'--timeout' needs a number above 0, not '0x10'"),
        (["--follow", "--distance", "nan"], "'--distance' needs a number of 0 or more, not 'nan'"),
        (["--follow", "--heartbeat", "1,5"], "'--heartbeat' needs a number above 0, not '1,5'"),
        (["--count", "3"], "'--count' does not apply to --once"),
        (["--follow", "--timeout", "3"], "'--timeout' does not apply to --follow"),
        (["permission", "grant"], "unknown permission action 'grant' (expected status, allow, deny or reset)"),
        (["permission", "deny", "--always"], "'--always' does not apply to permission deny"),
        (["permission", "allow", "host:1"], "unexpected argument 'host:1'"),
        (["--json=yes"], "'--json' takes no value"),
        (["a:1", "b:2"], "unexpected argument 'b:2'"),
        (["a:1", "--gpsd", "b:2"], "give the gpsd endpoint either as an argument or with --gpsd, not both"),
        (["--json", "--csv"], "choose one output format, not --json and --csv"),
        (["--events"], "'--events' goes with --json"),
        (["--csv", "--null", "-"], "'--null' goes with --format"),
        (["--json", "--no-header"], "'--no-header' goes with --csv"),
        (
            ["--format", "%lat %town"],
            "unknown token '%town' in --format (valid: %lat %lon %alt %alt_hae %speed %course %h_acc %v_acc %time %epoch %mode %sats %source %age %device %reason %fix %hdop %vdop %pdop %heading %geoid_sep %integrity %city %state %country %country_code %timezone %place %%)"
        ),
        (["host:99999"], "invalid gpsd endpoint 'host:99999': port 99999 is not between 1 and 65535 (expected host[:port[:device]])"),
        (["--replay", "t.gpx", "--max-age", "5"], "'--max-age' and --replay: a recorded track's fixes have no age now"),
        (["--replay", "t.gpx", "localhost"], "unexpected argument 'localhost': a replay reads no gpsd"),
        (["--replay-speed", "2"], "'--replay-speed' goes with --replay"),
        (["monitor", "--region", "home=91,0,10"], "'--region': '91' is not a number from -90 to 90 in 'home=91,0,10'"),
        (
            ["monitor", "--region", "=1,2,3"],
            "'--region': '' is not a region name (1 to 64 characters, at most 256 bytes, a visible one among them, no control, formatting, invisible or blank filler character, at most 4 combining marks on a character)"
        ),
        (["monitor", "--until", "near:home"], "'--until' needs inside:NAME or outside:NAME, not 'near:home'"),
        (["visits", "--radius", "0"], "'--radius' needs a number above 0, not '0'"),
        (["visits", "--region", "a=1,2,3"], "'--region' does not apply to visits"),
        (["monitor", "--gpx"], "'--gpx' does not apply to monitor"),
        (
            ["monitor", "--format", "%city"],
            "unknown token '%city' in --format (valid: %region %event %state %time %lat %lon %h_acc %since %device %%)"
        ),
    ])
    func rejectsBadCommandLinesWithAClearMessage(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try parse(arguments) }
        do {
            _ = try parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }
}
