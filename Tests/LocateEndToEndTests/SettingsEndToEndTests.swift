import Foundation
import Testing

/// Malformed settings fail closed; live changes; reduced accuracy; end to end.
struct SettingsEndToEndTests {
    @Test(arguments: [
        ("[locaton]\nauthorization = always\n", ":1:2: unknown section [locaton]"),
        ("[location]\nauthorisation = always\n", ":2:1: unknown key 'authorisation' in [location]"),
        ("[location]\nauthorization = always\ntimeout = fast\n", ":3:11: bad value 'fast' for 'timeout'"),
        (
            "[location]\nauthorization = always\n[fallback]\nlatitude = 123.4\n",
            ":4:12: bad value '123.4' for 'latitude' (expected a number from -90 to 90)"
        ),
        ("[location]\nauthorization = \"always\n", ":2:17: unterminated quoted value"),
        ("[location]\nauthorization = always\n\u{7f}ELF\u{2}\u{1}\n", ":3:1: unexpected control character"),
    ])
    func aMalformedUserFileFailsClosed(content: String, error: String) async throws {
        let gpsd = try ListeningPort()
        let settings = try SettingsHome(user: content)
        for mode in [["--once"], ["--follow"]] {
            let run = try await runLocate(mode + [gpsd.endpoint], settings: settings)
            #expect(run.status == 78)
            #expect(run.stdout.isEmpty, "nothing on stdout, not even the fallback")
            #expect(run.stderr.hasPrefix("locate: \(settings.userFile.path)\(error)"), "\(run.stderr)")
        }
        #expect(!gpsd.wasConnected, "no gpsd connection")
    }

    @Test func aMalformedOrUnreadablePolicyFailsClosed() async throws {
        let gpsd = try ListeningPort()
        let malformed = try SettingsHome(user: "[location]\nauthorization = always\n", policy: "[location]\nauthorization = always\n")
        let run = try await runLocate([gpsd.endpoint], settings: malformed)
        #expect(run.status == 78 && run.stdout.isEmpty)
        #expect(run.stderr.contains("policy.conf:2:17: bad value 'always' for 'authorization' (expected restricted)"))

        let unreadable = try SettingsHome(user: "[location]\nauthorization = always\n")
        try FileManager.default.createDirectory(at: unreadable.policyFile, withIntermediateDirectories: true)
        let unreadableRun = try await runLocate([gpsd.endpoint], settings: unreadable)
        #expect(unreadableRun.status == 78 && unreadableRun.stdout.isEmpty)
        #expect(unreadableRun.stderr == "locate: \(unreadable.policyFile.path): is not a regular file (a directory)\n")
        #expect(!gpsd.wasConnected)
    }

    /// How soon the revoke takes effect rests on the watcher (SettingsWatcherTests: every change is
    /// seen at the next check, and checks come at least every 200 ms); here the bound is generous,
    /// so a loaded machine does not fail what a quiet one passes.
    @Test func aRevokeDuringFollowStopsLiveFixesAndAGrantResumes() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["--follow", "--json", receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "two live fixes") { run.stdout.lines.count >= 2 }

        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        try await run.stdout.wait(for: "the fallback record after the revoke") {
            run.stdout.lines.last?.contains("\"source\":\"fallback\"") == true
        }
        let revokedAt = run.stdout.lines.count
        #expect(run.stdout.lines.last?.contains("\"reason\":\"denied\"") == true)
        try await run.stderr.wait(for: "the revoke message") { run.stderr.text.contains("location permission is denied") }

