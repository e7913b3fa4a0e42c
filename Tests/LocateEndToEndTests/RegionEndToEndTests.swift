import Foundation
import GPSLocation
import Testing

/// `locate monitor` and `locate visits`, against `--replay` (exact, receiver time as fast as
/// read) and against a real gpsd replaying the commute track through gpsfake.
///
/// The commute track (Scripts/make-tracks): 40 s at a depot A (jittering 2 m north and south),
/// 60 s north at 10 m/s, 40 s at a stop B 600 m north; one fix a second from 08:00:00.
struct RegionEndToEndTests {
    static let depot = (latitude: 64.13, longitude: -21.9)
    /// 600 m north of the depot.
    static let stop = (latitude: 64.13 + 600 / 111_132.0, longitude: -21.9)
    /// Around the middle of the walk, 300 m north of the depot: 100 m.
    static let middle = "mid=\(64.13 + 300 / 111_132.0),-21.9,100"

    private func records(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try jsonObject(String($0)) }
    }

    private func summary(_ record: [String: Any]) -> String {
        ["region", "event", "state"].compactMap { record[$0] as? String }.joined(separator: " ")
    }

    private func location(_ record: [String: Any]) -> Location? {
        guard let latitude = record["lat"] as? Double, let longitude = record["lon"] as? Double else { return nil }
        return try? Location(latitude: latitude, longitude: longitude, mode: .twoDimensional)
    }

    private var commute: String { Package.track("commute").path }

    // MARK: - Replay: exact

    @Test func aCrossingGivesInitialEnterAndExitInOrderWithTheDecidingFixes() async throws {
        let run = try await runLocate(["monitor", "--replay", commute, "--replay-speed", "0", "--json", "--region", Self.middle])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try records(run.stdout)
        #expect(events.map(summary) == ["mid initial outside", "mid enter inside", "mid exit outside"])
        // Replayed NMEA says HDOP 0.9: an accuracy of 0.9 m. The deciding fix is the first clearly
        // across: inside with its whole accuracy circle, and the fix a second before was not.
        let center = try Location(latitude: 64.13 + 300 / 111_132.0, longitude: -21.9, mode: nil)
        let track = try trackPoints("commute").map { try Location(latitude: $0.latitude, longitude: $0.longitude, mode: .twoDimensional) }
        let enter = try #require(location(events[1]))
        let exit = try #require(location(events[2]))
        let enterIndex = try #require(track.firstIndex { abs($0.latitude - enter.latitude) < 1e-6 })
        let exitIndex = try #require(track.firstIndex { abs($0.latitude - exit.latitude) < 1e-6 })
        #expect(enter.distance(from: center) + 0.9 <= 100 && track[enterIndex - 1].distance(from: center) + 0.9 > 100)
        #expect(exit.distance(from: center) - 0.9 >= 100 && track[exitIndex - 1].distance(from: center) - 0.9 < 100)
        #expect(
            events[1]["time"] as? String
                == "2026-01-01T08:\(String(format: "%02d", (enterIndex) / 60)):\(String(format: "%02d", enterIndex % 60)).000Z")
        #expect(events.allSatisfy { $0["h_acc"] as? Double == 0.9 })
    }

    @Test func untilExitsAtTheDecidingFixAndAtOnceWhenAlreadyThere() async throws {
        let stop = "stop=\(Self.stop.latitude),\(Self.stop.longitude),50"
        let arrive = try await runLocate([
            "monitor", "--replay", commute, "--replay-speed", "0", "--region", stop, "--until", "inside:stop",
        ])
        #expect(arrive.status == 0, "\(arrive.stderr)")
        let lines = arrive.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.last?.hasPrefix("enter inside ") == true && lines.last?.hasSuffix(" stop") == true)

        let depot = "depot=\(Self.depot.latitude),\(Self.depot.longitude),50"
        let already = try await runLocate(["monitor", "--replay", commute, "--region", depot, "--until", "inside:depot"])
        #expect(already.status == 0)
        #expect(already.stdout.hasPrefix("initial inside ") && already.stdout.split(separator: "\n").count == 1, "at once, at speed 1")

        let never = try await runLocate([
            "monitor", "--replay", commute, "--replay-speed", "0", "--region", depot, "--until", "outside:nowhere",
        ])
        #expect(never.status == 64 && never.stderr.contains("no region named 'nowhere'") && never.stdout.isEmpty)
        let notMet = try await runLocate([
            "monitor", "--replay", commute, "--replay-speed", "0", "--region", "far=0,0,1000", "--until", "inside:far",
        ])
        #expect(notMet.status == 75 && notMet.stderr.contains("was not inside by the end"))
    }

    @Test func regionsComeFromTheSettingsToo() async throws {
        let settings = try SettingsHome(
            user: """
                [location]
                authorization = always
                [region "depot"]
                center = \(Self.depot.latitude), \(Self.depot.longitude)
                radius = 50

                """)
        let run = try await runLocate(
            ["monitor", "--replay", commute, "--replay-speed", "0", "--json", "--region", Self.middle], settings: settings)
        #expect(run.status == 0)
        let events = try records(run.stdout).map(summary)
        #expect(events.prefix(2) == ["depot initial inside", "mid initial outside"], "the settings' regions first")
        #expect(events.contains("depot exit outside"))

        let broken = try SettingsHome(user: "[region \"depot\"]\ncenter = 64.13\nradius = 50\n")
        let refused = try await runLocate(["monitor", "--replay", commute, "--region", Self.middle], settings: broken)
        #expect(refused.status == 78 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("locate.conf:2:10: bad value '64.13' for 'center'"), "\(refused.stderr)")
        let none = try await runLocate(["monitor", "--replay", commute])
        #expect(none.status == 64 && none.stderr.contains("no region to monitor"))
    }

    @Test func visitsOnAStopGoStopTrackByTheReceiverClock() async throws {
        let run = try await runLocate(["visits", "--replay", commute, "--replay-speed", "0", "--json", "--dwell", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        let visits = try records(run.stdout)
        #expect(visits.map { $0["event"] as? String ?? "" } == ["arrival", "departure", "arrival"])
        #expect(visits[0]["arrival"] as? String == "2026-01-01T08:00:00.000Z" && visits[0]["departure"] is NSNull)
        #expect(visits[1]["arrival"] as? String == "2026-01-01T08:00:00.000Z")
        // The walk starts at 08:00:40: the last fix within 50 m (+0.9 m) is at 08:00:44.
        #expect(visits[1]["departure"] as? String == "2026-01-01T08:00:44.000Z")
        // The stop is reached at 08:01:40; the walk's last steps within 50 m of the stop's centre
        // (from 550 m north, 08:01:34) already belong to the stay.
        let arrival = try #require(visits[2]["arrival"] as? String)
        #expect(arrival >= "2026-01-01T08:01:34.000Z" && arrival <= "2026-01-01T08:01:40.000Z", "\(arrival)")
        let stop = try Location(latitude: Self.stop.latitude, longitude: Self.stop.longitude, mode: nil)
        #expect(try #require(location(visits[2])).distance(from: stop) < 10)
        let depot = try Location(latitude: Self.depot.latitude, longitude: Self.depot.longitude, mode: nil)
        #expect(try #require(location(visits[0])).distance(from: depot) < 1, "the centre of the jittering fixes")

        let short = try await runLocate(["visits", "--replay", commute, "--replay-speed", "0", "--dwell", "50"])
        #expect(short.status == 0 && short.stdout.isEmpty, "no stay lasts 50 s")
    }

    @Test func replayReadsGPXNMEAAndJSONLinesInOrderWithoutPermissionOrCache() async throws {
        // Denied: a replay needs no permission, and keeps nothing.
        let settings = try SettingsHome(user: "[location]\nauthorization = denied\n")
        let gpx = settings.root.appendingPathComponent("walk.gpx")
        try Data(
            """
            <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
            <trkpt lat="48.8584" lon="2.2945"><time>2026-01-01T08:00:00Z</time><hdop>2</hdop></trkpt>
            <trkpt lat="48.8586" lon="2.2950"><time>2026-01-01T08:00:01Z</time></trkpt>
            <trkpt lat="48.8590" lon="2.2955"><time>2026-01-01T08:00:02Z</time></trkpt>
            </trkseg></trk></gpx>
            """.utf8
        ).write(to: gpx)
        let jsonLines = settings.root.appendingPathComponent("walk.jsonl")
        try Data(
            """
            {"type":"fix","time":"2026-01-01T08:00:00.000Z","lat":1.5,"lon":2.5,"h_acc":3,"source":"gpsd"}
            {"type":"status","event":"no_fix","message":"no fix yet"}
            {"type":"fix","time":"2026-01-01T08:00:01.000Z","lat":1.6,"lon":2.6,"h_acc":30}

            """.utf8
        ).write(to: jsonLines)
        for (file, latitudes) in [(gpx.path, [48.8584, 48.8586, 48.859]), (jsonLines.path, [1.5, 1.6])] {
            let run = try await runLocate(["--follow", "--replay", file, "--replay-speed", "0", "--json"], settings: settings)
            #expect(run.status == 0, "\(file): \(run.stderr)")
            let fixes = try records(run.stdout)
            #expect(fixes.compactMap { $0["lat"] as? Double } == latitudes)
            #expect(fixes.allSatisfy { $0["source"] as? String == "replay" && $0["age"] is NSNull })
        }
        let nmea = try await runLocate(
            ["--follow", "--replay", commute, "--replay-speed", "0", "--csv", "--no-header"], settings: settings)
        #expect(nmea.status == 0 && nmea.stdout.split(separator: "\n").count == 140)
        let once = try await runLocate(["--once", "--replay", jsonLines.path, "--accuracy", "10"], settings: settings)
        #expect(once.status == 0 && once.stdout == "1.500000 2.500000\n")
        let accurate = try await runLocate(
            ["--follow", "--replay", jsonLines.path, "--replay-speed", "0", "--accuracy", "10"], settings: settings)
        #expect(accurate.stdout == "1.500000 2.500000\n", "--accuracy drops the 30 m fix")
        let piped = try await runShell(
            "head -1 '\(jsonLines.path)' | '\(Package.locate.path)' --follow --replay - --replay-speed 0", settings: settings)
        #expect(piped.status == 0 && piped.stdout == "1.500000 2.500000\n", "\(piped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: settings.cacheFile.path), "a replay is never cached")

        let bad = settings.root.appendingPathComponent("bad.gpx")
        try Data("<gpx>\n<trkpt lat=\"95\" lon=\"0\"/>\n</gpx>\n".utf8).write(to: bad)
        let refused = try await runLocate(["--follow", "--replay", bad.path], settings: settings)
        #expect(refused.status == 65 && refused.stdout.isEmpty)
        #expect(refused.stderr == "locate: \(bad.path):2: a <trkpt> needs lat and lon in range\n")
        let missing = try await runLocate(["--once", "--replay", "/nonexistent.gpx"], settings: settings)
        #expect(missing.status == 65 && missing.stderr == "locate: /nonexistent.gpx: no such file\n")
    }

    @Test func aTrackThatCannotEndIsRefusedAtOnce() async throws {
        let settings = try SettingsHome.allowingAlways()
        // A FIFO nobody writes would block a read for ever: only regular files are read.
        let fifo = settings.root.appendingPathComponent("track.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let piped = try await runLocate(["--follow", "--replay", fifo.path], settings: settings, timeout: 10)
        #expect(piped.status == 65 && piped.stdout.isEmpty)
        #expect(piped.stderr == "locate: \(fifo.path): is not a regular file (a FIFO)\n", "\(piped.stderr)")
        // A terminal on stdin for --replay -: a stream holds its signals until it starts.
        let terminal = try await runLocateOnTerminal(["--follow", "--replay", "-"], settings: settings)
        #expect(terminal.status == 65 && terminal.stdout.isEmpty)
        #expect(terminal.terminal.contains("standard input: is a terminal"), "\(terminal.terminal)")
    }

    @Test func aStationaryReceiverIsReportedStationary() async throws {
        let run = try await runLocate(["--follow", "--replay", Package.track("weather").path, "--replay-speed", "0", "--json", "--events"])
        #expect(run.status == 0)
        let events = try records(run.stdout).filter { $0["type"] as? String == "status" }.compactMap { $0["event"] as? String }
        #expect(events == ["stationary"], "60 s of receiver time without moving")
    }

    // MARK: - gpsd

    @Test func againstGpsdEventsAlternateAndEachIsDecidedClearly() async throws {
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        let run = try await runLocate(["monitor", "--json", "--region", Self.middle, "--count", "4", receiver.endpoint])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try records(run.stdout)
        #expect(events.count == 4 && events.first?["event"] as? String == "initial")
        let center = try Location(latitude: 64.13 + 300 / 111_132.0, longitude: -21.9, mode: nil)
        for (earlier, later) in zip(events.dropFirst(), events.dropFirst(2)) {
            #expect(earlier["event"] as? String != later["event"] as? String, "enter and exit alternate")
        }
        for event in events.dropFirst() {
            let fix = try #require(location(event))
            let accuracy = try #require(event["h_acc"] as? Double)
            let distance = fix.distance(from: center)
            if event["event"] as? String == "enter" {
                #expect(distance + accuracy <= 100)
            } else {
                #expect(distance - accuracy >= 100)
            }
        }
    }

    @Test func aReceiverJitteringAcrossTheBoundaryDoesNotFlap() async throws {
        // The depot's fixes are 48 and 52 m from this centre, with gpsd's accuracy of 17 m.
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        let edge = "edge=\(64.13 - 50 / 111_132.0),-21.9,50"
        let run = try await runLocate(["monitor", "--json", "--region", edge, "--duration", "10", receiver.endpoint])
        #expect(run.status == 0)
        let events = try records(run.stdout)
        // In 10 s the 7 s loop passes the depot's 40 jittering fixes at least once: each would
        // flip a naive inside test; only the walk away decides anything (one exit at most).
        #expect(events.count <= 2, "\(events.map(summary))")
        #expect(events.filter { $0["event"] as? String == "enter" }.isEmpty)
    }

    @Test func untilInsideAgainstGpsd() async throws {
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        let stop = "stop=\(Self.stop.latitude),\(Self.stop.longitude),60"
        let run = try await runLocate(["monitor", "--region", stop, "--until", "inside:stop", receiver.endpoint])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").last?.contains(" inside ") == true)
    }

    @Test(arguments: [
        ("[location]\nauthorization = denied\n", "denied"), ("", "has not been given"),
        ("[location]\nauthorization = always\naccuracy = reduced\n", "precise location"),
    ])
    func withoutPreciseAuthorizationThereIsNoEventAnd77(_ user: String, _ why: String) async throws {
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        for command in [["monitor", "--region", Self.middle], ["visits"]] {
            let settings = try SettingsHome(user: user)
            let run = try await runLocate(command + ["--json", receiver.endpoint], settings: settings)
            #expect(run.status == 77, "\(command[0]): \(run.stderr)")
            #expect(run.stdout.isEmpty, "no event, no fallback")
            #expect(run.stderr.contains(why), "\(run.stderr)")
            // Nothing of the commute's position (64.13 N, 21.9 W, and the walk north of it) either.
            #expect(!run.stderr.contains("64.1") && !run.stderr.contains("21.9"), "\(run.stderr)")
        }
    }

    @Test func visitsAgainstGpsdAreDatedByTheReceiverClock() async throws {
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        let run = try await runLocate(["visits", "--json", "--dwell", "20", "--count", "1", receiver.endpoint])
        #expect(run.status == 0, "\(run.stderr)")
        let visit = try #require(try records(run.stdout).first)
        #expect(visit["event"] as? String == "arrival" && visit["departure"] is NSNull)
        // The replay loops a track dated 08:00:00 to 08:02:19: an arrival is one of its seconds.
        let arrival = try #require(visit["arrival"] as? String)
        #expect(arrival.hasPrefix("2026-01-01T08:0") && arrival.hasSuffix(".000Z"), "\(arrival)")
        let centre = try #require(location(visit))
        let depot = try Location(latitude: Self.depot.latitude, longitude: Self.depot.longitude, mode: nil)
        let stop = try Location(latitude: Self.stop.latitude, longitude: Self.stop.longitude, mode: nil)
        // The centre is the mean of the stay's fixes, which may begin with the walk's last steps
        // within 50 m of the stop (more of them when a loaded machine paces the replay unevenly).
        #expect(min(centre.distance(from: depot), centre.distance(from: stop)) < 30, "at one of the two stops")
    }

    @Test func switchingPreciseLocationOffIsAnEventAndTheFixesThatFollowAreReduced() async throws {
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["--follow", "--json", "--events", receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "a first fix") { run.stdout.lines.contains { $0.contains("\"source\":\"gpsd\"") } }
        try settings.write("[location]\nauthorization = always\naccuracy = reduced\n", to: settings.userFile)
        try await run.stdout.wait(for: "the accuracy change and a fix after it") {
            guard let index = run.stdout.lines.firstIndex(where: { $0.contains("\"event\":\"accuracy_changed\"") }) else { return false }
            return run.stdout.lines[(index + 1)...].contains { $0.contains("\"type\":\"fix\"") }
        }
        run.signal(SIGTERM)
        #expect(try await run.waitForExit() == 0)
        let lines = run.stdout.lines
        let change = try #require(lines.firstIndex { $0.contains("\"event\":\"accuracy_changed\"") })
        #expect(lines[change].contains("\"accuracy\":\"reduced\""))
        #expect(lines[(change + 1)...].filter { $0.contains("\"type\":\"fix\"") }.allSatisfy { $0.contains("\"accuracy\":\"reduced\"") })
    }

    @Test func aRevokeMidMonitorEndsIt() async throws {
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["monitor", "--json", "--region", Self.middle, receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "the initial event") { !run.stdout.lines.isEmpty }
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        #expect(try await run.waitForExit(timeout: 10) == 77)
        #expect(run.stderr.text.contains("region monitoring ends"))
        #expect(run.stdout.text.hasSuffix("\n"))
    }

    // MARK: - How a monitor without a position ends

    /// monitor and visits end as --follow does when they saw no position: 75 when gpsd answered
    /// without a fix, 69 when it closed every connection (as a gpsd serving as many clients as
    /// it takes does); never 0 after nothing.
    @Test(arguments: [("nofix", 75), ("hangup", 69)])
    func aStreamWithoutAPositionIsNoSuccess(gpsd kind: String, status: Int32) async throws {
        let gpsd = kind == "nofix" ? try await GpsdServer(track: "nofix", wait: "report") : try await GpsdServer(misbehaving: kind)
        for command in [["monitor", "--region", "a=64.13,-21.9,100"], ["visits"]] {
            let run = try await runLocate(command + ["--duration", "3", gpsd.endpoint])
            #expect(run.status == status, "\(command[0]) against \(kind): \(run.status) \(run.stderr)")
            #expect(run.stdout.isEmpty, "an event is a position: nothing stands in for one")
            #expect(run.stderr.contains(kind == "nofix" ? "no fix from gpsd" : "closed the connection"), "\(run.stderr)")
        }
    }

    /// A when-in-use monitor in the background of its terminal all its life was never
    /// authorized: 77 when its --duration ends, never 0.
    @Test func aMonitorPausedAllItsLifeIsNotAuthorized() async throws {
        let receiver = try await GpsdServer(track: "commute")
        let settings = try SettingsHome(user: "[location]\nauthorization = when-in-use\n")
        let statusFile = settings.root.appendingPathComponent("status").path
        let errors = settings.root.appendingPathComponent("errors").path
        let script = """
            '\(Package.locate.path)' monitor --region 'depot=64.13,-21.9,50' --duration 2 '\(receiver.endpoint)' > /dev/null 2> '\(errors)' &
            wait $!
            echo $? > '\(statusFile)'
            """
        let run = try RunningProcess(
            Package.root.appendingPathComponent("Scripts/with-terminal"), ["--", "/bin/bash", "-m", "-c", script],
            environment: settings.environment)
        _ = try await run.waitForExit(timeout: 30)
        let messages = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(try String(contentsOfFile: statusFile, encoding: .utf8) == "77\n", "\(messages)")
        #expect(messages.contains("paused"))
    }

    /// Ten thousand `[region]` sections are read in linear time (the old reader took close to a
    /// minute in a debug build), and a monitor of all of them runs.
    @Test func tenThousandRegionsInTheSettings() async throws {
        var text = "[location]\nauthorization = always\n"
        for index in 0..<10_000 { text += "[region \"r\(index)\"]\ncenter = 64.13, \(-21.9 + Double(index % 100) / 1000)\nradius = 100\n" }
        let settings = try SettingsHome(user: text)
        let once = try await runLocate(["--replay", commute], settings: settings, timeout: 10)
        #expect(once.status == 0, "\(once.stderr)")
        let monitor = try await runLocate(
            ["monitor", "--replay", commute, "--replay-speed", "0", "--count", "10000"], settings: settings, timeout: 20)
        #expect(monitor.status == 0, "\(monitor.stderr)")
        #expect(monitor.stdout.split(separator: "\n").count == 10_000, "every region's initial event")
    }
}
