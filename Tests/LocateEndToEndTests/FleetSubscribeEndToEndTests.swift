import Foundation
import Testing

/// `locate monitor --subscribe`: a generated fleet (50 devices, 20 regions, Scripts/fleet/make-fleet)
/// published through a real mosquitto (and nats-server) by real `mosquitto_pub -l`
/// (Scripts/fleet/publish-fleet), the central monitor subscribed in a persistent session. Its
/// transitions must be those an independent reference computes, per device and in order, also
/// when it is killed midway (SIGKILL) and started again, and when two monitors share the fleet.
struct FleetSubscribeEndToEndTests {
    /// One generated fleet: its directory, the `--region` arguments, and each device's messages.
    private struct Fleet {
        let directory: String
        let regions: [String]
        /// Each region's name and centre.
        let centres: [(name: String, lat: Double, lon: Double)]
        /// Each device's positions, in its order: (lat, lon, time).
        let tracks: [String: [(lat: Double, lon: Double, time: Int)]]

        /// The events the reference finds for `device`'s messages from `start` on, its states
        /// unknown before: "REGION EVENT STATE TIME" (a fix is inside a region only at its centre,
        /// make-fleet's rule).
        func reference(_ device: String, from start: Int = 0) -> [String] {
            var states: [Bool]?
            var events: [String] = []
            for point in (tracks[device] ?? []).dropFirst(start) {
                let new = centres.map { $0.lat == point.lat && $0.lon == point.lon }
                for (index, centre) in centres.enumerated() {
                    let state = new[index] ? "inside" : "outside"
                    if states == nil {
                        events.append("\(centre.name) initial \(state) \(point.time)")
                    } else if states?[index] != new[index] {
                        events.append("\(centre.name) \(new[index] ? "enter" : "exit") \(state) \(point.time)")
                    }
                }
                states = new
            }
            return events
        }
    }

    private func fleet(in settings: SettingsHome) async throws -> Fleet {
        let directory = settings.root.appendingPathComponent("fleet").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = try await runShell(
            "\(Package.root.appendingPathComponent("Scripts/fleet/make-fleet").path) 50 20 8 31 \(directory)", settings: settings)
        #expect(made.status == 0, "\(made.stderr)")
        let regionLines = readWholeFile(directory + "/regions.txt").split(separator: "\n").map(String.init)
        let centres = regionLines.map { line in
            let parts = line.split(separator: "=")
            let numbers = parts[1].split(separator: ",").map { Double($0) ?? .nan }
            return (name: String(parts[0]), lat: numbers[0], lon: numbers[1])
        }
        var tracks: [String: [(lat: Double, lon: Double, time: Int)]] = [:]
        for line in readWholeFile(directory + "/mqtt.txt").split(separator: "\n") {
            let space = line.firstIndex(of: " ") ?? line.endIndex
            let device = String(line[..<space].split(separator: "/").last ?? "-")
            let record = try jsonObject(String(line[line.index(after: space)...]))
            tracks[device, default: []].append(
                (lat: record["lat"] as? Double ?? .nan, lon: record["lon"] as? Double ?? .nan, time: record["tst"] as? Int ?? -1))
        }
        return Fleet(directory: directory, regions: regionLines.flatMap { ["--region", $0] }, centres: centres, tracks: tracks)
    }

    /// A central monitor subscribed to `filter` in session `name`, once it has subscribed.
    private func monitor(
        _ url: String, name: String, fleet: Fleet, settings: SettingsHome, extra: [String] = []
    ) async throws -> RunningProcess {
        let monitor = try startLocate(
            ["monitor", "--subscribe", url, "--name", name, "--by", "topic", "--json"] + fleet.regions + extra, settings: settings)
        try await monitor.stderr.wait(for: "the subscription") {
            monitor.stderr.text.contains("subscribed to ") || !monitor.process.isRunning
        }
        return monitor
    }

