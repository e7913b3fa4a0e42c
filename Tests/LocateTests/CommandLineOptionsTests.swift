import GPSLocation
import LocateSupport
import Testing

@testable import locate

struct CommandLineOptionsTests {
    private func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> CommandLineOptions {
        try CommandLineOptions(arguments: arguments, environment: EnvironmentVariables(environment))
    }

    @Test func defaultsToOneFixFromLocalGpsdAsText() throws {
        let options = try parse([])
        #expect(options.mode == .once)
        #expect(options.endpoint == nil)
        #expect(options.timeout == nil)
        #expect(options.outputFormat is TextFormat)
        #expect(options.command == .locate)
    }

    @Test func readsThePermissionCommands() throws {
        #expect(try parse(["permission"]).command == .permission(.status))
        let allow = try parse(["permission", "allow", "--always", "--reduced", "--app", "weather"])
        #expect(allow.command == .permission(.allow))
        #expect(allow.always && allow.reduced && allow.app == "weather")
        #expect(try parse(["status", "--json"]).command == .status)
        #expect(try parse([], environment: ["LOCATE_APP": "run"]).app == "run")
    }

    @Test func shortOptionsBundleAndTakeAttachedValuesAsGetoptDoes() throws {
        for arguments in [["-fn2"], ["-f", "-n2"], ["-fn", "2"], ["-f", "-n=2"], ["-n2", "-f"]] {
            let options = try parse(arguments)
            #expect(options.mode == .follow && options.count == 2, "\(arguments)")
        }
        #expect(try parse(["-fVh"]).showHelp)
    }

    @Test func durationsTakeAUnitAndInfWhereWaitingWithoutEndMakesSense() throws {
        #expect(try parse(["--timeout", "5s"]).timeout == .seconds(5))
        #expect(try parse(["--timeout", "1.5m"]).timeout == .seconds(90))
        #expect(try parse(["--timeout=2h"]).timeout == .seconds(7200))
        #expect(try parse(["--timeout", "inf"]).timeout == NumericText.maximumDuration)
        #expect(try parse(["--max-age", "inf"]).maxAge == NumericText.maximumDuration)
        #expect(try parse(["--follow", "--duration", "10m"]).duration == .seconds(600))
        #expect(try parse(["--follow", "--interval", "0s"]).interval == .zero)
    }

    @Test func readsFollowOptionsInBothSpellings() throws {
        let options = try parse([
            "--follow", "--count", "3", "--duration=2.5", "--distance", "10", "--interval=1", "--heartbeat", "30", "--json",
        ])
        #expect(options.mode == .follow)
        #expect(options.count == 3)
        #expect(options.duration == .milliseconds(2500))
        #expect(options.distance == 10)
        #expect(options.interval == .seconds(1))
        #expect(options.heartbeat == .seconds(30))
        #expect(options.isJSON)
    }

    @Test func takesTheEndpointFromArgumentThenOptionThenEnvironment() throws {
        #expect(try parse([]).endpoint == nil, "left to the settings")
        #expect(try parse(["host:3000"], environment: ["LOCATE_GPSD": "env:1"]).endpoint == (try GPSDEndpoint(host: "host", port: "3000")))
        #expect(
            try parse(["--gpsd", "opt:2"], environment: ["LOCATE_GPSD": "env:1"]).endpoint == (try GPSDEndpoint(host: "opt", port: "2")))
        #expect(
            try parse([], environment: ["LOCATE_GPSD": "env:1:/dev/gps"]).endpoint
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
