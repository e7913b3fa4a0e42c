import Foundation
import Testing

/// What a newcomer types first: typos of commands, `help`, per-command help and usage lines,
/// and coordinates as people write them.
struct NewcomerEndToEndTests {
    @Test(arguments: [
        (["statsu"], "did you mean 'status'"), (["follow"], "did you mean '--follow'"), (["help", "statsu"], "did you mean 'status'"),
        (["visit"], "did you mean 'visits'"), (["geocod", "Seoul"], "did you mean 'geocode'"),
        (["allow"], "did you mean 'permission allow'"), (["--folow"], "did you mean '--follow'"),
        (["--json", "help"], "did you mean 'help'"),
    ])
    func aWordNearACommandIsAUsageErrorNotAHost(arguments: [String], hint: String) async throws {
        let run = try await runLocate(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty, "no fallback coordinate, no lookup: \(run.stdout)")
        #expect(run.stderr.contains(hint), "\(run.stderr)")
        #expect(!run.stderr.contains("gpsd at"), "nothing was asked of gpsd: \(run.stderr)")
    }

    @Test func aHostThatCannotBeLookedUpSaysItWasTakenAsGpsdsHost() async throws {
        // .invalid never resolves (RFC 6761); the spelled-out port keeps the word from being a typo check.
        let run = try await runLocate(["--no-fallback", "no-such-host.invalid:2947"])
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("cannot look up no-such-host.invalid, taken as gpsd's host name"), "\(run.stderr)")
        // A word near a command name is still a host when given with --gpsd.
        let gpsd = try await runLocate(["--no-fallback", "--gpsd", "statsu.invalid"])
        #expect(gpsd.status == 69 && gpsd.stderr.contains("taken as gpsd's host name"), "\(gpsd.stderr)")
    }

    @Test func helpIsACommandAndEachCommandHasItsOwnHelp() async throws {
        let all = try await runLocate(["help"])
        let help = try await runLocate(["--help"])
        #expect(all.status == 0 && all.stdout == help.stdout)
        #expect(all.stdout.contains("EXIT STATUS:") && all.stdout.contains("  --region NAME=LAT,LON,RADIUS"))
        for arguments in [["geocode", "--help"], ["help", "geocode"]] {
            let geocode = try await runLocate(arguments)
            #expect(geocode.status == 0, "\(arguments)")
            #expect(geocode.stdout.contains("USAGE: locate geocode LAT LON") && geocode.stdout.contains("  --batch"), "\(arguments)")
            #expect(!geocode.stdout.contains("--follow") && !geocode.stdout.contains("--region"), "geocode's options only")
            #expect(geocode.stdout.split(separator: "\n").count < 40, "\(geocode.stdout)")
        }
        let monitor = try await runLocate(["monitor", "--help"])
        #expect(monitor.stdout.contains("--until STATE:NAME") && !monitor.stdout.contains("  --batch"))
    }

    @Test func aUsageErrorShowsThatCommandsUsage() async throws {
        let geocode = try await runLocate(["geocode", "--bogus"])
        #expect(geocode.status == 64)
        #expect(geocode.stderr.contains("Usage: locate geocode LAT LON") && !geocode.stderr.contains("--follow"), "\(geocode.stderr)")
        #expect(geocode.stderr.contains("See 'locate geocode --help'"))
        let permission = try await runLocate(["permission", "alow"])
        #expect(permission.status == 64)
        #expect(permission.stderr.contains("did you mean 'allow'") && permission.stderr.contains("Usage: locate permission ["))
        let plain = try await runLocate(["--count", "3"])
        #expect(plain.stderr.contains("Usage: locate [--once]") && !plain.stderr.contains("geocode"), "\(plain.stderr)")
    }

    @Test func geocodeTakesACoordinateAsPeopleWriteIt() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        for arguments in [["37.5178", "126.8863"], ["37.5178,126.8863"], ["37.5178 126.8863"], ["37.5178,", "126.8863"]] {
            let run = try await runLocate(["geocode", "--lang", "C"] + arguments, settings: settings)
            #expect(run.status == 0 && run.stdout == "Seoul, Republic of Korea\n", "\(arguments): \(run.stderr)")
        }
        for arguments in [["-33.8568,151.2153"], ["-33.8568 151.2153"]] {
            let run = try await runLocate(["geocode", "--lang", "C"] + arguments, settings: settings)
            #expect(run.stdout == "Sydney, New South Wales, Australia\n", "\(arguments): \(run.stderr)")
        }
        let bad = try await runLocate(["geocode", "91,0"], settings: settings)
        #expect(bad.status == 64 && bad.stderr.contains("not a coordinate"), "\(bad.stderr)")
    }
}

