import Foundation
import Testing

/// The gate per record, end to end, as a hostile local user and a slow reader would try it: what
/// is derived from a fix (region events, the `--until` decision) passes the gate one record at a
/// time, a settings directory someone else controls is refused, a settings file malformed for a
/// moment pauses a stream instead of ending it, and precise location switched off takes the
/// precise fix out of the cache. A real gpsd replays the parked track (64.1504321 N, 21.9404567 W).
@Suite
struct GateEndToEndTests {
    /// Regions around the parked receiver, each with an `initial inside` from the first fix:
    /// hundreds of records, made at once, written one by one into a pipe nobody reads.
    private static let manyRegions = (0..<400).flatMap { ["--region", "r\($0)=64.15,-21.94,\(2_000 + $0)"] }

    /// A change of the authorization (a deny, precise location off) while hundreds of events of one
    /// fix wait for a reader that stopped reading: after it, the reader gets only what was already
    /// in the pipe and the one write under way; the `--until` that a later event would have met is
    /// never met (the status is 77, not 0).
    @Test(arguments: ["deny", "reduced", "until"])
    func theEventsOfOneFixStopAtAChange(change: String) async throws {
        let gpsd = try await GpsdServer(track: "weather")
        let settings = try SettingsHome.allowingAlways()
        let until = change == "until" ? ["--until", "inside:r399"] : []
        let slow = try SlowReader(["monitor", "--json"] + Self.manyRegions + until + [gpsd.endpoint], settings: settings)
        try await slow.waitUntilFull(leavingAtMost: 200)
        let revoked =
            change == "reduced" ? "[location]\nauthorization = always\naccuracy = reduced\n" : "[location]\nauthorization = denied\n"
        try settings.write(revoked, to: settings.userFile)
        // The change is seen within a 200 ms tick; nothing outside marks it (the writer is blocked
        // on the full pipe), so this one wait is a fixed one, five ticks long.
        try await Task.sleep(for: .seconds(1))
        let reader = slow.reader()
        try await waitUntil(timeout: 20, failing: HarnessError(description: "monitor did not end")) { !slow.process.isRunning }
        try await reader.wait(for: "the end of the output") { reader.isEnded }
        let events = reader.lines.filter { $0.contains("\"type\":\"region\"") }
        let bytes = events.reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(bytes <= 4096 + 512, "\(events.count) events (\(bytes) bytes): only the pipe's and one write's worth may be")
        #expect(events.count < 100)
        #expect(!events.contains { $0.contains("\"region\":\"r399\"") }, "the --until region's event comes after the change")
        #expect(slow.process.terminationStatus == 77, "\(change): \(slow.process.terminationStatus ?? -1)")
    }

    /// Another user who controls the directory of your settings could move your `always` aside,
    /// wait for your deny and move it back: such a directory (or one above it) is refused, with a
    /// message naming it, before gpsd is asked and before anything is edited.
    @Test(arguments: ["foreign", "world-writable", "group-writable", "foreign above", "foreign policy"])
    func aSettingsDirectoryOthersControlIsStatus78(kind: String) async throws {
        guard geteuid() == 0 else { return }  // chown needs root
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n", policy: "[location]\n")
        let gpsd = try ListeningPort()
        let directory = settings.userFile.deletingLastPathComponent()
        let named: URL
        switch kind {
        case "foreign":
            chown(directory.path, 65534, 65534)
            named = directory
        case "world-writable":
            chmod(directory.path, 0o777)
            named = directory
        case "group-writable":
            chmod(directory.path, 0o775)
            named = directory
        case "foreign above":
            named = directory.deletingLastPathComponent()
            chown(named.path, 65534, 65534)
        default:
            named = settings.policyFile.deletingLastPathComponent()
            chown(named.path, 65534, 65534)
        }
        for arguments in [
            [gpsd.endpoint], ["permission", "deny"], ["--follow", gpsd.endpoint], ["monitor", "--region", "a=1,1,10", gpsd.endpoint],
        ] {
            let run = try await runLocate(arguments, settings: settings, timeout: 10)
            #expect(run.status == 78, "\(kind) \(arguments): \(run.status)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("\(named.path) is "), "\(kind) \(arguments): \(run.stderr)")
        }
        #expect(!gpsd.wasConnected)
        // A deny is kept even beside an untrusted policy (it only restricts); nothing else is edited.
        let kept = try String(contentsOf: settings.userFile, encoding: .utf8)
        #expect(kept == "[location]\nauthorization = \(kind == "foreign policy" ? "denied" : "always")\n", "\(kind): \(kept)")
    }

