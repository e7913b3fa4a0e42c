import Foundation
import Synchronization
import Testing

/// A mosquitto for one test, on a free loopback port, with its own config and directory;
/// `stop()` and `start()` again on the same port play an outage.
final class MosquittoBroker: Sendable {
    let port: Int
    let directory: URL
    private let running = Mutex<RunningProcess?>(nil)

    /// - Parameter extra: lines for the listener (a password file, TLS), after `listener PORT 127.0.0.1`.
    /// - Parameter port: the port to listen on (one a client already tries), or a free one.
    init(port: Int? = nil, extra: String = "allow_anonymous true\n") async throws {
        self.port = try port ?? freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // As root, mosquitto would drop to the user mosquitto, who cannot read the test's files.
        let user = getuid() == 0 ? "user root\n" : ""
        // Persistence, so that a persistent subscriber's session outlives a restart (SIGTERM writes it).
        let persistence = "persistence true\npersistence_location \(directory.path)/\n"
        try Data("\(user)\(persistence)per_listener_settings true\nlistener \(self.port) 127.0.0.1\n\(extra)".utf8).write(
            to: directory.appendingPathComponent("mosquitto.conf"))
        try await start()
    }

    /// Starts the broker and returns once it listens.
    func start() async throws {
        let broker = try RunningProcess(
            URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", directory.appendingPathComponent("mosquitto.conf").path])
        running.withLock { $0 = broker }
        try await broker.stderr.wait(for: "mosquitto listening") { broker.stderr.text.contains(" running") || !broker.process.isRunning }
        guard broker.process.isRunning else { throw HarnessError(description: "mosquitto: \(broker.stderr.text)") }
    }

    /// Stops the broker (SIGTERM: it saves its sessions) and waits until it is gone.
    func stop() async throws {
        guard let broker = running.withLock({ $0 }) else { return }
        broker.signal(SIGTERM)
        _ = try await broker.waitForExit(timeout: 10)
    }

    /// Sends `number` to the broker (SIGSTOP and SIGCONT play a broker that stalls).
    func signal(_ number: Int32) {
        running.withLock { $0?.signal(number) }
    }

    var url: String { "mqtt://127.0.0.1:\(port)" }

    /// What the broker logged so far (its connections among it).
    var log: String { running.withLock { $0?.stderr.text } ?? "" }

    deinit {
        running.withLock { $0?.process.kill() }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A nats-server for one test, its MQTT on a free loopback port (MQTT needs JetStream and a name).
final class NATSBroker: Sendable {
    let port: Int
    let directory: URL
    private let server: RunningProcess

    init() async throws {
        port = try freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-nats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("nats.conf")
        try Data(
            """
            server_name: locate_test
            listen: 127.0.0.1:\(try freePort())
            jetstream { store_dir: "\(directory.path)/js" }
            mqtt { host: 127.0.0.1, port: \(port) }

            """.utf8
        ).write(to: config)
        server = try RunningProcess(URL(fileURLWithPath: "/usr/sbin/nats-server"), ["-c", config.path])
        try await server.stderr.wait(for: "nats-server's MQTT") {
            server.stderr.text.contains("Listening for MQTT clients") || !server.process.isRunning
        }
        guard server.process.isRunning else { throw HarnessError(description: "nats-server: \(server.stderr.text)") }
    }

    deinit {
        server.process.kill()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A real `mosquitto_sub` on `filter`, printing `RETAIN TOPIC PAYLOAD` lines as they come.
final class Subscription: Sendable {
    let process: RunningProcess

    convenience init(_ broker: MosquittoBroker, _ filter: String = "#", extra: [String] = []) async throws {
        try await self.init(port: broker.port, filter, extra: extra)
    }

    init(port: Int, _ filter: String = "#", extra: [String] = []) async throws {
        process = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/stdbuf"),
            [
                "-oL", "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-t", filter, "-q", "1", "-d", "-F",
                "%r %t %p",
            ]
                + extra)
        try await process.stdout.wait(for: "the subscription") { process.stdout.text.contains("SUBACK") }
    }

    /// The messages so far (debug lines left out).
    var messages: [(retained: Bool, topic: String, payload: String)] {
        process.stdout.lines.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0] == "0" || parts[0] == "1", !line.hasPrefix("Client ") else { return nil }
            return (parts[0] == "1", String(parts[1]), parts.count > 2 ? String(parts[2]) : "")
        }
    }

    /// The JSON payloads on `topic`.
    func objects(on topic: String) -> [[String: Any]] {
        messages.filter { $0.topic == topic }.compactMap { try? jsonObject($0.payload) }
    }

    deinit {
        process.process.kill()
    }
}

/// `locate publish` against a real mosquitto, read by a real mosquitto_sub.
struct PublishEndToEndTests {
    @Test(arguments: ["0", "1", "2"])
    func ownTracksLocationsOfAReplayArriveFieldByField(qos: String) async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "owntracks/#")
        let run = try await runLocate(
            [
                "publish", "\(broker.url)/owntracks/test/van", "--as", "owntracks", "--qos", qos, "--replay",
                Package.track("commute").path, "--replay-speed", "0", "--count", "10",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "10 locations and the lwt") {
            subscriber.objects(on: "owntracks/test/van").count >= 11
        }
        let objects = subscriber.objects(on: "owntracks/test/van")
        let locations = objects.filter { $0["_type"] as? String == "location" }
        #expect(locations.count == 10)
        let points = try trackPoints("commute")
        for (index, location) in locations.enumerated() {
            let latitude = try #require(location["lat"] as? Double)
            let longitude = try #require(location["lon"] as? Double)
            #expect(abs(latitude - points[index].latitude) < 1e-6 && abs(longitude - points[index].longitude) < 1e-6)
            // OwnTracks' types: tst, acc, alt, created_at whole numbers; tid two characters.
            #expect(location["tst"] is Int && location["created_at"] is Int && location["tid"] as? String == "an")
            #expect(location["acc"].map { $0 is Int } ?? true)
        }
        let times = locations.compactMap { $0["tst"] as? Int }
        #expect(times == times.sorted() && Set(times).count == 10, "\(times)")
        // The track is of 2026-01-01: the fixes' own times, not the time of publishing.
        #expect(times.first.map { (1_767_225_600..<1_767_312_000).contains($0) } == true)
        // A clean end says the device went away, on the location topic and not retained (as OwnTracks' apps do).
        let last = try #require(subscriber.messages.last)
        #expect(last.topic == "owntracks/test/van" && !last.retained && last.payload.contains("\"_type\":\"lwt\""))
    }

    /// OwnTracks' tracker id comes from the last level of the topic (its device), letters and
    /// digits only, never a `/` of a deeper topic.
    @Test(arguments: [("owntracks/test/fleet/v", "v"), ("owntracks/test/my-van-7", "n7")])
    func ownTracksTrackerIDIsTheDevicesLastTwoLettersOrDigits(topic: String, expected: String) async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "owntracks/#")
        let run = try await runLocate(
            [
                "publish", "\(broker.url)/\(topic)", "--as", "owntracks", "--replay", Package.track("commute").path, "--replay-speed", "0",
                "--count", "1",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "the location") {
            subscriber.objects(on: topic).contains { $0["_type"] as? String == "location" }
        }
        #expect(subscriber.objects(on: topic).first { $0["_type"] as? String == "location" }?["tid"] as? String == expected)
    }