    /// Publishes the fleet, or the first or second `half` of each device's messages (1 or 2).
    private func publish(_ fleet: Fleet, port: Int, parts: Int, half: Int? = nil, settings: SettingsHome) async throws {
        let run = try await runShell(
            "\(Package.root.appendingPathComponent("Scripts/fleet/publish-fleet").path) \(port) \(fleet.directory)/mqtt.txt \(parts)"
                + (half.map { " \($0)" } ?? ""),
            settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Each device's events in the monitors' outputs: "REGION EVENT STATE TIME", in order.
    private func events(_ outputs: [RunningProcess]) throws -> [String: [String]] { try events(outputs.map(\.stdout)) }

    private func events(_ outputs: [OutputCollector]) throws -> [String: [String]] {
        var byDevice: [String: [String]] = [:]
        for output in outputs {
            for line in output.lines {
                let record = try jsonObject(line)
                let device = String((record["device"] as? String ?? "-").split(separator: "/").last ?? "-")
                // A whole second, as the fixes' (anything else reads as -1); a format style, not a
                // formatter per line: tests wait on this, every 20 ms, over every line so far.
                let time = (record["time"] as? String).flatMap {
                    $0.hasSuffix(".000Z") ? try? Date(String($0.dropLast(5)) + "Z", strategy: .iso8601) : nil
                }
                let fields = [record["region"], record["event"], record["state"]].map { $0 as? String ?? "-" }
                byDevice[device, default: []].append((fields + [String(Int(time?.timeIntervalSince1970 ?? -1))]).joined(separator: " "))
            }
        }
        return byDevice
    }

    private func referenceCount(_ fleet: Fleet) -> Int { fleet.tracks.keys.reduce(0) { $0 + fleet.reference($1).count } }

    @Test(arguments: ["mosquitto", "nats-server"])
    func aSubscribedFleetGivesTheReferenceTransitions(server: String) async throws {
        let settings = try SettingsHome()
        let fleet = try await fleet(in: settings)
        let mosquitto = server == "mosquitto" ? try await MosquittoBroker(extra: "allow_anonymous true\nmax_queued_messages 0\n") : nil
        let nats = server == "nats-server" ? try await NATSBroker() : nil
        let port = mosquitto?.port ?? nats?.port ?? 0
        // The events are published back too (--publish), read by a real mosquitto_sub.
        let published = try await Subscription(port: port, "events/central")
        let central = try await monitor(
            "mqtt://127.0.0.1:\(port)/fleet/#", name: "central", fleet: fleet, settings: settings,
            extra: ["--publish", "mqtt://127.0.0.1:\(port)/events/central"])
        try await publish(fleet, port: port, parts: 1, settings: settings)
        let expected = referenceCount(fleet)
        try await central.stdout.wait(for: "every transition") { central.stdout.lines.count >= expected }
        try await published.process.stdout.wait(for: "every event published") { published.objects(on: "events/central").count >= expected }
        // The same records as printed, in the same order.
        #expect(published.messages.filter { $0.topic == "events/central" }.map(\.payload) == central.stdout.lines)
        let got = try events([central])
        for device in fleet.tracks.keys.sorted() { #expect(got[device] == fleet.reference(device), "\(device)") }
        #expect(got.count == 50 && expected > 1000)
        // Nothing of another device's position is kept on this machine.
        #expect(!FileManager.default.fileExists(atPath: settings.root.appendingPathComponent("cache").path))
        central.process.kill()
    }

    /// A monitor killed (SIGKILL) while it reads the fleet, or while its output is blocked (a
    /// reader that stopped: the message it is writing was read, and must not count as taken),
    /// then started again in the same session.
    @Test(arguments: [false, true])
    func aMonitorKilledMidwayAndStartedAgainLosesNone(outputBlocked: Bool) async throws {
        let settings = try SettingsHome()
        let fleet = try await fleet(in: settings)
        let broker = try await MosquittoBroker(extra: "allow_anonymous true\nmax_queued_messages 0\n")
        let url = "mqtt://127.0.0.1:\(broker.port)/fleet/#"
        // The session exists before anything is published (mosquitto_sub -E: subscribe, then leave).
        let session = try await runShell(
            "mosquitto_sub -p \(broker.port) -c -i locate-monitor-central -q 1 -t 'fleet/#' -E", settings: settings)
        #expect(session.status == 0, "\(session.stderr)")
        let expected = referenceCount(fleet)
        let firstOutput: OutputCollector
        if outputBlocked {
            let first = try SlowReader(
                ["monitor", "--subscribe", url, "--name", "central", "--by", "topic", "--json"] + fleet.regions, settings: settings)
            try await publish(fleet, port: broker.port, parts: 1, settings: settings)
            try await first.waitUntilFull(leavingAtMost: 400)
            first.process.signal(SIGKILL)
            firstOutput = first.reader()
        } else {
            // The first half of each device's messages, the monitor killed while it reads them
            // (or just after), then the second half, queued in the session while no monitor runs:
            // however fast the first run is, every device has messages left for the second.
            let first = try await monitor(url, name: "central", fleet: fleet, settings: settings)
            async let published: Void = publish(fleet, port: broker.port, parts: 1, half: 1, settings: settings)
            try await first.stdout.wait(for: "a sixth of the transitions") { first.stdout.lines.count >= expected / 6 }
            first.signal(SIGKILL)
            _ = try await first.waitForExit()
            try await published
            try await publish(fleet, port: broker.port, parts: 1, half: 2, settings: settings)
            firstOutput = first.stdout
        }
        try await firstOutput.wait(for: "the first run's end") { firstOutput.isEnded }
        let second = try await monitor(url, name: "central", fleet: fleet, settings: settings)
        let before = try events([firstOutput])
        // Each device: what the first run wrote is the reference's beginning, and the second run
        // goes on from the states the first one kept (no `initial` again): together they are the
        // reference. The second may begin with what the first wrote last (written, not yet kept
        // when it was killed), never with anything else, and nothing in between is lost.
        func together(_ early: [String], _ late: [String]) -> [String] {
            let overlap = (0...min(early.count, late.count)).last { Array(early.suffix($0)) == Array(late.prefix($0)) } ?? 0
            return early + late.dropFirst(overlap)
        }
        try await second.stdout.wait(for: "the rest") {
            let after = (try? events([second])) ?? [:]
            return fleet.tracks.keys.allSatisfy { together(before[$0] ?? [], after[$0] ?? []).count >= fleet.reference($0).count }
        }
        let after = try events([second])
        var resumed = 0
        for device in fleet.tracks.keys.sorted() {
            let whole = fleet.reference(device)
            let early = before[device] ?? []
            #expect(Array(whole.prefix(early.count)) == early, "\(device): the first run")
            guard let late = after[device] else {
                #expect(early == whole, "\(device): all in the first run")
                continue
            }
            if !early.isEmpty { resumed += 1 }
            #expect(together(early, late) == whole, "\(device): the second run goes on from the first's states\n\(early)\n\(late)")
        }
        #expect(resumed > 0 && !before.isEmpty)
        second.process.kill()
    }

    @Test func twoMonitorsOnAPartitionedLayoutGiveWhatOneGives() async throws {
        let settings = try SettingsHome()
        let fleet = try await fleet(in: settings)
        let broker = try await MosquittoBroker(extra: "allow_anonymous true\nmax_queued_messages 0\n")
        let monitors = [
            try await monitor("mqtt://127.0.0.1:\(broker.port)/fleet/0/#", name: "part0", fleet: fleet, settings: settings),
            try await monitor("mqtt://127.0.0.1:\(broker.port)/fleet/1/#", name: "part1", fleet: fleet, settings: settings),
        ]
        try await publish(fleet, port: broker.port, parts: 2, settings: settings)
        let expected = referenceCount(fleet)
        try await monitors[0].stdout.wait(for: "every transition") { monitors.reduce(0) { $0 + $1.stdout.lines.count } >= expected }
        let got = try events(monitors)
        for device in fleet.tracks.keys.sorted() { #expect(got[device] == fleet.reference(device), "\(device)") }
        // Each device on one monitor only, and each monitor has some.
        #expect(monitors.allSatisfy { !$0.stdout.lines.isEmpty })
        for monitor in monitors { monitor.process.kill() }
    }

    @Test func theBrokerAwayAndBackLosesNothing() async throws {
        let settings = try SettingsHome()
        let broker = try await MosquittoBroker()
        let central = try startLocate(
            [
                "monitor", "--subscribe", "mqtt://127.0.0.1:\(broker.port)/fleet/#", "--name", "c", "--by", "topic", "--region",
                "home=52.0,13.0,100",
            ],
            settings: settings)
        try await central.stderr.wait(for: "the subscription") { central.stderr.text.contains("subscribed to ") }
        func send(_ lat: Double, _ time: Int) async throws {
            #expect(
                try await runShell(
                    #"mosquitto_pub -p \#(broker.port) -q 1 -t fleet/a -m '{"_type":"location","lat":\#(lat),"lon":13.0,"tst":\#(time),"acc":5}'"#,
                    settings: settings
                ).status == 0)
        }
        try await send(52.0, 1_767_225_600)
        try await central.stdout.wait(for: "initial") { central.stdout.text.contains("initial inside") }
        try await broker.stop()
        try await central.stderr.wait(for: "the outage") { central.stderr.text.contains("trying again") }
        try await broker.start()
        try await central.stderr.wait(for: "subscribed again") { central.stderr.text.components(separatedBy: "subscribed to ").count > 2 }
        try await send(52.1, 1_767_225_601)
        try await central.stdout.wait(for: "exit") { central.stdout.text.contains("fleet/a exit outside") }
        #expect(central.process.isRunning)
        central.process.kill()
    }

    /// What comes while the monitor is away waits in its session, in MQTT 3.1.1 (clean session
    /// off) and 5 (session expiry: never).
    @Test(arguments: ["3.1.1", "5"])
    func whatComesWhileTheMonitorIsAwayWaitsForIt(version: String) async throws {
        let settings = try SettingsHome()
        let broker = try await MosquittoBroker()
        let arguments = [
            "monitor", "--subscribe", "mqtt://127.0.0.1:\(broker.port)/fleet/#", "--name", "away", "--by", "topic", "--mqtt-version",
            version,
            "--region", "home=52.0,13.0,100", "--count", "1",
        ]
        let first = try startLocate(arguments, settings: settings)
        try await first.stderr.wait(for: "the subscription") { first.stderr.text.contains("subscribed to ") }
        first.signal(SIGTERM)
        _ = try await first.waitForExit()
        let payload = #"{"_type":"location","lat":52.0,"lon":13.0,"tst":1767225600,"acc":5}"#
        #expect(try await runShell("mosquitto_pub -p \(broker.port) -q 1 -t fleet/a -m '\(payload)'", settings: settings).status == 0)
        let second = try startLocate(arguments, settings: settings)
        #expect(try await second.waitForExit() == 0, "\(second.stderr.text)")
        #expect(
            second.stdout.text.hasPrefix("fleet/a initial inside 52.000000 13.000000 2026-01-01T00:00:00.000Z home"),
            "\(second.stdout.text)")
    }

    @Test func visitsOfADeviceComeFromTheSubscriptionToo() async throws {
        let settings = try SettingsHome()
        let broker = try await MosquittoBroker()
        let visits = try startLocate(
            ["visits", "--subscribe", "mqtt://127.0.0.1:\(broker.port)/ot/#", "--name", "v", "--by", "tid", "--count", "1", "--json"],
            settings: settings)
        try await visits.stderr.wait(for: "the subscription") { visits.stderr.text.contains("subscribed to ") }
        // Ten minutes at one place (the default dwell is five), then away: an arrival of kim's.
        for (offset, lat) in [(0, 52.0), (200, 52.0), (400, 52.0), (600, 52.0), (1200, 52.1)] {
            let payload = #"{"_type":"location","lat":\#(lat),"lon":13.0,"tst":\#(1_767_225_600 + offset),"acc":5,"tid":"kim"}"#
            #expect(try await runShell("mosquitto_pub -p \(broker.port) -q 1 -t ot/kim -m '\(payload)'", settings: settings).status == 0)
        }
        #expect(try await visits.waitForExit() == 0, "\(visits.stderr.text)")
        let record = try jsonObject(visits.stdout.lines.first ?? "")
        #expect(record["event"] as? String == "arrival" && record["device"] as? String == "kim", "\(visits.stdout.text)")
    }

    @Test(arguments: [
        ["--subscribe", "mqtt://127.0.0.1:1/f/#", "--by", "topic"], ["--subscribe", "mqtt://127.0.0.1:1/f/#", "--name", "n"],
        ["--subscribe", "mqtt://127.0.0.1:1/f/#/x", "--name", "n", "--by", "topic"],
        ["--subscribe", "mqtt://127.0.0.1:1/f/a+", "--name", "n", "--by", "topic"],
        ["--subscribe", "mqtt://127.0.0.1:1/f/#", "--name", "n", "--by", "topic", "--replay", "-"],
        ["--publish", "mqtt://127.0.0.1:1/events", "--replay", "-"],
        ["--publish", "mqtt://127.0.0.1:1/events/#", "--by", "topic", "--replay", "-"],
    ])
    func subscribeMisuseIsAUsageError(arguments: [String]) async throws {
        let run = try await runShell(
            ([Package.locate.path, "monitor", "--region", "h=1,2,3"] + arguments).joined(separator: " ") + " < /dev/null",
            settings: try SettingsHome())
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
    }
}
