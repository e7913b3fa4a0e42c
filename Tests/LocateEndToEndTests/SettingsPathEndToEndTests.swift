import Foundation
import Testing

/// The way to the settings and the cache, end to end, with `nobody` (uid 65534) as the hostile
/// local user, planting links and files with `setpriv`: every directory on the way is checked as
/// the path is walked (those that hold a link included, before it is followed), a shared sticky
/// directory never holds the settings, and nothing is made or written under a directory someone
/// else controls. A refused way is status 78 with one line naming the directory at fault, and
/// no position, not even the fallback.
struct SettingsPathEndToEndTests {
    private static let always = "[location]\nauthorization = always\n"

    /// Runs `arguments` as nobody, and waits for it to end.
    private func asNobody(_ arguments: [String]) async throws {
        let run = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments)
        let status = try await run.waitForExit(timeout: 10)
        guard status == 0 else { throw HarnessError(description: "as nobody, \(arguments) failed (\(status)): \(run.stderr.text)") }
    }

    /// A directory in `home` that nobody owns (mode 0755).
    private func nobodysDirectory(in home: SettingsHome, _ name: String = "attacker") throws -> URL {
        let directory = home.root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        #expect(chown(directory.path, 65534, 65534) == 0)
        return directory
    }

    private func refusedBecauseNobodyOwns(_ directory: URL, file: String) -> String {
        "locate: \(file): cannot be trusted: \(directory.path) is owned by another user (uid 65534), who could replace what it holds; keep the file in a directory of your own\n"
    }

    /// nobody points a link of theirs at your settings directory (`XDG_CONFIG_HOME` goes through
    /// it): then at another directory of yours while you deny, and back. Checking only where the
    /// link leads (your directories) would let the deny land elsewhere and the `always` stand.
    @Test func aLinkOfAnotherUsersOnTheWayCannotUndoADeny() async throws {
        guard geteuid() == 0 else { return }  // setpriv to another user needs root
        let receiver = try await GpsdServer(track: "weather")
        let home = try SettingsHome(reachableByOtherUsers: true)
        let real = home.root.appendingPathComponent("real")
        let realFile = real.appendingPathComponent("locate/locate.conf")
        try home.write(Self.always, to: realFile)
        let other = home.root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: false)
        let attacker = try nobodysDirectory(in: home)
        let link = attacker.appendingPathComponent("cfg")
        let environment = ["XDG_CONFIG_HOME": link.path]
        let refusal = refusedBecauseNobodyOwns(attacker, file: link.path + "/locate/locate.conf")

        try await asNobody(["ln", "-sfn", real.path, link.path])
        let status = try await runLocate(["permission", "status"], settings: home, environment: environment)
        #expect(status.status == 78 && status.stdout.isEmpty, "\(status)")
        #expect(status.stderr == refusal)

        try await asNobody(["ln", "-sfn", other.path, link.path])
        let deny = try await runLocate(["permission", "deny"], settings: home, environment: environment)
        #expect(deny.status == 78 && deny.stdout.isEmpty, "\(deny)")
        #expect(deny.stderr == refusal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).isEmpty, "nothing written where the link pointed")

        try await asNobody(["ln", "-sfn", real.path, link.path])
        for arguments in [[receiver.endpoint], ["--json", receiver.endpoint], ["--follow", receiver.endpoint]] {
            let run = try await runLocate(arguments, settings: home, environment: environment)
            #expect(run.status == 78, "\(arguments): \(run.status)")
            #expect(run.stdout.isEmpty, "\(arguments): no position, not even the fallback: \(run.stdout)")
            #expect(run.stderr == refusal, "\(arguments)")
            #expect(!leaksParkedCoordinate(run.stdout + run.stderr, known: [home.root.path, receiver.endpoint]), "\(arguments)")
        }
        #expect(try String(contentsOf: realFile, encoding: .utf8) == Self.always, "the settings themselves were never touched")
    }

    /// A `locate` in a configuration home that nobody owns is refused whether it is their link to
    /// your settings directory or a directory: either can be swapped for the other at any time.
    @Test(arguments: ["link", "directory"])
    func aLocateDirectoryInAnotherUsersConfigHomeIsRefused(kind: String) async throws {
        guard geteuid() == 0 else { return }
        let gpsd = try ListeningPort()
        let home = try SettingsHome(user: Self.always, reachableByOtherUsers: true)
        let attacker = try nobodysDirectory(in: home)
        let planted = attacker.appendingPathComponent("locate")
        if kind == "link" {
            try await asNobody(["ln", "-s", home.userFile.deletingLastPathComponent().path, planted.path])
        } else {
            try home.write(Self.always, to: planted.appendingPathComponent("locate.conf"))
        }
        let refusal = refusedBecauseNobodyOwns(attacker, file: planted.path + "/locate.conf")
        for arguments in [["permission", "status"], [gpsd.endpoint], ["--follow", gpsd.endpoint], ["permission", "deny"]] {
            let run = try await runLocate(arguments, settings: home, environment: ["XDG_CONFIG_HOME": attacker.path])
            #expect(run.status == 78, "\(kind) \(arguments): \(run.status)")
            #expect(run.stdout.isEmpty, "\(kind) \(arguments)")
            #expect(run.stderr == refusal, "\(kind) \(arguments)")
        }
        #expect(!gpsd.wasConnected)
        #expect(try String(contentsOf: home.userFile, encoding: .utf8) == Self.always, "nothing edited through the link")
    }

    /// `~/.config/locate` is a link to a shared sticky directory of root's, where nobody puts a
    /// lock file of theirs (the sticky bit keeps them from taking yours away, not from putting
    /// theirs beside it): the settings there are refused, for reading as for a deny.
    @Test func aSharedStickyDirectoryCannotHoldTheSettings() async throws {
        guard geteuid() == 0 else { return }
        let gpsd = try ListeningPort()
        let home = try SettingsHome(reachableByOtherUsers: true)
        let shared = home.root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        #expect(chmod(shared.path, 0o1777) == 0)
        try home.write(Self.always, to: shared.appendingPathComponent("locate.conf"))
        try FileManager.default.createDirectory(
            at: home.userFile.deletingLastPathComponent().deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: home.userFile.deletingLastPathComponent(), withDestinationURL: shared)
        try await asNobody(["touch", shared.appendingPathComponent(".locate.conf.lock").path])
        let refusal =
            "locate: \(home.userFile.path): cannot be trusted: \(shared.path) is writable by others (mode 1777), who could put files of their own beside yours; keep the file in a directory of your own\n"
        for arguments in [["permission", "deny"], ["permission", "status"], [gpsd.endpoint], ["--follow", gpsd.endpoint]] {
            let run = try await runLocate(arguments, settings: home)
            #expect(run.status == 78, "\(arguments): \(run.status)")
            #expect(run.stdout.isEmpty, "\(arguments)")
            #expect(run.stderr == refusal, "\(arguments)")
        }
        #expect(!gpsd.wasConnected)
    }

    /// A settings directory that does not exist yet, under a directory nobody owns: the editor
    /// refuses before it makes anything there (no directory, no lock, no file).
    @Test func nothingIsMadeUnderAnotherUsersDirectory() async throws {
        guard geteuid() == 0 else { return }
        let gpsd = try ListeningPort()
        let home = try SettingsHome(reachableByOtherUsers: true)
        let attacker = try nobodysDirectory(in: home)
        let configHome = attacker.appendingPathComponent("cfg")
        let refusal = refusedBecauseNobodyOwns(attacker, file: configHome.path + "/locate/locate.conf")
        for arguments in [["permission", "allow"], ["permission", "deny"], ["permission", "status"], [gpsd.endpoint]] {
            let run = try await runLocate(arguments, settings: home, environment: ["XDG_CONFIG_HOME": configHome.path])
            #expect(run.status == 78, "\(arguments): \(run.status)")
            #expect(run.stdout.isEmpty, "\(arguments)")
            #expect(run.stderr == refusal, "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: attacker.path).isEmpty, "\(arguments): nothing made there")
        }
        #expect(!gpsd.wasConnected)
    }

    /// A cache under a directory nobody owns is not used (one line says so) and nothing is made
    /// there; the fix is still printed.
    @Test func aCacheUnderAnotherUsersDirectoryIsNotUsedAndNothingIsMadeThere() async throws {
        guard geteuid() == 0 else { return }
        let receiver = try await GpsdServer(track: "weather", restamp: true)
        let home = try SettingsHome(user: Self.always, reachableByOtherUsers: true)
        let attacker = try nobodysDirectory(in: home)
        let cache = attacker.appendingPathComponent("cache")
        let run = try await runLocate([receiver.endpoint], settings: home, environment: ["XDG_CACHE_HOME": cache.path])
        #expect(run.status == 0 && run.stdout == "64.150432 -21.940457\n", "\(run)")
        #expect(
            run.stderr
                == "locate: not using the cache \(cache.path)/locate: it cannot be trusted: \(attacker.path) is owned by another user (uid 65534), who could replace what it holds; keep the file in a directory of your own\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: attacker.path).isEmpty, "no directory made there, no fix kept")
    }
}
