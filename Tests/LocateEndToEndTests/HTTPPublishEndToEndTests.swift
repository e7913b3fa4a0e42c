import Foundation
import Synchronization
import Testing

/// A real HTTP server (Python's `http.server`) that takes POSTs as OwnTracks Recorder, Home
/// Assistant's OwnTracks webhook and Traccar's OsmAnd port do: each request is one JSON line on
/// its stdout (path, headers, body); the first `failures` are answered 503, the others 200 `[]`.
final class HTTPReceiver: Sendable {
    let port: Int
    let process: RunningProcess

    private static let script = """
        import http.server, json, sys
        port, failures = int(sys.argv[1]), int(sys.argv[2])
        seen = [0]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                seen[0] += 1
                status = 503 if seen[0] <= failures else 200
                print(json.dumps({"path": self.path, "status": status, "headers": {k.lower(): v for k, v in self.headers.items()},
                                  "body": body.decode()}), flush=True)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"[]" if status == 200 else b"busy")
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(("127.0.0.1", port), Handler)
        print("listening", flush=True)
        server.serve_forever()
        """

    init(port: Int? = nil, failures: Int = 0) async throws {
        self.port = try port ?? freePort()
        process = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-u", "-c", Self.script, String(self.port), String(failures)])
        try await process.stdout.wait(for: "the HTTP server") { process.stdout.text.contains("listening") || !process.process.isRunning }
        guard process.process.isRunning else { throw HarnessError(description: "http.server: \(process.stderr.text)") }
    }

    /// The requests so far, as the server saw them.
    var requests: [(path: String, status: Int, headers: [String: String], body: String)] {
        process.stdout.lines.compactMap { line in
            guard let object = try? jsonObject(line), let path = object["path"] as? String, let status = object["status"] as? Int,
                let headers = object["headers"] as? [String: String], let body = object["body"] as? String
            else { return nil }
            return (path, status, headers, body)
        }
    }

    /// The bodies the server took (answered 200), in order.
    var delivered: [String] { requests.filter { $0.status == 200 }.map(\.body) }

    deinit {
        process.process.kill()
    }
}