/// Exit statuses that say what happened: a grant the policy overrides, `status --timeout`, and
/// Ctrl-D at the prompt.
struct NewcomerStatusEndToEndTests {
    @Test func anAllowThePolicyOrTheSwitchOverridesIsNoSuccess() async throws {
        let restricted = try SettingsHome(policy: "[location]\nauthorization = restricted\n")
        let run = try await runLocate(["permission", "allow", "--always"], settings: restricted)
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("overrides this choice"), "\(run.stderr)")
        let off = try SettingsHome(user: "[location]\nservices = off\n")
        #expect(try await runLocate(["permission", "allow"], settings: off).status == 77)
        let reduced = try SettingsHome(policy: "[location]\naccuracy = reduced\n")
        #expect(try await runLocate(["permission", "allow"], settings: reduced).status == 77, "full accuracy was asked for")
        #expect(try await runLocate(["permission", "allow", "--reduced"], settings: reduced).status == 0)
        let free = try SettingsHome()
        let allowed = try await runLocate(["permission", "allow", "--always"], settings: free)
        #expect(allowed.status == 0 && !allowed.stderr.contains("overrides"), "\(allowed.stderr)")
    }

    @Test func aPermissionChangeKeepsTheInlineCommentOnItsLine() async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = denied   # until I trust it\naccuracy = full # precise\n")
        let run = try await runLocate(["permission", "allow", "--always"], settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            readWholeFile(settings.userFile.path)
                == "[location]\nauthorization = always   # until I trust it\naccuracy = full # precise\n")
    }

    @Test func statusWaitsForGpsdAsLongAsItsTimeoutSays() async throws {
        // A port that takes the connection and never says a word: status waits out its timeout.
        let silent = try ListeningPort()
        func elapsed(_ timeout: String) async throws -> Duration {
            let settings = try SettingsHome.allowingAlways()
            let started = ContinuousClock.now
            let run = try startLocate(["status", "--timeout", timeout, silent.endpoint], settings: settings)
            _ = try await run.waitForExit()
            #expect(run.stdout.text.contains("gpsd: \(silent.endpoint)\n"), "\(run.stdout.text) \(run.stderr.text)")
            // Until its output ended: a full run once resumed both waits together, 4.3 s on.
            return started.duration(to: try #require(run.stdout.endedAt))
        }
        async let long = elapsed("4")
        async let short = elapsed("0.2")
        let (longWait, shortWait) = try await (long, short)
        #expect(longWait >= .seconds(4), "longer than the default 3 s: \(longWait)")
        #expect(shortWait < longWait - .seconds(1), "\(shortWait)")
        let wrong = try await runLocate(["status", "--timeout", "soon"])
        #expect(wrong.status == 64 && wrong.stderr.contains("Usage: locate status"), "\(wrong.stderr)")
    }

    @Test func ctrlDAtThePromptDoesNotSendThePersonToATerminal() async throws {
        let settings = try SettingsHome()
        let run = try await runLocateOnTerminal(["--no-fallback", "127.0.0.1:1"], settings: settings, answer: "EOF")
        #expect(run.status == 77, "\(run.terminal)")
        #expect(run.terminal.contains("the prompt got no answer"), "\(run.terminal)")
        #expect(!run.terminal.contains("run locate in a terminal"), "\(run.terminal)")
    }
}

