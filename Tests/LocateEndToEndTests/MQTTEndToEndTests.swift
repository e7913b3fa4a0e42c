import Foundation
import Testing

/// README's fleet recipe: `locate --follow --json | mosquitto_pub -l`, through a real mosquitto
/// broker on a free loopback port, to a real subscriber, which must see records while they are
/// being produced, not when the stream ends.
struct MQTTEndToEndTests {
    @Test func liveRecordsReachASubscriberAsTheyAreProduced() async throws {
        let port = try closedPort()
        let broker = try RunningProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-p", String(port)])
        // SIGKILL (and reaped): the test runner's children may inherit a blocked SIGTERM, and these two do not unblock it.
        defer { broker.process.kill() }
        try await broker.stderr.wait(for: "mosquitto listening") { broker.stderr.text.contains("running") || !broker.process.isRunning }
        #expect(broker.process.isRunning, "mosquitto: \(broker.stderr.text)")

        let topic = "locate/test-host/fix"
        // Line-buffered, so that each line reaches the test as mosquitto_sub prints it.
        let subscriber = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/stdbuf"),
            ["-oL", "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-t", topic, "-d"])
        defer { subscriber.process.kill() }
        try await subscriber.stdout.wait(for: "the subscription") { subscriber.stdout.text.contains("SUBACK") }

        // 25 fixes at 5 a second: about five seconds of stream.
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let publisher = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/setsid"),
            [
                "-w", "/bin/bash", "-c",
                "set -o pipefail; '\(Package.locate.path)' --follow --json --count 25 \(receiver.endpoint)"
                    + " | mosquitto_pub -h 127.0.0.1 -p \(port) -t \(topic) -l",
            ],
            environment: settings.environment)
        var records: [String] { subscriber.stdout.lines.filter { $0.hasPrefix("{") } }
        try await subscriber.stdout.wait(for: "the first record") { !records.isEmpty }
        #expect(publisher.process.isRunning, "the first record arrived while the stream was still running")
        #expect(try await publisher.waitForExit(timeout: 60) == 0, "\(publisher.stderr.text)")
        try await subscriber.stdout.wait(for: "all 25 records") { records.count >= 25 }
        let first = try jsonObject(try #require(records.first))
        #expect(first["type"] as? String == "fix" && (first["lat"] as? Double).map { $0 > 64 } == true)
        #expect(records.count == 25)
    }
}
