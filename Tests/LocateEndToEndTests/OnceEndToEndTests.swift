import Foundation
import Testing

/// `locate --once` against a real gpsd (gpsfake replaying the bundled tracks).
struct OnceEndToEndTests {
    @Test func printsTheReceiversCoordinateAsText() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate([receiver.endpoint])
        #expect(run.status == 0)
        #expect(run.stdout == "64.150432 -21.940457\n")
        #expect(run.stderr.isEmpty)
    }

    /// Who had my location: a run that printed a fix is a session of `locate access`, with its
    /// count and accuracy and never a coordinate; one that printed the fallback is none.
    @Test func aFixHandedOutIsASessionOfTheAccessLog() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome.allowingAlways()
        #expect(try await runLocate([receiver.endpoint], settings: settings).status == 0)
        #expect(try await runLocate(["127.0.0.1:1"], settings: settings).status == 69)
        let access = try await runLocate(["access", "--json"], settings: settings)
        #expect(access.status == 0, "\(access.stderr)")
        let sessions = access.stdout.split(separator: "\n").compactMap { try? jsonObject(String($0)) }
        #expect(sessions.count == 1, "\(access.stdout)")
        #expect(sessions.first?["via"] as? String == "locate --once")
        #expect(sessions.first?["count"] as? Int == 1)
        #expect(sessions.first?["accuracy"] as? String == "full")
        #expect(!leaksParkedCoordinate(access.stdout, known: [settings.root.path]), "no position: \(access.stdout)")
    }

    @Test func takesTheEndpointFromTheEnvironment() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate(["--once"], environment: ["LOCATE_GPSD": receiver.endpoint])
        #expect(run.status == 0)
        #expect(run.stdout == "64.150432 -21.940457\n")
    }

    @Test func printsOneJSONObjectWithNumbersAndNulls() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate(["--json", receiver.endpoint])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let record = try jsonObject(String(lines[0]))
        let keys: Set = [
            "type", "time", "lat", "lon", "alt_msl", "alt_hae", "h_acc", "v_acc", "speed", "speed_acc",
            "course", "course_acc", "climb", "mode", "sats_used", "device", "source", "age", "accuracy",
            "reason", "timed_out", "fix", "hdop", "vdop", "pdop", "tdop", "gdop", "x_acc", "y_acc", "time_acc", "heading", "mag_var",
            "geoid_sep", "integrity", "integrity_reason",
        ]
        #expect(Set(record.keys) == keys)
        // The geoid's separation: the GGA's, gpsd's own model's where the GGA has none, or none
        // yet (a fix from a receiver's first epoch, before its GGA).
        #expect(record["fix"] as? String == "gps" && record["integrity"] as? String == "ok")
        #expect(record["geoid_sep"] is Double || record["geoid_sep"] is NSNull, "\(record)")
        #expect(record["type"] as? String == "fix")
        #expect(abs((record["lat"] as? Double ?? 0) - 64.1504322) < 1e-7)
        #expect(abs((record["lon"] as? Double ?? 0) + 21.9404567) < 1e-7)
        #expect(record["source"] as? String == "gpsd")
        #expect(record["reason"] is NSNull)
        #expect(record["course_acc"] is NSNull)
        #expect(record["timed_out"] as? Bool == false)
        #expect(["2d", "3d"].contains(record["mode"] as? String))
        #expect((record["time"] as? String)?.hasPrefix("2026-01-01T08:") == true)
    }

    @Test func gpsdThatIsDownGivesStatus69AndSaysWhere() async throws {
        try await withRefusingEndpoint { endpoint in
            let run = try await runLocate([endpoint])
            #expect(run.status == 69)
            #expect(run.stdout == "37.517829 126.886270\n", "the fallback coordinate")
            #expect(run.stderr == "locate: cannot reach gpsd at \(endpoint): Connection refused\n")
        }
    }

    @Test func noFixBeforeTheTimeoutGivesStatus75() async throws {
        let receiver = try await GpsdServer(track: "nofix", wait: "report")
        let run = try await runLocate(["--timeout", "1.5", "--no-fallback", receiver.endpoint])
        #expect(run.status == 75)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "locate: no fix within 1.5 s\n")
    }

    @Test func unreachableAccuracyPrintsTheBestFixMarkedTimedOut() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate(["--json", "--accuracy", "1", "--timeout", "3", receiver.endpoint])
        #expect(run.status == 75)
        let record = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
        #expect(record["timed_out"] as? Bool == true)
        #expect((record["h_acc"] as? Double ?? 0) > 1)
        #expect(run.stderr.contains("printing the most accurate fix seen"))
    }

    /// gpsd with no receiver yet (just started, or hot-plugging one) is waited for like a fix.
    @Test func aReceiverThatAppearsLateGivesAFix() async throws {
        let receiver = try await GpsdServer(track: "weather", late: true)
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["--timeout", "20", receiver.endpoint], settings: settings)
        try await run.stderr.wait(for: "the wait to be said") { run.stderr.text.contains("waiting for one") }
        receiver.plugIn()
        #expect(try await run.waitForExit() == 0)
        #expect(run.stdout.text == "64.150432 -21.940457\n")
        #expect(run.stderr.text == "locate: gpsd at \(receiver.endpoint) has no GPS device; waiting for one\n", "said once")
        let status = try await runLocate(["status", "--json", receiver.endpoint])
        #expect(status.status == 0)
    }

    @Test func noReceiverByTheDeadlineGivesStatus69() async throws {
        let receiver = try await GpsdServer(track: "weather", late: true)
        let run = try await runLocate(["--timeout", "2", receiver.endpoint])
        #expect(run.status == 69)
        #expect(run.stdout == "37.517829 126.886270\n")
        #expect(run.stderr.hasSuffix("locate: gpsd at \(receiver.endpoint) has no GPS device\n"), "\(run.stderr)")
        let status = try await runLocate(["status", receiver.endpoint])
        #expect(status.status == 69)
        #expect(status.stdout.contains("gpsd_state: gpsd at \(receiver.endpoint) has no GPS device"))
    }

    @Test func anUnknownDeviceGivesStatus69() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate([receiver.endpoint + ":/dev/no-such-gps", "--timeout", "5"])
        #expect(run.status == 69)
        #expect(run.stderr == "locate: gpsd at \(receiver.endpoint):/dev/no-such-gps refused: No such device as /dev/no-such-gps\n")
    }

    @Test func helpAndVersionGoToStdout() async throws {
        let help = try await runLocate(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: ") && help.stdout.contains("\nOPTIONS:\n") && help.stdout.contains("\nEXIT STATUS:\n"))
        let version = try await runLocate(["--version"])
        #expect(version.status == 0)
        #expect(
            version.stdout.hasPrefix("locate ") && version.stdout.contains("(built with libgps 3.") && version.stdout.contains(", API "))
    }

    @Test func usageErrorsGiveStatus64AndTheUsageLine() async throws {
        let run = try await runLocate(["--no-such-option"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("locate: error: unknown option '--no-such-option'\nUsage: locate"))
    }
}