    /// A settings file that an editor saves in two steps, or that has a typo for a second, pauses
    /// a running stream (a `settings_invalid` event with the file, line and column; no position
    /// meanwhile) and the stream resumes when the file reads again, for --follow and monitor alike.
    @Test(arguments: ["follow", "monitor"])
    func aSettingsFileMalformedForAMomentPausesAStream(command: String) async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let arguments =
            command == "follow"
            ? ["--follow", "--json", "--events", gpsd.endpoint]
            : ["monitor", "--json", "--events", "--region", "near=64.14,-21.91,50000", "--region", "far=0,0,10", gpsd.endpoint]
        let run = try startLocate(arguments, settings: settings)
        try await run.stdout.wait(for: "a first record") { run.stdout.lines.contains { !$0.contains("\"type\":\"status\"") } }
        try settings.write("[location]\nauthorization = alw\n", to: settings.userFile)
        try await run.stdout.wait(for: "the pause") { run.stdout.text.contains("\"event\":\"settings_invalid\"") }
        let paused = run.stdout.lines.count
        try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        try await run.stdout.wait(for: "the resumption") { run.stdout.text.contains("\"event\":\"authorization_changed\"") }
        if command == "follow" {
            try await run.stdout.wait(for: "fixes again") {
                run.stdout.lines.dropFirst(paused).contains { $0.contains("\"type\":\"fix\"") }
            }
        } else {
            // A new authorization starts the monitor afresh: its regions' initial events come again.
            try await run.stdout.wait(for: "events again") { run.stdout.lines.dropFirst(paused).contains { $0.contains("\"initial\"") } }
        }
        #expect(run.process.isRunning, "the stream did not end")
        run.signal(SIGINT)
        #expect(try await run.waitForExit() == 0)
        let pause = try #require(run.stdout.lines.first { $0.contains("settings_invalid") })
        let event = try jsonObject(pause)
        #expect(event["file"] as? String == settings.userFile.path && event["line"] as? Int == 2 && event["column"] as? Int == 17)
        let duringPause = run.stdout.lines.drop { !$0.contains("settings_invalid") }.prefix { !$0.contains("authorization_changed") }
        #expect(!duringPause.contains { !$0.contains("\"type\":\"status\"") }, "no position while the file could not be read")
        #expect(!duringPause.contains { $0.contains("\"source\":\"fallback\"") })
    }

    /// Precise location switched off: the precise fix kept in the cache goes, the next time the
    /// settings are read.
    @Test func switchingPreciseLocationOffTakesThePreciseFixOutOfTheCache() async throws {
        let gpsd = try await GpsdServer(track: "weather")
        let settings = try SettingsHome.allowingAlways()
        #expect(try await runLocate([gpsd.endpoint], settings: settings).status == 0)
        #expect(leaksParkedCoordinate(try String(contentsOf: settings.cacheFile, encoding: .utf8)), "the precise fix is kept")
        try settings.write("[location]\nauthorization = always\naccuracy = reduced\n", to: settings.userFile)
        let status = try await runLocate(["permission", "status"], settings: settings)
        #expect(status.status == 0)
        let cached = (try? String(contentsOf: settings.cacheFile, encoding: .utf8)) ?? ""
        #expect(!leaksParkedCoordinate(cached), "precise fix left in the cache: \(cached)")
    }

    /// A killed edit leaves its temporary file (a whole settings file, perhaps an `always`);
    /// the next edit removes it.
    @Test func theNextEditRemovesWhatAKilledEditLeft() async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n")
        let directory = settings.userFile.deletingLastPathComponent()
        let leftover = directory.appendingPathComponent(".locate.conf.new-3x7kq9")
        try Data("[location]\nauthorization = always\n".utf8).write(to: leftover)
        #expect(try await runLocate(["permission", "deny"], settings: settings).status == 0)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [".locate.conf.lock", "locate.conf"])
    }

    /// A closed stdout (`>&-`) must not lend its number to a file or socket `locate` opens: the
    /// record is a write error, status 74, and lands nowhere.
    @Test func aClosedStdoutIsStatus74() async throws {
        let settings = try SettingsHome.allowingAlways()
        let run = try await runShell(
            "'\(Package.locate.path)' --replay '\(Package.track("commute").path)' --follow --replay-speed 0 >&-", settings: settings)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("cannot write to standard output: it is closed"))
        #expect(!settings.allFiles().contains { $0.content.count > 0 && String(decoding: $0.content, as: UTF8.self).contains("64.1") })
    }
}