        try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        try await run.stdout.wait(for: "live fixes again after the grant") {
            run.stdout.lines.count > revokedAt && run.stdout.lines.last?.contains("\"source\":\"gpsd\"") == true
        }
        run.signal(SIGTERM)
        #expect(try await run.waitForExit() == 0)
        let sources = try run.stdout.lines.map { try jsonObject($0)["source"] as? String }
        let fallbackIndex = try #require(sources.firstIndex(of: "fallback"))
        #expect(sources[fallbackIndex...].dropFirst().allSatisfy { $0 == "gpsd" }, "one fallback record, then live fixes")
        #expect(run.stderr.text.contains("location is authorized again (always); resuming"))
    }

    /// Dotfile managers (stow, home-manager, chezmoi) make locate.conf a link into another
    /// directory and replace the file there: a revoke made that way must still be seen.
    @Test(arguments: ["file link", "directory link"])
    func aRevokeThroughASymbolicLinkIsSeen(kind: String) async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome()
        let dotfiles = settings.root.appendingPathComponent("dotfiles/locate")
        let target = dotfiles.appendingPathComponent("locate.conf")
        try settings.write("[location]\nauthorization = always\n", to: target)
        let configDirectory = settings.userFile.deletingLastPathComponent()
        if kind == "file link" {
            try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: settings.userFile, withDestinationURL: target)
        } else {
            try FileManager.default.createDirectory(at: configDirectory.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: configDirectory, withDestinationURL: dotfiles)
        }
        let run = try startLocate(["--follow", "--json", receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "a live fix") { run.stdout.lines.contains { $0.contains("\"source\":\"gpsd\"") } }
        try settings.write("[location]\nauthorization = denied\n", to: target)
        try await run.stdout.wait(for: "the fallback after a revoke through the link") {
            run.stdout.lines.last?.contains("\"reason\":\"denied\"") == true
        }
        run.signal(SIGTERM)
        #expect(try await run.waitForExit() == 77)
    }

    @Test func reducedAccuracyGivesTheCellCentreOnlyAndTheMeanIsTheCentre() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome(user: "[app \"weather\"]\nauthorization = always\naccuracy = reduced\n")
        var coordinates: [(Double, Double)] = []
        for _ in 0..<5 {
            let run = try await runLocate(["--json", "--app", "weather", receiver.endpoint], settings: settings)
            #expect(run.status == 0)
            let record = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
            #expect(record["accuracy"] as? String == "reduced")
            #expect((record["h_acc"] as? Double ?? 0) > 5000)
            #expect(record["alt_msl"] is NSNull && record["speed"] is NSNull && record["course"] is NSNull)
            coordinates.append((record["lat"] as? Double ?? 0, record["lon"] as? Double ?? 0))
            #expect(!run.stdout.contains("64.15") && !run.stdout.contains("-21.94"), "no trace of the precise position")
        }
        let first = try #require(coordinates.first)
        #expect(coordinates.allSatisfy { $0 == first }, "one cell, one point")
        let meanLatitude = coordinates.map(\.0).reduce(0, +) / Double(coordinates.count)
        #expect(abs(meanLatitude - first.0) < 1e-9)
        #expect(abs(first.0 - 64.1504321) > 0.01 || abs(first.1 + 21.9404567) > 0.01, "not the precise position")

        // A reduced stream gives its first record at once, then none for five minutes: while it
        // runs, a full-accuracy stream sees five more epochs of the same receiver.
        let follow = try startLocate(["--follow", "--json", "--app", "weather", receiver.endpoint], settings: settings)
        try await follow.stdout.wait(for: "the first reduced record") { !follow.stdout.lines.isEmpty }
        #expect(try await runLocate(["--follow", "--count", "5", receiver.endpoint]).status == 0)
        follow.signal(SIGTERM)
        #expect(try await follow.waitForExit() == 0)
        #expect(follow.stdout.lines.count == 1, "at most one record per five minutes")
    }

    @Test func aFollowSentToTheBackgroundPausesAndResumesInTheForeground() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[location]\nauthorization = when-in-use\n")
        let output = settings.root.appendingPathComponent("follow.out").path
        let errors = settings.root.appendingPathComponent("follow.err").path
        // An interactive-like shell with job control: start locate in the background, wait for it
        // to say it paused, bring it to the foreground, wait for a new record, then stop it.
        let script = """
            '\(Package.locate.path)' --follow --json '\(receiver.endpoint)' > '\(output)' 2> '\(errors)' &
            follower=$!
            until grep -q paused '\(errors)' 2>/dev/null; do sleep 0.05; done
            ( until grep -q resumed '\(errors)' 2>/dev/null; do sleep 0.05; done
              until [ "$(grep -c '"source":"gpsd"' '\(output)')" -ge 2 ]; do sleep 0.05; done
              kill -INT $follower ) &
            fg %1 > /dev/null
            """
        let run = try RunningProcess(
            Package.root.appendingPathComponent("Scripts/with-terminal"),
            ["--", "/bin/bash", "-m", "-c", script], environment: settings.environment)
        _ = try await run.waitForExit(timeout: 40)
        let errorText = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        let outputText = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(errorText.contains("locate: paused: location is allowed only while in use, and locate is in the background"))
        #expect(errorText.contains("locate: resumed: locate is in the foreground again"))
        #expect(!outputText.contains("fallback"), "a paused stream prints no fallback")
        #expect(outputText.split(separator: "\n").count >= 2)
    }
}
