import Foundation
import Testing

/// `locate monitor --by KEY`: a generated fleet (50 devices, 20 regions, Scripts/fleet/make-fleet)
/// piped in as `mosquitto_sub -v` lines and as OwnTracks JSON; the transitions must be the ones
/// the script's independent reference computes, per device and in each device's order.
struct FleetEndToEndTests {
    /// The fleet in a fresh directory of `settings`, and the `--region` arguments.
    private func fleet(in settings: SettingsHome) async throws -> (directory: String, regions: String) {
        let directory = settings.root.appendingPathComponent("fleet").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = try await runShell(
            "\(Package.root.appendingPathComponent("Scripts/fleet/make-fleet").path) 50 20 6 25 \(directory)", settings: settings)
        #expect(made.status == 0, "\(made.stderr)")
        let regions = readWholeFile(directory + "/regions.txt").split(separator: "\n").map { "--region \($0)" }.joined(separator: " ")
        return (directory, regions)
    }

    /// Each device's events, "DEVICE REGION EVENT STATE", in its own order.
    private func perDevice(_ lines: [String]) -> [String: [String]] {
        Dictionary(grouping: lines, by: { String($0.prefix { $0 != " " }) })
    }

    @Test(arguments: [("topic", "mqtt.txt"), ("tid", "owntracks.jsonl")])
    func aFleetGivesTheReferenceTransitionsPerDevice(key: String, input: String) async throws {
        let settings = try SettingsHome()
        let (directory, regions) = try await fleet(in: settings)
        let run = try await runShell(
            "\(Package.locate.path) monitor --by \(key) --replay - --json \(regions) < \(directory)/\(input)", settings: settings)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let got = try run.stdout.split(separator: "\n").map { line in
            let record = try jsonObject(String(line))
            let device = (record["device"] as? String ?? "-").split(separator: "/").last.map(String.init) ?? "-"
            return [device, record["region"] as? String ?? "-", record["event"] as? String ?? "-", record["state"] as? String ?? "-"]
                .joined(separator: " ")
        }
        let expected = readWholeFile(directory + "/expected.txt").split(separator: "\n").map(String.init)
        #expect(got.count == expected.count && got.count > 1000)
        #expect(perDevice(got) == perDevice(expected))
        // Nothing of another device's position is kept on this machine.
        #expect(!FileManager.default.fileExists(atPath: settings.root.appendingPathComponent("cache").path))
        #expect(!FileManager.default.fileExists(atPath: settings.root.appendingPathComponent("state").path))
    }

    @Test(arguments: ["mqtt.txt", "owntracks.jsonl"])
    func oneDevicesMessagesAreATrackForReplay(input: String) async throws {
        let settings = try SettingsHome()
        let (directory, regions) = try await fleet(in: settings)
        let run = try await runShell(
            "grep van0007 \(directory)/\(input) | \(Package.locate.path) monitor --replay - --replay-speed 0 --json \(regions)",
            settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        let got = try run.stdout.split(separator: "\n").map { line in
            let record = try jsonObject(String(line))
            return ["van0007", record["region"] as? String ?? "-", record["event"] as? String ?? "-", record["state"] as? String ?? "-"]
                .joined(separator: " ")
        }
        let expected = readWholeFile(directory + "/expected.txt").split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("van0007 ")
        }
        #expect(got == expected && !got.isEmpty)
    }

    @Test func hostileLinesAreSkippedOnTheirLineAndTheRestStillCounts() async throws {
        let settings = try SettingsHome()
        let good = #"fleet/a {"_type":"location","lat":52.0,"lon":13.0,"tst":1767225600,"acc":5}"#
        let lines = [
            "{not json", "fleet/\u{1B}[2J " + #"{"_type":"location","lat":1,"lon":2}"#, "fleet/b " + String(repeating: "x", count: 200_000),
            #"fleet/c {"_type":"location","lat":95,"lon":2}"#, #"fleet/d {"_type":"transition","lat":1,"lon":2}"#, "\u{0}\u{1}", good,
        ]
        let file = settings.root.appendingPathComponent("hostile.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let run = try await runShell(
            "\(Package.locate.path) monitor --by topic --replay - --region home=52.0,13.0,100 < \(file.path)", settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("fleet/a initial inside 52.000000 13.000000 2026-01-01T00:00:00.000Z home"), "\(run.stdout)")
        for line in [1, 2, 3, 4, 6] { #expect(run.stderr.contains("standard input:\(line): skipped: "), "\(line): \(run.stderr)") }
        #expect(!run.stderr.contains("standard input:5:") && !run.stderr.contains("\u{1B}"), "\(run.stderr)")
        // A line longer than 1 MiB cannot be read past: status 65, naming its line.
        try Data((good + "\n" + String(repeating: "y", count: 3_000_000) + "\n").utf8).write(to: file)
        let huge = try await runShell(
            "\(Package.locate.path) monitor --by topic --replay - --region home=52.0,13.0,100 < \(file.path)", settings: settings)
        #expect(huge.status == 65 && huge.stdout.contains("fleet/a initial") && huge.stderr.contains("standard input:2:"), "\(huge.stderr)")
        let usage = try await runLocate(["monitor", "--by", "tid", "--region", "home=52.0,13.0,100"], settings: settings)
        #expect(usage.status == 64 && usage.stderr.contains("--replay"), "\(usage.stderr)")
    }
}