    @Test func natsServerTakesTheSameRecords() async throws {
        let broker = try await NATSBroker()
        let subscriber = try await Subscription(port: broker.port, "owntracks/#")
        let run = try await runLocate(
            [
                "publish", "mqtt://127.0.0.1:\(broker.port)/owntracks/test/van", "--as", "owntracks", "--replay",
                Package.track("commute").path, "--replay-speed", "0", "--count", "5",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "5 locations") {
            subscriber.objects(on: "owntracks/test/van").filter { $0["_type"] as? String == "location" }.count == 5
        }
    }

    /// The region on the command line, or in the settings (`[region "home"]`), as `monitor` takes them.
    @Test(arguments: [false, true])
    func ownTracksTransitionsForRegions(inSettings: Bool) async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "owntracks/#")
        let points = try trackPoints("commute")
        // A region around the start of the track, small enough that the commute leaves it.
        let start = points[0]
        let settings = try SettingsHome(
            user: "[location]\nauthorization = always\n"
                + (inSettings ? "[region \"home\"]\ncenter = \(start.latitude),\(start.longitude)\nradius = 30\n" : ""))
        let run = try await runLocate(
            [
                "publish", "\(broker.url)/owntracks/test/van", "--as", "owntracks", "--replay", Package.track("commute").path,
                "--replay-speed", "0",
            ] + (inSettings ? [] : ["--region", "home=\(start.latitude),\(start.longitude),30"]), settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "a transition") { !subscriber.objects(on: "owntracks/test/van/event").isEmpty }
        let transition = try #require(subscriber.objects(on: "owntracks/test/van/event").first)
        #expect(transition["_type"] as? String == "transition" && transition["event"] as? String == "leave")
        #expect(transition["desc"] as? String == "home" && transition["wtst"] is Int && transition["tst"] is Int)
        // The region's wtst is its definition's, the same in every run (OwnTracks tells regions apart by it).
        let again = try await runLocate(
            [
                "publish", "\(broker.url)/owntracks/test/van", "--as", "owntracks", "--replay", Package.track("commute").path,
                "--replay-speed", "0",
            ] + (inSettings ? [] : ["--region", "home=\(start.latitude),\(start.longitude),30"]), settings: settings)
        #expect(again.status == 0, "\(again.stderr)")
        try await subscriber.process.stdout.wait(for: "a second transition") {
            subscriber.objects(on: "owntracks/test/van/event").count >= 2
        }
        let second = subscriber.objects(on: "owntracks/test/van/event")[1]
        #expect(second["wtst"] as? Int == transition["wtst"] as? Int, "\(second) \(transition)")
        #expect(transition["lat"] is Double && transition["lon"] is Double && transition["acc"] is Int)
    }

    @Test func homeAssistantDiscoveryAttributesAndAvailability() async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker)
        let publisher = try startLocate(
            [
                "publish", "\(broker.url)/locate/van", "--as", "homeassistant", "--retain", "--replay", Package.track("commute").path,
                "--replay-speed", "5",
            ], settings: try SettingsHome.allowingAlways())
        do {
            try await subscriber.process.stdout.wait(for: "3 attributes") { subscriber.objects(on: "locate/van/attributes").count >= 3 }
        } catch {
            // None came once, in a full run: what did locate say?
            throw HarnessError(description: "\(error)\nlocate publish said: \(publisher.stderr.text)")
        }
        let config = try #require(subscriber.objects(on: "homeassistant/device_tracker/locate_locate_van/config").first)
        #expect(config["json_attributes_topic"] as? String == "locate/van/attributes")
        #expect(config["availability_topic"] as? String == "locate/van/availability")
        #expect(config["source_type"] as? String == "gps" && config["unique_id"] as? String == "locate_locate_van_gps")
        // object_id for Home Assistant before 2025.10 (2024.3 reads only that), default_entity_id for
        // the later ones: the same entity id either way.
        #expect(config["default_entity_id"] as? String == "device_tracker.locate_locate_van", "\(config)")
        #expect(config["object_id"] as? String == "locate_locate_van", "\(config)")
        #expect((config["device"] as? [String: Any])?["identifiers"] as? [String] == ["locate_locate_van"])
        let attributes = try #require(subscriber.objects(on: "locate/van/attributes").first)
        // HA needs latitude and longitude as numbers, gps_accuracy a number.
        #expect(attributes["latitude"] is Double && attributes["longitude"] is Double && attributes["gps_accuracy"] is Double)
        #expect(subscriber.messages.contains { $0.topic == "locate/van/availability" && $0.payload == "online" })
        // SIGTERM: a clean end, with offline on the availability topic.
        publisher.signal(SIGTERM)
        #expect(try await publisher.waitForExit() == 0, "\(publisher.stderr.text)")
        try await subscriber.process.stdout.wait(for: "offline") {
            subscriber.messages.last.map { $0.topic == "locate/van/availability" && $0.payload == "offline" } == true
        }
        // Retained, for a Home Assistant that starts later: the config, the last position, offline.
        let later = try await Subscription(broker)
        try await later.process.stdout.wait(for: "the retained messages") { later.messages.count >= 3 }
        #expect(later.messages.allSatisfy { $0.retained })
        #expect(
            Set(later.messages.map { $0.topic }) == [
                "homeassistant/device_tracker/locate_locate_van/config", "locate/van/attributes", "locate/van/availability",
            ])
        #expect(later.messages.first { $0.topic == "locate/van/availability" }?.payload == "offline")
    }

    /// Two topics that differ only where one has `/` and the other `_` are two devices in Home
    /// Assistant, never one discovery config overwriting the other.
    @Test func homeAssistantDiscoveryTopicsOfDifferentTopicsDiffer() async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "homeassistant/#")
        for topic in ["fleet/my_van", "fleet_my/van"] {
            let run = try await runLocate(
                [
                    "publish", "\(broker.url)/\(topic)", "--as", "homeassistant", "--replay", Package.track("commute").path,
                    "--replay-speed",
                    "0", "--count", "1",
                ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        try await subscriber.process.stdout.wait(for: "two configs") { subscriber.messages.count >= 2 }
        let configs = Set(subscriber.messages.map(\.topic))
        #expect(configs.count == 2, "\(configs)")
        let ids = Set(subscriber.messages.compactMap { (try? jsonObject($0.payload))?["unique_id"] as? String })
        #expect(ids.count == 2, "\(ids)")
    }

    @Test func reducedAccuracyPublishesTheCell() async throws {
        let broker = try await MosquittoBroker()
        let receiver = try await GpsdServer(track: "running")
        let subscriber = try await Subscription(broker, "owntracks/#")
        let settings = try SettingsHome(user: "[location]\nauthorization = always\naccuracy = reduced\n")
        let run = try await runLocate(
            ["publish", "\(broker.url)/owntracks/test/van", "--as", "owntracks", "--count", "1", receiver.endpoint], settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "the cell") {
            subscriber.objects(on: "owntracks/test/van").contains { $0["_type"] as? String == "location" }
        }
        let cell = try #require(subscriber.objects(on: "owntracks/test/van").first { $0["_type"] as? String == "location" })
        // The cell's size as its accuracy (kilometres), and nothing precise: no altitude, speed or course.
        #expect((cell["acc"] as? Int).map { $0 > 1000 } == true, "\(cell)")
        #expect(cell["alt"] == nil && cell["vel"] == nil && cell["cog"] == nil && cell["vac"] == nil)
        let points = try trackPoints("running")
        let latitude = try #require(cell["lat"] as? Double)
        let longitude = try #require(cell["lon"] as? Double)
        #expect(!points.contains { abs($0.latitude - latitude) < 1e-5 && abs($0.longitude - longitude) < 1e-5 })
    }

    @Test func theLastWillTellsSubscribersWhenLocateDiesWithoutAGoodbye() async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "locate/van/#")
        let publisher = try startLocate(
            ["publish", "\(broker.url)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "5"],
            settings: try SettingsHome.allowingAlways())
        try await subscriber.process.stdout.wait(for: "online") {
            subscriber.objects(on: "locate/van/status").first?["event"] as? String == "online"
        }
        publisher.signal(SIGKILL)
        try await subscriber.process.stdout.wait(for: "the will") {
            subscriber.objects(on: "locate/van/status").last?["event"] as? String == "offline"
        }
        // The will was made at the start, and is published at an end no one knew: it carries no time.
        let will = try #require(subscriber.objects(on: "locate/van/status").last)
        #expect(will["time"] == nil, "\(will)")
    }

    @Test func notAuthorizedPublishesAStatusAndNoPosition() async throws {
        let broker = try await MosquittoBroker()
        let receiver = try await GpsdServer(track: "running")
        let subscriber = try await Subscription(broker)
        let settings = try SettingsHome(user: "[location]\nauthorization = denied\n")
        let run = try await runLocate(["publish", "\(broker.url)/locate/van", "--duration", "2", receiver.endpoint], settings: settings)
        #expect(run.status == 77, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "the status") { subscriber.objects(on: "locate/van/status").count >= 2 }
        let statuses = subscriber.objects(on: "locate/van/status")
        // The reason's keyword only: nothing local (the settings file's path, the advice to the user) goes to the broker.
        #expect(
            statuses.first?["event"] as? String == "not_authorized" && statuses.first?["reason"] as? String == "denied",
            "\(statuses) \(run.stderr)")
        #expect(statuses.last?["event"] as? String == "offline")
        // Not a position, nor the fallback's (37.517829, 126.886270), anywhere on the broker.
        let everything = subscriber.process.stdout.text
        #expect(!everything.contains("lat") && !everything.contains("126.886") && !everything.contains("64.1"), "\(everything)")
        #expect(!everything.contains(settings.root.path) && !everything.contains("locate permission"), "\(everything)")
        // The denial said once on stderr, and the retained position cleared once.
        #expect(run.stderr.components(separatedBy: "permission is denied").count == 2, "\(run.stderr)")
        #expect(subscriber.messages.filter { $0.topic == "locate/van" }.count == 1, "\(subscriber.messages.map(\.topic))")
        #expect(!leaksParkedCoordinate(run.stderr))
    }

    @Test func gpsdDownPublishesNoPositionAndEndsWith69() async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker)
        let run = try await withRefusingEndpoint { try await runLocate(["publish", "\(broker.url)/locate/van", $0]) }
        #expect(run.status == 69, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "offline") {
            subscriber.objects(on: "locate/van/status").last?["event"] as? String == "offline"
        }
        let everything = subscriber.process.stdout.text
        #expect(!everything.contains("lat") && !everything.contains("126.886"), "\(everything)")
    }

    @Test func recordsQueuedWhileTheBrokerIsAwayArriveAfterItReturns() async throws {
        let broker = try await MosquittoBroker()
        // A persistent session (mosquitto_sub reconnects by itself): what comes while it is away is kept for it.
        let subscriber = try await Subscription(broker, "locate/van", extra: ["-c", "-i", "sub-\(broker.port)"])
        let publisher = try startLocate(
            [
                "publish", "\(broker.url)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "8", "--count",
                "60",
            ], settings: try SettingsHome.allowingAlways())
        // 7.5 s of records: room for a loaded machine to stop the broker before the last went.
        do {
            try await subscriber.process.stdout.wait(for: "the first records") { subscriber.objects(on: "locate/van").count >= 3 }
        } catch {
            // None came once, in a full run of 16 tests at a time: what did locate say?
            throw HarnessError(description: "\(error)\nlocate publish said: \(publisher.stderr.text)")
        }
        try await broker.stop()
        try await publisher.stderr.wait(for: "the lost connection") { publisher.stderr.text.contains("trying again") }
        // Records go on coming from the track meanwhile, into the queue.
        try await waitUntil(timeout: 5, failing: HarnessError(description: "the replay did not go on")) {
            publisher.stderr.text.contains("cannot reach")
        }
        try await broker.start()
        #expect(try await publisher.waitForExit(timeout: 60) == 0, "\(publisher.stderr.text)")
        try await subscriber.process.stdout.wait(for: "the rest of the 60") {
            Set(subscriber.objects(on: "locate/van").compactMap { $0["time"] as? String }).count >= 60
        }
        let times = subscriber.objects(on: "locate/van").compactMap { $0["time"] as? String }
        // After the outage, the queued records in order (at least once: the records in flight at the cut may come again).
        var unique: [String] = []
        for time in times where !unique.contains(time) { unique.append(time) }
        #expect(unique == unique.sorted(), "\(unique)")
        #expect(Set(unique).count == 60, "every record arrived: \(unique.count)")
    }

    /// Home Assistant shows the state it has the moment availability says `online`: on a
    /// re-allow, the fresh position goes first, so the one from before the revoke is never shown
    /// as current; a revoke leaves the entity unavailable.
    @Test func aReAllowSendsTheFreshPositionBeforeOnline() async throws {
        let broker = try await MosquittoBroker()
        let receiver = try await GpsdServer(track: "running")
        let subscriber = try await Subscription(broker, "locate/van/#")
        let settings = try SettingsHome.allowingAlways()
        let publisher = try startLocate(
            ["publish", "\(broker.url)/locate/van", "--as", "homeassistant", receiver.endpoint], settings: settings)
        try await subscriber.process.stdout.wait(for: "positions") { subscriber.objects(on: "locate/van/attributes").count >= 2 }
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        try await subscriber.process.stdout.wait(for: "offline") {
            subscriber.messages.last { $0.topic == "locate/van/availability" }?.payload == "offline"
        }
        let revoked = subscriber.messages.count
        try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        try await subscriber.process.stdout.wait(for: "online again") {
            subscriber.messages.dropFirst(revoked).contains { $0.topic == "locate/van/availability" && $0.payload == "online" }
        }
        let after = Array(subscriber.messages.dropFirst(revoked)).filter { !$0.payload.isEmpty }
        let online = try #require(after.firstIndex { $0.topic == "locate/van/availability" && $0.payload == "online" })
        let fresh = after.firstIndex { $0.topic == "locate/van/attributes" }
        #expect(
            fresh.map { $0 < online } == true, "the fresh position before online: \(after.map { "\($0.topic) \($0.payload.prefix(30))" })")
        publisher.signal(SIGTERM)
        #expect(try await publisher.waitForExit() == 0, "\(publisher.stderr.text)")
    }

    @Test func aRevokeDuringAnOutageHoldsBackWhatWasQueuedAndClearsTheRetainedPosition() async throws {
        let broker = try await MosquittoBroker()
        let receiver = try await GpsdServer(track: "running")
        let subscriber = try await Subscription(broker, "locate/van/#", extra: ["-c", "-i", "sub-\(broker.port)"])
        let settings = try SettingsHome.allowingAlways()
        let publisher = try startLocate(["publish", "\(broker.url)/locate/van", "--retain", receiver.endpoint], settings: settings)
        var positions: Int { subscriber.objects(on: "locate/van").count }
        try await subscriber.process.stdout.wait(for: "the first records") { positions >= 3 }
        try await broker.stop()
        try await publisher.stderr.wait(for: "the lost connection") { publisher.stderr.text.contains("trying again") }
        // Fixes come at 5 a second meanwhile, into the queue; then the user revokes. (What the
        // subscriber got before the broker stopped is counted once the reconnect has failed: on
        // a loaded machine its last lines were still on their way through its pipe at the stop.)
        try await publisher.stderr.wait(for: "a failed reconnect") { publisher.stderr.text.contains("cannot reach") }
        let before = positions
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        try await publisher.stderr.wait(for: "the revoke") { publisher.stderr.text.contains("permission is denied") }
        try await broker.start()
        try await subscriber.process.stdout.wait(for: "the status") {
            subscriber.objects(on: "locate/van/status").contains { $0["event"] as? String == "not_authorized" }
        }
        publisher.signal(SIGTERM)
        #expect(try await publisher.waitForExit() == 0, "\(publisher.stderr.text)")
        try await subscriber.process.stdout.wait(for: "offline") {
            subscriber.objects(on: "locate/van/status").last?["event"] as? String == "offline"
        }
        // (One the broker took just before it stopped may still reach the persistent session after
        // its restart: it was handed out before the revoke. What was queued in the outage, five a
        // second, never.)
        #expect(positions - before <= 1, "records queued before the revoke reached the broker after it: \(positions - before)")
        // The retained position was cleared: a subscriber that comes now gets the status only.
        let later = try await Subscription(broker, "locate/van/#")
        try await later.process.stdout.wait(for: "the retained status") { !later.messages.isEmpty }
        #expect(later.messages.map { $0.topic } == ["locate/van/status"], "\(later.messages.map { $0.topic })")
    }

    /// A broker that stops reading (SIGSTOP) while the user revokes, then goes on (SIGCONT): what
    /// was handed to the connection before the revoke must not reach subscribers after it.
    @Test func aRevokeWhileTheBrokerStallsLetsNoQueuedRecordThrough() async throws {
        let broker = try await MosquittoBroker()
        let receiver = try await GpsdServer(track: "running")
        let subscriber = try await Subscription(broker, "locate/van/#")
        let settings = try SettingsHome.allowingAlways()
        let publisher = try startLocate(["publish", "\(broker.url)/locate/van", "--retain", receiver.endpoint], settings: settings)
        var positions: Int { subscriber.objects(on: "locate/van").count }
        try await subscriber.process.stdout.wait(for: "the first records") { positions >= 3 }
        broker.signal(SIGSTOP)
        let before = positions
        // The stall lasts while 22 fixes come (5 a second): more than the window of 20.
        try await Task.sleep(for: .milliseconds(4400))
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        try await publisher.stderr.wait(for: "the revoke") { publisher.stderr.text.contains("permission is denied") }
        broker.signal(SIGCONT)
        try await subscriber.process.stdout.wait(for: "the status") {
            subscriber.objects(on: "locate/van/status").contains { $0["event"] as? String == "not_authorized" }
        }
        publisher.signal(SIGTERM)
        _ = try await publisher.waitForExit()
        // At most the records of the moment the broker stalled (it stops acknowledging, and gets no more).
        #expect(positions - before <= 2, "\(positions - before) records handed out before the revoke reached the broker after it")
        let later = try await Subscription(broker, "locate/van/#")
        try await later.process.stdout.wait(for: "the retained status") { !later.messages.isEmpty }
        #expect(later.messages.map { $0.topic } == ["locate/van/status"], "\(later.messages.map { $0.topic })")
    }

    /// A run that is not authorized (denied, or when-in-use in the background of its terminal:
    /// paused) clears the precise position an earlier run left retained, though it has no `--retain`.
    @Test(arguments: ["denied", "paused"])
    func aRunNotAuthorizedClearsTheRetainedPositionWithoutRetain(kind: String) async throws {
        let broker = try await MosquittoBroker()
        let receiver = try await GpsdServer(track: "running")
        let first = try await runLocate(
            ["publish", "\(broker.url)/locate/van", "--retain", "--count", "2", receiver.endpoint],
            settings: try SettingsHome.allowingAlways())
        #expect(first.status == 0, "\(first.stderr)")
        let retained = try await Subscription(broker, "locate/van")
        try await retained.process.stdout.wait(for: "the retained position") { !retained.messages.isEmpty }
        let arguments = ["publish", "\(broker.url)/locate/van", "--duration", "1", receiver.endpoint]
        if kind == "denied" {
            let run = try await runLocate(arguments, settings: try SettingsHome(user: "[location]\nauthorization = denied\n"))
            #expect(run.status == 77, "\(run.stderr)")
        } else {
            let settings = try SettingsHome(user: "[location]\nauthorization = when-in-use\n")
            let errors = settings.root.appendingPathComponent("errors").path
            let command = ([Package.locate.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let script = "\(command) > /dev/null 2> '\(errors)' &\nwait $!\n"
            let run = try RunningProcess(
                Package.root.appendingPathComponent("Scripts/with-terminal"), ["--", "/bin/bash", "-m", "-c", script],
                environment: settings.environment)
            _ = try await run.waitForExit(timeout: 30)
            #expect(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("paused"))
        }
        // The clear reached the subscriber of the position topic, and a later one gets nothing retained.
        try await retained.process.stdout.wait(for: "the clear") { retained.messages.last?.payload == "" }
        let later = try await Subscription(broker, "locate/#")
        // A marker published after the subscription comes after any retained message.
        #expect(
            try await runProgram(
                "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", "locate/marker", "-m", "m"]) == 0)
        try await later.process.stdout.wait(for: "the marker") { later.messages.contains { $0.topic == "locate/marker" } }
        #expect(!later.messages.contains { $0.topic == "locate/van" }, "\(later.messages.map { $0.payload })")
    }

    /// A broker host that never answers the TCP connection (a black hole: the kernel retries the
    /// SYN for about two minutes): each connect gives up after 10 s, and SIGTERM in one still ends
    /// the run after the 3 s a clean end waits for delivery, not after the connect, and says what
    /// was lost.
    @Test func sigtermWhileTheBrokerHostNeverAnswersEndsInBoundedTime() async throws {
        let blackHole = try await GpsdServer(misbehaving: "blackhole")
        // Kept to the end: the settings go with it, and a run whose settings vanish is no longer authorized.
        let settings = try SettingsHome.allowingAlways()
        // Connections to the black hole whose SYN is unanswered (SYN_SENT); the black hole's own
        // that fill its queue are there before the publisher's.
        let synSent = String(format: ":%04X 02 ", blackHole.port)
        let unanswered = { readWholeFile("/proc/net/tcp").components(separatedBy: synSent).count }
        let before = unanswered()
        let publisher = try startLocate(
            ["publish", "mqtt://\(blackHole.endpoint)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "5"],
            settings: settings)
        // The first connect gives up after 10 s, with the records it has (the replay went on
        // meanwhile) kept; the run is then in the next connect, unanswered again.
        try await publisher.stderr.wait(timeout: 40, for: "the first connect's end") {
            publisher.stderr.text.contains("did not answer the connection in 10 s; trying again (records are kept meanwhile)")
        }
        try await waitUntil(
            timeout: 20,
            failing: HarnessError(
                description: "no unanswered connect to the black hole but its own \(before - 1): \(publisher.stderr.text)")
        ) { unanswered() > before }
        let signalled = ContinuousClock.now
        publisher.signal(SIGTERM)
        let status = try await publisher.waitForExit(timeout: 20)
        let took = signalled.duration(to: .now)
        // 3 s of farewell and the exit (3.3 s alone; 10.4 s once in a loaded CI run): the margin is for
        // a loaded machine, far below the connect's two minutes, which is what this guards against.
        #expect(took < .seconds(20), "SIGTERM took \(took)")
        #expect(status == 69 && publisher.stderr.text.contains(" not delivered: "), "\(status): \(publisher.stderr.text)")
    }

    /// A record handed to a broker that never acknowledges it (stalled, SIGSTOP) is not delivered:
    /// the end says so and the status is 69, never 0.
    @Test func aRecordInFlightAtTheEndCountsAsNotDelivered() async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "locate/van")
        // Kept to the end: the settings go with it, and a run whose settings vanish is no longer authorized.
        let settings = try SettingsHome.allowingAlways()
        let publisher = try startLocate(
            ["publish", "\(broker.url)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "0.25", "--count", "3"],
            settings: settings)
        // The first two (which may go together, if the connection took a while), then the stall before the third,
        // 4 s later: room for a loaded machine to pass the second to the subscriber and stop the broker.
        try await subscriber.process.stdout.wait(for: "two records") { subscriber.messages.count >= 2 }
        broker.signal(SIGSTOP)
        defer { broker.signal(SIGCONT) }
        let status = try await publisher.waitForExit(timeout: 20)
        #expect(status == 69 && publisher.stderr.text.contains("1 record was not delivered"), "\(status): \(publisher.stderr.text)")
    }

    /// A broker whose access rules refuse the topic answers MQTT 5's PUBACK with "not authorized"
    /// (0x87): those records were not delivered.
    @Test func recordsTheBrokerRefusesAreNotDelivered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-mqtt-acl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let acl = directory.appendingPathComponent("acl")
        try Data("topic read locate/#\n".utf8).write(to: acl)
        let broker = try await MosquittoBroker(extra: "allow_anonymous true\nacl_file \(acl.path)\n")
        let run = try await runLocate(
            [
                "publish", "\(broker.url)/locate/van", "--mqtt-version", "5", "--replay", Package.track("commute").path, "--replay-speed",
                "0", "--count", "3",
            ], settings: try SettingsHome.allowingAlways())
        #expect(run.status == 69 && run.stderr.contains("3 records were refused by the broker"), "\(run.status): \(run.stderr)")
    }

    /// A second SIGTERM while the farewell waits for a stalled broker ends the run at once, but
    /// not silently: the end still says what was not delivered, and the status is not 0.
    @Test func aSecondSignalCutsTheFarewellShortButSaysWhatWasLost() async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "locate/van")
        // Kept to the end: the settings go with it, and a run whose settings vanish is no longer authorized.
        let settings = try SettingsHome.allowingAlways()
        let publisher = try startLocate(
            ["publish", "\(broker.url)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "5"],
            settings: settings)
        try await subscriber.process.stdout.wait(for: "the first record") { !subscriber.messages.isEmpty }
        broker.signal(SIGSTOP)
        defer { broker.signal(SIGCONT) }
        // Fixes keep coming (5 a second) and wait for the broker; the first SIGTERM starts a farewell of up to 3 s.
        try await Task.sleep(for: .milliseconds(600))
        publisher.signal(SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        let second = ContinuousClock.now
        publisher.signal(SIGTERM)
        let status = try await publisher.waitForExit(timeout: 20)
        // Until its stderr ended, as the collector's own thread saw it: this task may get a thread
        // of the cooperative pool again only seconds later, when other tests hold both.
        let took = second.duration(to: try #require(publisher.stderr.endedAt))
        #expect(took < .seconds(1), "the second signal took \(took)")
        #expect(status == 69 && publisher.stderr.text.contains("not delivered"), "\(status): \(publisher.stderr.text)")
    }

    /// Records dropped from the full queue while the broker stalled are lost, though the broker
    /// takes all the rest once it goes on: the end says so, and the status is 69, never 0.
    @Test func recordsDroppedFromTheFullQueueMakeTheEndNotZero() async throws {
        let broker = try await MosquittoBroker()
        let flood = try await GpsdServer(misbehaving: "flood")
        let subscriber = try await Subscription(broker, "locate/van")
        let settings = try SettingsHome.allowingAlways()
        let publisher = try startLocate(
            ["publish", "\(broker.url)/locate/van", "--qos", "0", "--count", "40000", flood.endpoint], settings: settings)
        try await subscriber.process.stdout.wait(for: "the first record") { !subscriber.messages.isEmpty }
        // No subscriber to forward to: the broker takes the rest as fast as it comes, once it goes on.
        subscriber.process.process.kill()
        broker.signal(SIGSTOP)
        try await publisher.stderr.wait(for: "a drop") { publisher.stderr.text.contains("the broker has been away too long: dropped the") }
        broker.signal(SIGCONT)
        let status = try await publisher.waitForExit(timeout: 20)
        let said = publisher.stderr.text
        // (Mostly the broker took all the rest, and the drops alone make it 69; a loaded machine may leave a few unsent at the deadline.)
        #expect(status == 69 && said.contains("dropped while the broker was away"), "\(status): \(said)")
    }

    @Test func thePasswordComesFromAPrivateFileOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-mqtt-password-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwd = directory.appendingPathComponent("passwd")
        let made = try await runProgram("/usr/bin/mosquitto_passwd", ["-c", "-b", passwd.path, "locate", "s3cret"])
        #expect(made == 0)
        let broker = try await MosquittoBroker(extra: "allow_anonymous false\npassword_file \(passwd.path)\n")
        let subscriber = try await Subscription(broker, "#", extra: ["-u", "locate", "-P", "s3cret"])
        let secret = directory.appendingPathComponent("mqtt-password")
        try Data("s3cret\n".utf8).write(to: secret)
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n[mqtt]\npassword-file = \(secret.path)\n")
        let arguments = [
            "publish", "mqtt://locate@127.0.0.1:\(broker.port)/locate/van", "--replay", Package.track("commute").path,
            "--replay-speed", "0", "--count", "3",
        ]

        // Readable by others: refused before anything is sent.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: secret.path)
        let open = try await runLocate(arguments, settings: settings)
        #expect(open.status == 78 && open.stderr.contains("chmod 600"), "\(open.stderr)")

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        let run = try await runLocate(arguments, settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "3 records") { subscriber.objects(on: "locate/van").count == 3 }
        #expect(!run.stderr.contains("s3cret"))
    }

    @Test func mqttsWithATestCAAndMQTT5() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-mqtt-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        // A CA and a server certificate for 127.0.0.1, made now (EC keys: fast).
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Data("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n".utf8).write(to: URL(fileURLWithPath: path("server.ext")))
        for (arguments, what) in [
            (
                ["req", "-x509"] + key + ["-days", "2", "-keyout", path("ca.key"), "-out", path("ca.crt"), "-subj", "/CN=locate test CA"],
                "the CA"
            ),
            (["req"] + key + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"], "the request"),
            (
                [
                    "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"), "-CAcreateserial", "-days",
                    "2",
                    "-out", path("server.crt"), "-extfile", path("server.ext"),
                ], "the certificate"
            ),
            (
                ["req", "-x509"] + key + ["-days", "2", "-keyout", path("other.key"), "-out", path("other.crt"), "-subj", "/CN=other CA"],
                "another CA"
            ),
        ] {
            #expect(try await runProgram("/usr/bin/openssl", arguments) == 0, "openssl: \(what)")
        }
        let broker = try await MosquittoBroker(
            extra: "allow_anonymous true\ncafile \(path("ca.crt"))\ncertfile \(path("server.crt"))\nkeyfile \(path("server.key"))\n")
        let subscriber = try await Subscription(broker, "#", extra: ["--cafile", path("ca.crt")])
        let arguments = [
            "publish", "mqtts://127.0.0.1:\(broker.port)/locate/van", "--mqtt-version", "5", "--replay", Package.track("commute").path,
            "--replay-speed", "0", "--count", "3",
        ]
        let trusted = try SettingsHome(user: "[location]\nauthorization = always\n[mqtt]\nca-file = \(path("ca.crt"))\n")
        let run = try await runLocate(arguments, settings: trusted)
        #expect(run.status == 0, "\(run.stderr)")
        try await subscriber.process.stdout.wait(for: "3 records") { subscriber.objects(on: "locate/van").count == 3 }

        // A broker whose certificate the CA file does not vouch for: nothing goes out, and the end says so.
        let untrusted = try SettingsHome(user: "[location]\nauthorization = always\n[mqtt]\nca-file = \(path("other.crt"))\n")
        let refused = try await runLocate(arguments, settings: untrusted)
        #expect(refused.status == 69 && refused.stderr.contains("3 records were not delivered"), "\(refused.stderr)")
        // Said once, not at every attempt of the back-off.
        #expect(refused.stderr.components(separatedBy: "TLS handshake failed").count == 2, "\(refused.stderr)")
        #expect(subscriber.objects(on: "locate/van").count == 3)
    }

    @Test(arguments: [
        ["publish"], ["publish", "ws://127.0.0.1/t"], ["publish", "mqtt://127.0.0.1"], ["publish", "mqtt://127.0.0.1/"],
        ["publish", "mqtt://u:secret@127.0.0.1/t"], ["publish", "mqtt://127.0.0.1:0/t"], ["publish", "mqtt://127.0.0.1/a/#"],
        ["publish", "mqtt://127.0.0.1/t", "--qos", "3"], ["publish", "mqtt://127.0.0.1/t", "--as", "traccar"],
        ["publish", "mqtt://127.0.0.1/only/two", "--as", "owntracks"], ["publish", "mqtt://127.0.0.1/owntracks/me/", "--as", "owntracks"],
        ["publish", "mqtt://127.0.0.1/owntracks//van", "--as", "owntracks"], ["publish", "mqtt://127.0.0.1/t", "--json"],
        ["publish", "mqtt://127.0.0.1/t", "--mqtt-version", "4"], ["--follow", "--qos", "1"],
    ])
    func badURLsAndFlagsAreUsageErrors(arguments: [String]) async throws {
        let run = try await runLocate(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty && run.stderr.hasPrefix("locate: error: "))
        #expect(!run.stderr.contains("secret"))
        // The usage line of the command at hand.
        if arguments[0] == "publish" { #expect(run.stderr.contains("\nUsage: locate publish mqtt"), "\(run.stderr)") }
    }
}

/// Runs a program to its end; its exit status.
private func runProgram(_ path: String, _ arguments: [String]) async throws -> Int32 {
    try await RunningProcess(URL(fileURLWithPath: path), arguments).waitForExit()
}
