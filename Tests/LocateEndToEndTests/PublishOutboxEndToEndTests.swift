import Foundation
import Testing

/// `locate publish`'s outbox on disk, against a real mosquitto that is away and comes back:
/// nothing committed is lost to SIGKILL, a revoke deletes what waited (from the file's bytes
/// too) for every later run, and the bound drops the oldest and says so.
struct PublishOutboxEndToEndTests {
    /// The payloads the outbox keeps for the broker at `port` and `topic`, oldest first, as
    /// Python's sqlite3 reads the store (beside a run that has it open); `nil` when it cannot.
    private func kept(_ settings: SettingsHome, broker port: Int, topic: String = "locate/van", app: String = "") async throws -> [String]?
    {
        let store = settings.root.appendingPathComponent("state/locate/store.sqlite").path
        // Not made by the reader: Python's sqlite3 would create a missing store, mode 0644, which
        // locate then rightly refuses (a reader that ran before the publish had made its store).
        guard FileManager.default.fileExists(atPath: store) else { return nil }
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=5)
            for (payload,) in db.execute("SELECT payload FROM outbox WHERE destination = ? AND app = ? ORDER BY id", sys.argv[2:4]):
                print(bytes(payload).decode())
            """
        let reader = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, store, "mqtt://127.0.0.1:\(port)/\(topic)", app])
        guard try await reader.waitForExit(timeout: 20) == 0 else { return nil }
        return reader.stdout.lines
    }

    /// Waits until what the outbox keeps satisfies `condition`.
    private func waitForKept(_ settings: SettingsHome, broker port: Int, what: String, _ condition: ([String]) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let rows = try await kept(settings, broker: port), condition(rows) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError(description: "the outbox never held \(what): \(try await kept(settings, broker: port) ?? ["unreadable"])")
    }

    /// The bytes of the store and its log, for what must not be in them.
    private func storeBytes(_ settings: SettingsHome) -> String {
        ["store.sqlite", "store.sqlite-wal"].map { name in
            (try? Data(contentsOf: settings.root.appendingPathComponent("state/locate/\(name)"))).map {
                String(decoding: $0, as: UTF8.self)
            }
                ?? ""
        }.joined()
    }

    @Test func aPublishKilledTwiceDuringAnOutageLosesNothing() async throws {
        let settings = try SettingsHome.allowingAlways()
        // Nothing listens there yet: the broker is away.
        let port = try freePort()
        let url = "mqtt://127.0.0.1:\(port)/locate/van"
        var before: [String] = []
        for run in 1...2 {
            let publisher = try startLocate(
                ["publish", url, "--replay", Package.track("commute").path, "--replay-speed", "20"], settings: settings)
            try await waitForKept(settings, broker: port, what: "10 more records in run \(run)") { $0.count >= before.count + 10 }
            publisher.signal(SIGKILL)
            _ = try await publisher.waitForExit(timeout: 10)
            let after = try #require(try await kept(settings, broker: port))
            #expect(Array(after.prefix(before.count)) == before, "run \(run) kept what the one before left, in order")
            before = after
        }
        // The broker comes back; the next run sends what waited first, in order, then its own.
        let broker = try await MosquittoBroker(port: port)
        let subscriber = try await Subscription(broker, "locate/van")
        let last = try await runLocate(
            ["publish", url, "--replay", Package.track("commute").path, "--replay-speed", "0", "--count", "3"], settings: settings)
        #expect(last.status == 0, "\(last.stderr)")
        try await subscriber.process.stdout.wait(for: "what waited and 3 more") { subscriber.messages.count >= before.count + 3 }
        let received = subscriber.messages.filter { $0.topic == "locate/van" }.map(\.payload)
        #expect(Array(received.prefix(before.count)) == before, "\(received.count) received, \(before.count) kept")
        #expect(received.count == before.count + 3)
        #expect(try await kept(settings, broker: port) == [], "acknowledged records are deleted")
    }

    @Test func aRevokeDuringAnOutageDeletesWhatWaitedForEveryLaterRun() async throws {
        let gpsd = try await GpsdServer(track: "commute", cycle: 0.1)
        let settings = try SettingsHome.allowingAlways()
        let port = try freePort()
        let url = "mqtt://127.0.0.1:\(port)/locate/van"
        let publisher = try startLocate(["publish", url, "--gpsd", gpsd.endpoint], settings: settings)
        try await waitForKept(settings, broker: port, what: "5 records") { $0.count >= 5 }
        let waited = try #require(try await kept(settings, broker: port))
        // The revoke: the file changes, the run sees it, and what waited goes from disk at once.
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        try await waitForKept(settings, broker: port, what: "no position after the deny") { $0.allSatisfy { !$0.contains("\"lat\"") } }
        publisher.signal(SIGKILL)
        _ = try await publisher.waitForExit(timeout: 10)
        let bytes = storeBytes(settings)
        #expect(!bytes.isEmpty && waited.allSatisfy { !bytes.contains($0) }, "a revoked position is still in the store's bytes")
        // Allowed again, the broker back: only positions taken after the re-allow arrive.
        try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        let broker = try await MosquittoBroker(port: port)
        let subscriber = try await Subscription(broker, "locate/van")
        let again = try await runLocate(["publish", url, "--gpsd", gpsd.endpoint, "--count", "2"], settings: settings)
        #expect(again.status == 0, "\(again.stderr)")
        let positions = { subscriber.messages.filter { $0.topic == "locate/van" && $0.payload.contains("\"lat\"") }.map(\.payload) }
        try await subscriber.process.stdout.wait(for: "two records") { positions().count >= 2 }
        let received = positions()
        #expect(received.count == 2 && received.allSatisfy { !waited.contains($0) }, "\(received)")
    }

    @Test func theBoundDropsTheOldestSaysSoAndTheStatusIsNotZero() async throws {
        let settings = try SettingsHome.allowingAlways()
        let port = try freePort()
        let url = "mqtt://127.0.0.1:\(port)/locate/van"
        let away = try await runLocate(
            ["publish", url, "--replay", Package.track("commute").path, "--replay-speed", "0", "--count", "10", "--outbox-limit", "3"],
            settings: settings)
        #expect(away.status == 69, "\(away.stderr)")
        #expect(
            away.stderr.contains("the broker has been away too long: dropped the") && away.stderr.contains("7 records were dropped"),
            "\(away.stderr)")
        #expect(away.stderr.contains("3 records were not delivered") && away.stderr.contains("the outbox keeps them"), "\(away.stderr)")
        let waiting = try #require(try await kept(settings, broker: port))
        #expect(waiting.count == 3)
        let broker = try await MosquittoBroker(port: port)
        let subscriber = try await Subscription(broker, "locate/van")
        let back = try await runLocate(
            ["publish", url, "--replay", Package.track("commute").path, "--replay-speed", "0", "--count", "1"], settings: settings)
        #expect(back.status == 0, "\(back.stderr)")
        try await subscriber.process.stdout.wait(for: "the 3 kept and 1 more") { subscriber.messages.count >= 4 }
        #expect(Array(subscriber.messages.map(\.payload).prefix(3)) == waiting)
    }

    /// A replay read as fast as it goes waits for the broker rather than overrunning the bound:
    /// with the broker there, nothing is dropped however small the outbox.
    @Test func aReplayAsFastAsReadGoesAtTheBrokersPace() async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "locate/van")
        let run = try await runLocate(
            [
                "publish", "\(broker.url)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "0", "--count", "120",
                "--outbox-limit", "4",
            ], settings: try SettingsHome.allowingAlways())
        #expect(run.status == 0 && !run.stderr.contains("dropped"), "\(run.status): \(run.stderr)")
        try await subscriber.process.stdout.wait(for: "all 120") { subscriber.messages.count >= 120 }
    }

    /// `--every`: records are held and go in bursts, one connection each, none lost; what
    /// arrives comes in groups, not a record at each fix.
    @Test func everyHoldsRecordsAndSendsThemInBursts() async throws {
        let broker = try await MosquittoBroker()
        // Each message with the Unix time it arrived (nanoseconds), as mosquitto_sub prints it.
        let arrivals = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/stdbuf"),
            ["-oL", "/usr/bin/mosquitto_sub", "-p", String(broker.port), "-t", "locate/van", "-q", "1", "-d", "-F", "%U %p"])
        try await arrivals.stdout.wait(for: "the subscription") { arrivals.stdout.text.contains("SUBACK") }
        let run = try await runLocate(
            [
                "publish", "\(broker.url)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "5", "--count", "20",
                "--every", "1.5",
            ], settings: try SettingsHome.allowingAlways())
        #expect(run.status == 0, "\(run.stderr)")
        let times = { arrivals.stdout.lines.compactMap { line in line.split(separator: " ").first.flatMap { Double($0) } } }
        try await arrivals.stdout.wait(for: "all 20") { times().count >= 20 }
        // Fixes come every 0.2 s for 4 s; held, they arrive in a few groups 1.5 s apart.
        let arrived = times()
        let gaps = zip(arrived.dropFirst(), arrived).map { $0 - $1 }
        let groups = gaps.filter { $0 > 0.7 }.count + 1
        // (Two to four on time; a loaded machine may play the 4 s of fixes slower, in more bursts.)
        #expect(arrived.count == 20 && (2...6).contains(groups), "\(groups) groups: \(gaps)")
        #expect(gaps.filter { $0 <= 0.7 }.count >= 14, "records of a burst arrive together: \(gaps)")
        let connections = broker.log.components(separatedBy: "New client connected").count - 1
        #expect(connections >= groups, "a connection a burst: \(connections)")
    }

    @Test func anOutboxThatIsNotTheUsersAloneIsRefusedBeforeAnythingIsSent() async throws {
        let settings = try SettingsHome.allowingAlways()
        let state = settings.root.appendingPathComponent("state/locate")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        let broker = try await MosquittoBroker()
        let subscriber = try await Subscription(broker, "locate/van")
        let run = try await runLocate(
            ["publish", "\(broker.url)/locate/van", "--replay", Package.track("commute").path, "--replay-speed", "0", "--count", "2"],
            settings: settings)
        #expect(run.status == 78 && run.stderr.contains(state.path) && run.stderr.contains("outbox"), "\(run.status): \(run.stderr)")
        #expect(subscriber.messages.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("store.sqlite").path))
    }
}
