import Foundation
import Testing

/// A gpsd that stalls, sends garbage or hangs up (Scripts/fake-gpsd): no crash, no hang, no
/// partial line, no made-up position; a clear message and the documented status.
struct FaultEndToEndTests {
    @Test func aStalledGpsdTimesOutWithTheFallback() async throws {
        let gpsd = try await GpsdServer(misbehaving: "stall")
        let run = try await runLocate(["--json", "--timeout", "1", gpsd.endpoint])
        #expect(run.status == 75)
        let record = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
        #expect(record["source"] as? String == "fallback" && record["reason"] as? String == "timeout")
        #expect(run.stderr == "locate: no fix within 1 s\n")
    }

    @Test func garbageIsNeverAPosition() async throws {
        let gpsd = try await GpsdServer(misbehaving: "garbage")
        let once = try await runLocate(["--timeout", "1", gpsd.endpoint])
        #expect(once.status == 75)
        #expect(once.stdout == "37.517829 126.886270\n", "the fallback, not the junk's 12.5 99.5")

        let settings = try SettingsHome.allowingAlways()
        let follow = try startLocate(["--follow", "--json", "--events", gpsd.endpoint], settings: settings)
        try await follow.stdout.wait(for: "a status event about the junk") { follow.stdout.text.contains("\"event\":\"no_fix\"") }
        follow.signal(SIGINT)
        #expect(try await follow.waitForExit() == 75, "gpsd answered, with no fix: no success")
        #expect(!follow.stdout.text.contains("\"source\":\"gpsd\""), "no record made from junk")
        let last = try jsonObject(String(follow.stdout.lines.last ?? ""))
        #expect(last["source"] as? String == "fallback" && last["reason"] as? String == "timeout")
    }

    @Test func aGpsdThatHangsUpIsUnavailable() async throws {
        let gpsd = try await GpsdServer(misbehaving: "hangup")
        let once = try await runLocate([gpsd.endpoint])
        #expect(once.status == 69)
        #expect(once.stderr == "locate: gpsd at \(gpsd.endpoint) closed the connection\n")

        let settings = try SettingsHome.allowingAlways()
        let follow = try startLocate(["--follow", gpsd.endpoint], settings: settings)
        try await follow.stderr.wait(for: "the back-off to grow") { follow.stderr.text.contains("reconnecting in 1 s") }
        follow.signal(SIGTERM)
        #expect(try await follow.waitForExit() == 69, "no fix, and gpsd closed every connection")
        #expect(follow.stderr.text.contains("reconnecting in 0.25 s") && follow.stderr.text.contains("reconnecting in 0.5 s"))
        #expect(follow.stderr.text.contains("closed the connection each time"))
    }

    @Test func aGpsdThatNeverAnswersTheConnectionIsUnreachableInBoundedTime() async throws {
        // libgps connects with a blocking connect() and no limit; locate bounds it (here by --timeout).
        let gpsd = try await GpsdServer(misbehaving: "blackhole")
        let run = try await runLocate(["--timeout", "2", gpsd.endpoint], timeout: 20)
        #expect(run.status == 69)
        #expect(run.stdout == "37.517829 126.886270\n")
        #expect(run.stderr == "locate: cannot reach gpsd at \(gpsd.endpoint): no answer within 2 s\n")
    }
}