/// Inputs as people type them: gpspipe's bundled short options, durations with units, and the
/// keys of `geocode --json`.
struct NewcomerInputEndToEndTests {
    @Test func bundledShortOptionsAndDurationsWithUnitsRunAsSpelledOut() async throws {
        let track = Package.track("running").path
        let bundled = try await runLocate(["-fn2", "--replay", track, "--replay-speed", "0", "--duration", "1m"])
        let spelled = try await runLocate(["--follow", "--count", "2", "--replay", track, "--replay-speed", "0", "--duration", "60"])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stdout.split(separator: "\n").count == 2 && bundled.stdout == spelled.stdout)
        let forever = try await runLocate(["--timeout", "inf", "--replay", track])
        #expect(forever.status == 0 && !forever.stdout.isEmpty, "\(forever.stderr)")
        let unknown = try await runLocate(["-fz"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown option '-z'"), "\(unknown.stderr)")
    }

    @Test func geocodeJSONHasOneMeaningPerKey() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        let point = try jsonObject(
            try await runLocate(["geocode", "--json", "--lang", "C", "48.8584,2.2945"], settings: settings).stdout
                .trimmingCharacters(in: .newlines))
        #expect(point["lat"] as? Double == 48.8584 && point["lon"] as? Double == 2.2945, "the point asked about")
        #expect(point["place_lat"] as? Double == 48.85341 && point["place_lon"] as? Double == 2.3488, "Paris's own point")
        let batch = try await runShell(
            "echo 48.8584,2.2945 | '\(Package.locate.path)' geocode --batch --json --lang C", settings: settings)
        let record = try jsonObject(batch.stdout.trimmingCharacters(in: .newlines))
        #expect(record["lat"] as? Double == 48.8584, "--batch's lat is the input point too")
        let name = try jsonObject(
            String(try await runLocate(["geocode", "--json", "--limit", "1", "Paris"], settings: settings).stdout.prefix { $0 != "\n" }))
        #expect(name["lat"] == nil && name["place_lat"] is Double, "\(name)")
    }
}

/// The recipes for scripts of README and locate(1), run as written there (with the binary's path for `locate`).
struct NewcomerRecipeEndToEndTests {
    @Test func theOpeningExampleNeverTakesTheFallbackForAFix() async throws {
        let locate = "'\(Package.locate.path)'"
        let recipe = "read lat lon < <(\(locate) --no-fallback ENDPOINT) && echo \"it is $lat, $lon\""
        let receiver = try await GpsdServer(track: "weather")
        let live = try await runShell(recipe.replacing("ENDPOINT", with: receiver.endpoint), settings: .allowingAlways())
        #expect(live.stdout == "it is 64.150432, -21.940457\n", "\(live.stderr)")
        let denied = try SettingsHome(user: "[location]\nauthorization = denied\n")
        let refused = try await runShell(recipe.replacing("ENDPOINT", with: receiver.endpoint), settings: denied)
        #expect(refused.stdout.isEmpty && refused.status != 0, "no fallback taken for a fix: \(refused.stdout)")
        let branch = try await runShell("if pos=$(\(locate) 127.0.0.1:1); then echo fix $pos; else echo none $?; fi", settings: denied)
        #expect(branch.stdout == "none 77\n")
    }

    @Test func aVisitLogGetsItsHeaderOnce() async throws {
        let settings = try SettingsHome()
        let log = settings.root.appendingPathComponent("visits.csv").path
        let track = Package.track("commute").path
        let recipe =
            "cd '\(settings.root.path)' && '\(Package.locate.path)' visits --replay '\(track)' --replay-speed 0 --dwell 30 --csv $([ -s visits.csv ] && echo --no-header) >> visits.csv"
        for _ in 0..<2 {
            let run = try await runShell(recipe, settings: settings)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let lines = readWholeFile(log).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("type,") || $0.hasPrefix("event,") }.count == 1, "\(lines)")
        #expect(lines.count > 3 && lines.count % 2 == 1, "one header and the same visits twice: \(lines)")
    }
}