/// `locate publish http[s]://...`: OwnTracks' HTTP mode and Traccar's OsmAnd form against a real
/// HTTP server, and the outbox on disk through an endpoint that is away or failing.
struct HTTPPublishEndToEndTests {
    /// The payloads the outbox keeps for `destination`, oldest first (Python's sqlite3 reads it).
    private func kept(_ settings: SettingsHome, destination: String) async throws -> [String]? {
        let store = settings.root.appendingPathComponent("state/locate/store.sqlite").path
        // Not made by the reader: Python's sqlite3 would create a missing store, mode 0644, which
        // locate then rightly refuses (a reader that ran before the publish had made its store).
        guard FileManager.default.fileExists(atPath: store) else { return nil }
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=5)
            for (payload,) in db.execute("SELECT payload FROM outbox WHERE destination = ? ORDER BY id", sys.argv[2:3]):
                print(bytes(payload).decode())
            """
        let reader = try RunningProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, store, destination])
        guard try await reader.waitForExit(timeout: 20) == 0 else { return nil }
        return reader.stdout.lines
    }

    /// The OwnTracks replay of these tests.
    private let replay = ["--as", "owntracks", "--replay", Package.track("commute").path]

    /// A publish to an endpoint that is away (nothing listens on its port yet), SIGKILLed once
    /// its outbox holds 5 records: the port, the URL, and what the outbox kept.
    private func killedWhileAway(_ settings: SettingsHome) async throws -> (port: Int, url: String, kept: [String]) {
        let port = try freePort()
        let url = "http://locate@127.0.0.1:\(port)/owntracks"
        let away = try startLocate(["publish", url] + replay + ["--replay-speed", "20"], settings: settings)
        let deadline = ContinuousClock.now + .seconds(30)
        while (try await kept(settings, destination: url))?.count ?? 0 < 5, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        away.signal(SIGKILL)
        _ = try await away.waitForExit(timeout: 10)
        let before = try #require(try await kept(settings, destination: url))
        try #require(before.count >= 5, "the outbox held \(before.count) records")
        return (port, url, before)
    }

    @Test func ownTracksOverHTTPIsItsHTTPModeWithBasicAuthFromAPrivateFile() async throws {
        let receiver = try await HTTPReceiver()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("http-password")
        try Data("s3cret\n".utf8).write(to: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n[http]\npassword-file = \(secret.path)\n")
        let run = try await runLocate(
            [
                "publish", "http://jane@127.0.0.1:\(receiver.port)/api/webhook/abc", "--as", "owntracks", "--replay",
                Package.track("commute").path, "--replay-speed", "0", "--count", "3",
            ], settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        let requests = receiver.requests
        try #require(requests.count == 3, "\(requests.map(\.body))")
        let fixes = try trackPoints("commute")
        for (index, request) in requests.enumerated() {
            #expect(request.path == "/api/webhook/abc")
            #expect(request.headers["authorization"] == "Basic " + Data("jane:s3cret".utf8).base64EncodedString())
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["x-limit-u"] == "jane")
            #expect(request.headers["x-limit-d"] == ProcessInfo.processInfo.hostName.filter { $0.isASCII && !$0.isWhitespace })
            let object = try jsonObject(request.body)
            #expect(object["_type"] as? String == "location")
            let latitude = try #require(object["lat"] as? Double)
            let longitude = try #require(object["lon"] as? Double)
            #expect(abs(latitude - fixes[index].latitude) < 1e-6 && abs(longitude - fixes[index].longitude) < 1e-6, "\(object)")
            #expect(object["tst"] is Int && object["tid"] is String)
        }
        // No status goes over HTTP: no will, no clear, no `lwt`.
        #expect(requests.allSatisfy { !$0.body.isEmpty && !$0.body.contains("\"lwt\"") })
    }

    /// Traccar's OsmAnd form, beside locate's own record of the same fixes: the same position,
    /// the speed in knots, the time in Unix seconds, the device's id from the URL's query.
    @Test func osmAndCarriesTraccarsFieldsOfTheSameFixesAsTheJSONRecord() async throws {
        let receiver = try await HTTPReceiver()
        let settings = try SettingsHome.allowingAlways()
        let replay = ["--replay", Package.track("commute").path, "--replay-speed", "0", "--count", "4"]
        let run = try await runLocate(
            ["publish", "http://127.0.0.1:\(receiver.port)/?id=van-1", "--as", "osmand"] + replay, settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        let records = try await runLocate(["--follow", "--json"] + replay, settings: settings)
        let expected = try records.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        let requests = receiver.requests
        try #require(requests.count == 4 && expected.count == 4, "\(requests.map(\.body))")
        for (request, record) in zip(requests, expected) {
            #expect(request.path == "/", "the query goes in the form: Traccar reads the one or the other")
            #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
            var form: [String: String] = [:]
            for field in request.body.split(separator: "&") {
                let parts = field.split(separator: "=", maxSplits: 1)
                form[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            #expect(form["id"] == "van-1")
            #expect(Double(form["lat"] ?? "").map { abs($0 - (record["lat"] as? Double ?? .nan)) < 1e-6 } == true, "\(form)")
            #expect(Double(form["lon"] ?? "").map { abs($0 - (record["lon"] as? Double ?? .nan)) < 1e-6 } == true, "\(form)")
            if let speed = record["speed"] as? Double {
                #expect(Double(form["speed"] ?? "").map { abs($0 - speed * 3600 / 1852) < 0.01 } == true, "knots: \(form)")
            }
            let stamp = record["time"] as? String ?? ""
            let time = try #require(stamp.hasSuffix(".000Z") ? try? Date(String(stamp.dropLast(5)) + "Z", strategy: .iso8601) : nil)
            #expect(form["timestamp"] == String(Int(time.timeIntervalSince1970)))
        }
    }

    /// Killed while the endpoint is away, started again while it fails twice with a 503: every
    /// record arrives once the endpoint takes them, what waited first, in order, nothing lost.
    @Test func anEndpointAwayThenFailingLosesNothingAndKeepsTheOrder() async throws {
        let settings = try SettingsHome.allowingAlways()
        let (port, url, before) = try await killedWhileAway(settings)
        let receiver = try await HTTPReceiver(port: port, failures: 2)
        let back = try await runLocate(["publish", url] + replay + ["--replay-speed", "0", "--count", "3"], settings: settings)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr.contains("HTTP 503"), "the failure is said: \(back.stderr)")
        let delivered = receiver.delivered
        #expect(Array(delivered.prefix(before.count)) == before, "\(delivered.count) delivered, \(before.count) kept")
        #expect(delivered.count == before.count + 3)
        #expect(try await kept(settings, destination: url) == [], "delivered records are deleted")
    }

    /// A deny and an allow again written to the settings by hand while no publish runs: what an
    /// earlier run left is older than that change, and is deleted unsent.
    @Test func aRevokeAndAReAllowBetweenRunsSendNothingFromBefore() async throws {
        let settings = try SettingsHome.allowingAlways()
        let (port, url, _) = try await killedWhileAway(settings)
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        let receiver = try await HTTPReceiver(port: port)
        let back = try await runLocate(["publish", url] + replay + ["--replay-speed", "0", "--count", "3"], settings: settings)
        #expect(back.status == 0, "\(back.stderr)")
        let delivered = receiver.delivered
        #expect(delivered.count == 3, "\(delivered.count) delivered: what waited went too")
        #expect(try await kept(settings, destination: url) == [])
    }

    /// An endpoint that takes the connection and never answers: the request waits on a thread of
    /// its own, and every record taken meanwhile is committed to the outbox, as the end says.
    @Test func recordsTakenWhileARequestHangsAreKept() async throws {
        let script = """
            import socket, sys
            server = socket.socket()
            server.bind(("127.0.0.1", 0))
            server.listen(16)
            print(server.getsockname()[1], flush=True)
            held = []
            while True:
                held.append(server.accept()[0])
            """
        let hanging = try RunningProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-u", "-c", script])
        defer { hanging.process.kill() }
        try await hanging.stdout.wait(for: "the port") { !hanging.stdout.lines.isEmpty }
        let url = "http://locate@127.0.0.1:\(hanging.stdout.lines[0])/owntracks"
        let settings = try SettingsHome.allowingAlways()
        let publisher = try startLocate(
            ["publish", url, "--as", "owntracks", "--replay", Package.track("commute").path, "--replay-speed", "10", "--count", "12"],
            settings: settings)
        let status = try await publisher.waitForExit(timeout: 30)
        let kept = try #require(try await kept(settings, destination: url))
        #expect(status == 69, "\(publisher.stderr.text)")
        #expect(kept.count == 12, "\(kept.count) kept: \(publisher.stderr.text)")
        #expect(publisher.stderr.text.contains("12 records were not delivered"), "\(publisher.stderr.text)")
    }

    @Test(arguments: [
        (["http://127.0.0.1:9/x", "--as", "homeassistant"], "'--as homeassistant' is Home Assistant's MQTT discovery"),
        (["http://127.0.0.1:9/x", "--as", "owntracks"], "needs the user in the URL"),
        (["http://127.0.0.1:9/x", "--as", "osmand"], "needs the device's identifier"),
        (["mqtt://127.0.0.1:9/x", "--as", "osmand"], "is Traccar's HTTP protocol"),
        (["http://127.0.0.1:9/x", "--qos", "2"], "'--qos' is for an MQTT broker"),
        (["ftp://127.0.0.1/x"], "expected mqtt[s]://HOST/TOPIC or http[s]://HOST/PATH"),
        (["http://127.0.0.1/a b"], "the path has a space"),
    ])
    func aDestinationAFormatCannotGoToIsAUsageError(arguments: [String], said: String) async throws {
        let run = try await runLocate(["publish"] + arguments, settings: try SettingsHome.allowingAlways())
        #expect(run.status == 64 && run.stderr.contains(said), "\(run.status): \(run.stderr)")
    }
}
