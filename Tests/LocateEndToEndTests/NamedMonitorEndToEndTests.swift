import Foundation
import Testing

/// `locate monitor --name`: a monitor that remembers its regions' states between runs, as a cron
/// job or a systemd timer runs it, over replayed track pieces (exact receiver times), and the
/// consent rules of what it keeps.
struct NamedMonitorEndToEndTests {
    static let home = "home=52.5,13.0,1000"

    /// A track piece of one fix at `latitude` (home's longitude), at 00:MM:00 on 2026-01-01.
    private func piece(_ latitude: Double, minute: Int, in settings: SettingsHome) throws -> String {
        let file = settings.root.appendingPathComponent("piece-\(minute).jsonl")
        let time = "2026-01-01T00:\(String(format: "%02d", minute)):00Z"
        try Data("{\"type\":\"fix\",\"lat\":\(latitude),\"lon\":13.0,\"time\":\"\(time)\",\"h_acc\":5}\n".utf8).write(to: file)
        return file.path
    }

    private func monitor(_ track: String, _ settings: SettingsHome) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await runLocate(["monitor", "--name", "commute", "--region", Self.home, "--replay", track, "--json"], settings: settings)
    }

    private func events(_ text: String) throws -> [String] {
        try text.split(separator: "\n").map { line in
            let record = try jsonObject(String(line))
            return ["event", "state", "time", "since"].map { (record[$0] as? String) ?? "-" }.joined(separator: " ")
        }
    }

    @Test func threeRunsGiveInitialThenEnterThenExitWithTheStatesTimes() async throws {
        let settings = try SettingsHome.allowingAlways()
        let outside = try await monitor(try piece(52.0, minute: 1, in: settings), settings)
        #expect(outside.status == 0, "\(outside.stderr)")
        #expect(try events(outside.stdout) == ["initial outside 2026-01-01T00:01:00.000Z -"])
        let inside = try await monitor(try piece(52.5, minute: 2, in: settings), settings)
        #expect(try events(inside.stdout) == ["enter inside 2026-01-01T00:02:00.000Z 2026-01-01T00:01:00.000Z"])
        // Still inside: nothing changed since the last run, so nothing is reported.
        let still = try await monitor(try piece(52.5001, minute: 3, in: settings), settings)
        #expect(still.status == 0 && still.stdout.isEmpty, "\(still.stdout)\(still.stderr)")
        let away = try await monitor(try piece(52.0, minute: 4, in: settings), settings)
        #expect(try events(away.stdout) == ["exit outside 2026-01-01T00:04:00.000Z 2026-01-01T00:02:00.000Z"])
        let kept = readWholeFile(settings.monitorFile("commute").path)
        #expect(kept.contains("\"state\":\"outside\"") && kept.contains("\"date\":1767225840.000"), "\(kept)")
        // A region moved since is a new condition: it starts again with `initial`.
        let moved = try await runLocate(
            [
                "monitor", "--name", "commute", "--region", "home=52.6,13.0,1000", "--replay", try piece(52.0, minute: 5, in: settings),
                "--json",
            ],
            settings: settings)
        #expect(try events(moved.stdout) == ["initial outside 2026-01-01T00:05:00.000Z -"])
    }

    @Test func aDenyOrAResetBetweenRunsLeavesNoStateAndADeniedRunKeepsNone() async throws {
        for purge in ["deny", "reset"] {
            let settings = try SettingsHome.allowingAlways()
            _ = try await monitor(try piece(52.0, minute: 1, in: settings), settings)
            #expect(FileManager.default.fileExists(atPath: settings.monitorFile("commute").path))
            let changed = try await runLocate(["permission", purge], settings: settings)
            #expect(changed.status == 0, "\(changed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: settings.monitorFile("commute").path), "\(purge)")
            if purge == "deny" {
                // A replay is data and still runs, but under a deny its state is not kept.
                let denied = try await monitor(try piece(52.5, minute: 2, in: settings), settings)
                #expect(try events(denied.stdout) == ["initial inside 2026-01-01T00:02:00.000Z -"], "\(denied.stderr)")
                #expect(!FileManager.default.fileExists(atPath: settings.monitorFile("commute").path))
            }
        }
    }

    @Test func reducedAccuracyKeepsNoState() async throws {
        let settings = try SettingsHome.allowingAlways()
        _ = try await monitor(try piece(52.0, minute: 1, in: settings), settings)
        try settings.write("[location]\nauthorization = always\naccuracy = reduced\n", to: settings.userFile)
        let reduced = try await monitor(try piece(52.5, minute: 2, in: settings), settings)
        #expect(reduced.status == 0, "\(reduced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: settings.monitorFile("commute").path))
    }

    @Test func aStateFileAnotherUserOwnsOrOthersCanWriteOrThatIsCorruptIsRefused() async throws {
        let settings = try SettingsHome.allowingAlways()
        let track = try piece(52.0, minute: 1, in: settings)
        _ = try await monitor(track, settings)
        let file = settings.monitorFile("commute").path
        let good = readWholeFile(file)
        for (hostile, expected) in [
            ({ chmod(file, 0o620) }, "is writable by its group"), ({ chmod(file, 0o606) }, "is writable by others"),
            ({ chown(file, 65534, 65534) }, "is owned by another user"),
        ] as [(() -> Int32, String)] {
            #expect(hostile() == 0)
            let run = try await monitor(track, settings)
            #expect(run.status == 78 && run.stdout.isEmpty, "\(expected): \(run.stdout)")
            #expect(run.stderr.contains("\(file): \(expected)"), "\(run.stderr)")
            #expect(chown(file, geteuid(), getegid()) == 0 && chmod(file, 0o600) == 0)
        }
        for (corrupt, line) in [
            (good + "{\"region\":\"x\"}\n", 3), (good.replacingOccurrences(of: "\"format\":1", with: "\"format\":9"), 1),
            (good.replacingOccurrences(of: "\"outside\"", with: "\"sideways\""), 2), ("\u{1B}[2J\n", 1),
        ] {
            try Data(corrupt.utf8).write(to: URL(fileURLWithPath: file))
            let run = try await monitor(track, settings)
            #expect(run.status == 78 && run.stdout.isEmpty, "\(run.stdout)")
            #expect(run.stderr.contains("\(file):\(line): "), "\(run.stderr)")
        }
        // A state directory another user owns is refused before anything is printed, under any
        // authorization (denied too, where no state would be kept).
        let monitors = URL(fileURLWithPath: file).deletingLastPathComponent().path
        #expect(chown(monitors, 65534, 65534) == 0)
        for user in ["[location]\nauthorization = always\n", "[location]\nauthorization = denied\n"] {
            try Data(user.utf8).write(to: settings.root.appendingPathComponent("config/locate/locate.conf"))
            let run = try await monitor(track, settings)
            #expect(run.status == 78 && run.stdout.isEmpty, "\(user): \(run.stdout) \(run.stderr)")
        }
        #expect(chown(monitors, geteuid(), getegid()) == 0)
        try Data("[location]\nauthorization = always\n".utf8).write(to: settings.root.appendingPathComponent("config/locate/locate.conf"))
        let badName = try await runLocate(["monitor", "--name", "../escape", "--region", Self.home, "--replay", track], settings: settings)
        #expect(badName.status == 64 && badName.stderr.contains("is not a monitor name"), "\(badName.stderr)")
    }

    @Test func againstGpsdTheNextRunReportsAgainstTheLastAndADenyEndsIt() async throws {
        let receiver = try await GpsdServer(track: "commute", cycle: 0.05)
        let settings = try SettingsHome.allowingAlways()
        let stop = "stop=\(RegionEndToEndTests.stop.latitude),\(RegionEndToEndTests.stop.longitude),60"
        let arrive = try await runLocate(
            ["monitor", "--name", "live", "--region", stop, "--until", "inside:stop", "--json", receiver.endpoint], settings: settings)
        #expect(arrive.status == 0, "\(arrive.stderr)")
        #expect(readWholeFile(settings.monitorFile("live").path).contains("\"state\":\"inside\""))
        // The next run starts inside: its first event is a change, dated against the last run.
        let next = try await runLocate(
            ["monitor", "--name", "live", "--region", stop, "--count", "1", "--json", receiver.endpoint], settings: settings)
        #expect(next.status == 0, "\(next.stderr)")
        let event = try jsonObject(String(next.stdout.split(separator: "\n").first ?? ""))
        #expect(event["event"] as? String == "exit" && event["since"] is String, "\(next.stdout)")
        #expect(try await runLocate(["permission", "deny"], settings: settings).status == 0)
        #expect(!FileManager.default.fileExists(atPath: settings.monitorFile("live").path))
        let denied = try await runLocate(["monitor", "--name", "live", "--region", stop, receiver.endpoint], settings: settings)
        #expect(denied.status == 77 && denied.stdout.isEmpty, "\(denied.stderr)")
        #expect(!FileManager.default.fileExists(atPath: settings.monitorFile("live").path))
    }
}