/// locate.conf(5)'s example settings are settings locate reads.
struct ManPageSettingsEndToEndTests {
    @Test func theManPagesSettingsExampleIsReadAsWritten() async throws {
        let lines = readWholeFile(Package.root.appendingPathComponent("Scripts/man/locate.conf.5").path).split(separator: "\n")
        let section = try #require(lines.firstIndex(of: ".SH SETTINGS"))
        let start = try #require(lines[section...].firstIndex { $0.hasPrefix("[location]") })
        let end = try #require(lines[start...].firstIndex(of: ".fi"))
        let example = lines[start..<end].map { $0.replacing("\\-", with: "-") }.joined(separator: "\n") + "\n"
        #expect(example.contains("[region \"home\"]") && example.contains("[app \"weather\"]"))
        let settings = try SettingsHome(user: example)
        let status = try await runLocate(["permission", "status", "--app", "weather"], settings: settings)
        #expect(status.status == 0 && status.stdout.hasPrefix("app \"weather\": always"), "\(status.stdout) \(status.stderr)")
        let monitor = try await runLocate(
            ["monitor", "--replay", Package.track("commute").path, "--replay-speed", "0", "--count", "1"], settings: settings)
        #expect(monitor.status == 0 && monitor.stdout.hasSuffix(" home\n"), "\(monitor.stdout) \(monitor.stderr)")
    }
}

/// locate(1)'s status-bar and track-logger recipes, run as written there: i3blocks itself, waybar's
/// `custom` module's command, and the systemd unit (checked by systemd-analyze, its command run
/// as systemd runs it: no terminal, stopped by SIGTERM).
struct BarAndServiceRecipeEndToEndTests {
    static let barApp = "[app \"bar\"]\nauthorization = always\naccuracy = reduced\n"

    @Test func i3blocksShowsThePlaceOrNoFix() async throws {
        let receiver = try await GpsdServer(track: "weather")
        for (user, shown) in [(Self.barApp, "\"full_text\":\"Reykjav"), ("", "\"full_text\":\"no fix\"")] {
            let settings = try await SettingsHome.withPlaceIndex(user: user)
            let config = settings.root.appendingPathComponent("i3blocks.conf")
            let command = "'\(Package.locate.path)' --app bar --no-fallback --format '%place' \(receiver.endpoint) || echo 'no fix'"
            try "[location]\ncommand=\(command)\ninterval=once\n".write(to: config, atomically: true, encoding: .utf8)
            let bar = try RunningProcess(URL(fileURLWithPath: "/usr/bin/i3blocks"), ["-c", config.path], environment: settings.environment)
            try await bar.stdout.wait(for: shown) { bar.stdout.text.contains(shown) }
            bar.signal(SIGTERM)
            _ = try await bar.waitForExit()
        }
    }

    @Test func waybarsCustomModuleGetsItsJSON() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try await SettingsHome.withPlaceIndex(user: Self.barApp)
        let exec = "'\(Package.locate.path)' --app bar --no-fallback --format %place \(receiver.endpoint) | jq -Rc '{text: .}'"
        let run = try await runShell(exec, settings: settings)
        let object = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
        #expect((object["text"] as? String)?.hasPrefix("Reykjav") == true, "\(run.stdout) \(run.stderr)")
    }

    @Test func theTrackLoggerUnitIsValidAndItsCommandLogsUntilStopped() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"tracker\"]\nauthorization = always\n")
        let arguments = ["--follow", "--json", "--distance", "10", "--app", "tracker", receiver.endpoint]
        let unit = settings.root.appendingPathComponent("track-logger.service")
        try """
        [Unit]
        Description=Log this machine's track
        [Service]
        ExecStart=\(Package.locate.path) \(arguments.joined(separator: " "))
        StandardOutput=append:%h/track.jsonl
        Restart=on-failure
        RestartSec=30
        [Install]
        WantedBy=default.target

        """.write(to: unit, atomically: true, encoding: .utf8)
        let verify = try await runShell("systemd-analyze verify '\(unit.path)'", settings: settings)
        #expect(verify.status == 0, "\(verify.stderr)")
        let logger = try startLocate(arguments, settings: settings)
        try await logger.stdout.wait(for: "two fixes") { logger.stdout.lines.count >= 2 }
        logger.signal(SIGTERM)
        #expect(try await logger.waitForExit() == 0, "systemctl stop is a normal end: \(logger.stderr.text)")
        #expect(try logger.stdout.lines.allSatisfy { try jsonObject($0)["type"] as? String == "fix" })
    }
}
