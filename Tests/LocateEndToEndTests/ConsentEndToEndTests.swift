import Foundation
import Testing

/// The consent store end to end, as a new user and a hostile local user would try it: files from
/// other systems, concurrent edits, dotfile links, files that must not be trusted, a cache in a
/// directory someone else can write, and the order of a deny and a fix in flight.
struct ConsentEndToEndTests {
    private static let fallbackText = "37.517829 126.886270\n"

    private func content(_ file: URL) throws -> String { try String(contentsOf: file, encoding: .utf8) }

    @Test func aDenyIsSavedInAFileWithCRLFLineEnds() async throws {
        let original = "# written on Windows\r\n[location]\r\nauthorization = always\r\n[fallback]\r\nlatitude = 1\r\nlongitude = 2"
        let settings = try SettingsHome(user: original)
        let deny = try await runLocate(["permission", "deny"], settings: settings)
        #expect(deny.status == 0, "\(deny.stderr)")
        #expect(
            try content(settings.userFile)
                == "# written on Windows\r\n[location]\r\nauthorization = denied\r\n[fallback]\r\nlatitude = 1\r\nlongitude = 2")
        let run = try await runLocate(["127.0.0.1:1"], settings: settings)
        #expect(run.status == 77 && run.stdout == "1.000000 2.000000\n", "the deny holds")
    }

    @Test func theTerminalPromptsDontAllowIsSavedInACRLFFile() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome(user: "\u{FEFF}[fallback]\r\nenabled = yes\r\n")
        let run = try await runLocateOnTerminal([receiver.endpoint], settings: settings, answer: "4")
        #expect(run.status == 77)
        #expect(run.stdout == Self.fallbackText)
        // Bytes, not a String: a decoder may drop the byte-order mark.
        #expect(
            try Data(contentsOf: settings.userFile)
                == Data("\u{FEFF}[fallback]\r\nenabled = yes\r\n\r\n[location]\r\nauthorization = denied\r\n".utf8))
    }

    @Test func twentyConcurrentAllowsKeepTwentySections() async throws {
        let settings = try SettingsHome(user: "[location]\nservices = on\n")
        let runs = try (0..<20).map { index in try startLocate(["permission", "allow", "--app", "app\(index)"], settings: settings) }
        var statuses: [Int32] = []
        for run in runs { statuses.append(try await run.waitForExit()) }
        #expect(statuses == Array(repeating: 0, count: 20))
        let file = try content(settings.userFile)
        for index in 0..<20 {
            #expect(file.contains("[app \"app\(index)\"]\nauthorization = when-in-use\naccuracy = full\n"), "app\(index) lost:\n\(file)")
        }
        let status = try await runLocate(["permission", "status", "--json"], settings: settings)
        #expect(status.stdout.split(separator: "\n").count == 21)
    }

    @Test func aDenyAmongConcurrentAllowsIsNeverLost() async throws {
        for round in 0..<5 {
            let settings = try SettingsHome(user: "[location]\nauthorization = always\n")
            var runs = try (0..<8).map { index in
                try startLocate(["permission", "allow", "--always", "--app", "app\(index)"], settings: settings)
            }
            runs.insert(try startLocate(["permission", "deny"], settings: settings), at: 4)
            var statuses: [Int32] = []
            for run in runs { statuses.append(try await run.waitForExit()) }
            #expect(statuses.allSatisfy { $0 == 0 }, "round \(round)")
            let file = try content(settings.userFile)
            #expect(file.hasPrefix("[location]\nauthorization = denied\n"), "round \(round): the deny was lost:\n\(file)")
            #expect(try await runLocate(["127.0.0.1:1"], settings: settings).status == 77, "round \(round)")
        }
    }

    @Test func denyingThroughADotfileLinkEditsTheTargetAndKeepsTheLink() async throws {
        let settings = try SettingsHome()
        let target = settings.root.appendingPathComponent("dotfiles/locate/locate.conf")
        try settings.write("[location]\nauthorization = always\n", to: target)
        try FileManager.default.createDirectory(at: settings.userFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: settings.userFile.path, withDestinationPath: target.path)
        #expect(try await runLocate(["permission", "deny"], settings: settings).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: settings.userFile.path) == target.path, "still the link")
        #expect(try content(target) == "[location]\nauthorization = denied\n")
        #expect(try await runLocate(["127.0.0.1:1"], settings: settings).status == 77)
    }

    /// A settings file that must not be trusted is refused, at once, naming it: nothing is
    /// printed and gpsd is not asked.
    @Test(arguments: ["FIFO", "world-writable", "group-writable", "foreign", "foreign policy"])
    func anUntrustedSettingsFileIsStatus78Promptly(kind: String) async throws {
        if kind.hasPrefix("foreign"), geteuid() != 0 { return }  // only root can give a file away
        let gpsd = try ListeningPort()
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n", policy: "[location]\nservices = on\n")
        var file = settings.userFile.path
        switch kind {
        case "FIFO":
            try FileManager.default.removeItem(atPath: file)
            #expect(mkfifo(file, 0o600) == 0)
        case "world-writable": chmod(file, 0o666)
        case "group-writable": chmod(file, 0o664)
        case "foreign": chown(file, 65534, 65534)
        default:
            file = settings.policyFile.path
            chown(file, 65534, 65534)
        }
        for arguments in [[gpsd.endpoint], ["--follow", gpsd.endpoint], ["status", gpsd.endpoint], ["permission", "deny"]] {
            let run = try await runLocate(arguments, settings: settings, timeout: 5)
            #expect(run.status == 78, "\(kind) \(arguments)")
            #expect(run.stdout.isEmpty, "\(kind) \(arguments)")
            #expect(run.stderr.hasPrefix("locate: \(file): "), "\(kind) \(arguments): \(run.stderr)")
        }
        #expect(!gpsd.wasConnected)
    }

    /// With `HOME` relative (and no XDG directories), nothing is ever written relative to the
    /// working directory: the home comes from the passwd entry (here, nobody's, which does not
    /// exist, so nothing can be written at all).
    @Test func aRelativeHomeWritesNothingRelative() async throws {
        guard geteuid() == 0 else { return }  // setpriv to another user needs root
        let settings = try SettingsHome()
        let workingDirectory = settings.root.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: workingDirectory, withIntermediateDirectories: true)
        chmod(settings.root.path, 0o755)
        chmod(workingDirectory.path, 0o777)
        let locate = try Package.locateForOtherUsers.get()
        let command =
            "cd '\(workingDirectory.path)' && exec setpriv --reuid=65534 --regid=65534 --clear-groups env -u XDG_CONFIG_HOME -u XDG_CACHE_HOME HOME=relative '\(locate.path)'"
        let allow = try await runShell(command + " permission allow", settings: settings)
        #expect(allow.status == 78, "\(allow.stderr)")
        #expect(allow.stderr.contains("/nonexistent"), "the passwd entry's home: \(allow.stderr)")
        let once = try await runShell(command + " 127.0.0.1:1", settings: settings)
        #expect(once.status == 77)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: workingDirectory.path).isEmpty,
            "nothing written relative to the working directory")
    }

    /// Another user who can write the cache directory could plant a fix to be served or links to
    /// receive the precise fix: such a directory is not used (one line says so), and the fix is
    /// still printed.
    @Test(arguments: ["world-writable", "foreign"])
    func aCacheDirectoryOthersCanWriteIsNotUsed(kind: String) async throws {
        if kind == "foreign", geteuid() != 0 { return }
        let receiver = try await GpsdServer(track: "weather", restamp: true)
        let settings = try SettingsHome.allowingAlways()
        let cache = settings.cacheFile.deletingLastPathComponent()
        let planted =
            #"{"format":2,"received":\#(Date().timeIntervalSince1970)}"# + "\n"
            + #"{"lat":10.5,"lon":20.5,"time":"\#(ISO8601DateFormatter().string(from: Date()))","mode":"3d","accuracy":"full"}"#
        try settings.write(planted, to: settings.cacheFile)
        if kind == "world-writable" { chmod(cache.path, 0o777) } else { chown(cache.path, 65534, 65534) }
        let cached = try await runLocate(["--max-age", "600", "--json", "127.0.0.1:1"], settings: settings)
        #expect(!cached.stdout.contains("10.5"), "the planted fix is not served: \(cached.stdout)")
        #expect(cached.status == 69)
        let live = try await runLocate([receiver.endpoint], settings: settings)
        #expect(live.status == 0 && live.stdout == "64.150432 -21.940457\n", "the fix is still printed")
        #expect(
            live.stderr
                == "locate: not using the cache \(cache.path): it is \(kind == "foreign" ? "owned by another user (uid 65534)" : "writable by others (mode 777)"), not yours alone\n"
        )
        #expect(try content(settings.cacheFile) == planted, "nothing written into it")
    }

    /// A `locate --once` in flight when the user denies never leaves a cache behind: the deny's
    /// purge and the fix being kept are ordered by the cache's lock.
    @Test func noCacheSurvivesADenyWithRequestsInFlight() async throws {
        let receiver = try await GpsdServer(track: "weather", restamp: true)
        // 60 rounds, 4 at a time (each in a home of its own): a quarter of the time they took
        // one after another, and more of the machine's interleavings.
        var raced = 0
        for group in stride(from: 0, to: 60, by: 4) {
            raced += try await withThrowingTaskGroup(of: Bool.self) { rounds in
                for round in group..<(group + 4) {
                    rounds.addTask {
                        let settings = try SettingsHome.allowingAlways()
                        var requests = try (0..<6).map { _ in try startLocate([receiver.endpoint], settings: settings) }
                        let deny = try startLocate(["permission", "deny"], settings: settings)
                        requests += try (0..<6).map { _ in try startLocate([receiver.endpoint], settings: settings) }
                        var statuses: Set<Int32> = []
                        for request in requests { statuses.insert(try await request.waitForExit()) }
                        #expect(try await deny.waitForExit() == 0)
                        #expect(
                            !FileManager.default.fileExists(atPath: settings.cacheFile.path),
                            "round \(round): a fix was kept after the deny")
                        #expect(statuses.isSubset(of: [0, 77]), "round \(round): \(statuses)")
                        // A round raced when requests were answered on both sides of the deny.
                        return statuses == [0, 77]
                    }
                }
                return try await rounds.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        // Rounds where the deny came after every request was answered, or before any was, test nothing.
        #expect(raced >= 10, "only \(raced) of 60 rounds had fixes on both sides of the deny")
    }

    /// Under reduced accuracy, `--accuracy` is not waited for: the grid cell comes at once, as
    /// iOS hands out the approximate location, so neither the status nor the timing says anything
    /// of the precise accuracy (17.1 m in this track).
    @Test func reducedAccuracyGivesTheSameStatusJustAboveAndBelowThePreciseAccuracy() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome(user: "[location]\nauthorization = always\naccuracy = reduced\n")
        var records: [[String: Any]] = []
        for accuracy in ["17.0", "17.2", "100", "6000"] {
            let run = try await runLocate(["--accuracy", accuracy, "--timeout", "10", "--json", receiver.endpoint], settings: settings)
            #expect(run.status == 0, "\(accuracy): \(run.stderr)")
            let record = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
            #expect(record["accuracy"] as? String == "reduced" && record["timed_out"] as? Bool == false, "\(accuracy): \(run.stdout)")
            records.append(record)
        }
        let cells = Set(records.map { "\($0["lat"] ?? "") \($0["lon"] ?? "")" })
        #expect(cells.count == 1, "the same cell whatever was asked: \(cells)")
    }

    /// A reader that stops reading keeps stream fixes queued; a revoke holds back every one of
    /// them, and the rest of the batch being written: after it, the reader gets only what was
    /// already in the pipe and the one piece (at most PIPE_BUF bytes) under way, then the fallback.
    @Test func aSlowReaderGetsNoQueuedFixAfterARevoke() async throws {
        let gpsd = try await GpsdServer(misbehaving: "flood")
        let settings = try SettingsHome.allowingAlways()
        let slow = try SlowReader(["--follow", "--json", gpsd.endpoint], settings: settings)
        // The stream fills the pipe (up to a piece's room, as pieces are cut at record ends),
        // then the queue behind it.
        try await slow.waitUntilFull(leavingAtMost: 400)
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        // The revoke is seen within a 200 ms tick; nothing outside marks it (the writer is blocked
        // on the full pipe), so this one wait is a fixed one, five ticks long.
        try await Task.sleep(for: .seconds(1))
        let reader = slow.reader()
        try await reader.wait(for: "the fallback after the revoke") { reader.lines.contains { $0.contains("\"source\":\"fallback\"") } }
        slow.process.signal(SIGTERM)
        let fixes = reader.lines.filter { $0.contains("\"source\":\"gpsd\"") }
        let fixBytes = fixes.reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(
            fixBytes <= 2 * 4096 + 512,
            "\(fixes.count) fixes (\(fixBytes) bytes) after the revoke: only the pipe's and one piece's worth may be")
        #expect(reader.lines.last?.contains("\"reason\":\"denied\"") == true)
    }

    @Test func theExampleGetsAFixAfterAllowOnceOnATerminal() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome()
        // The place index as a first run leaves it (building it is not what is tested here).
        try await settings.installPlaceIndex()
        let example = Package.locate.deletingLastPathComponent().appendingPathComponent("WeatherAndRun")
        let run = try RunningProcess(
            Package.root.appendingPathComponent("Scripts/with-terminal"),
            ["--expect", "[n]o: ", "--answer", "o", "--", example.path, receiver.endpoint, "1"],
            environment: settings.environment.merging(["LANGUAGE": "C", "LANG": "C.UTF-8"]) { $1 })
        #expect(try await run.waitForExit(timeout: 60) == 0)
        #expect(run.stdout.text.contains("here: 64.1"), "\(run.stdout.text)")
        #expect(!run.stdout.text.contains("not authorized"))
        #expect(!FileManager.default.fileExists(atPath: settings.userFile.path), "allow once keeps nothing")
    }
}
