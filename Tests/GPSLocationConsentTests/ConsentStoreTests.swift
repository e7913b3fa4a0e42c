import Foundation
import GPSLocation
import Glibc
import Synchronization
import Testing

@testable import GPSLocationConsent

/// The consent store as a host uses it: what it decides, what it refuses to trust, how it
/// follows changes, and the private cache it keeps.
@Suite(.timeLimit(.minutes(1)))
struct ConsentStoreTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-store-\(UUID().uuidString)")
    private var paths: SettingsPaths {
        SettingsPaths(
            userFile: directory.path + "/config/locate.conf", policyCandidates: [directory.path + "/etc/policy.conf"],
            cacheDirectory: directory.path + "/cache")
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private func store(app: String? = nil) throws -> ConsentStore {
        try ConsentStore(paths: paths, appName: app)
    }

    private static var fix: Location {
        get throws {
            try Location(latitude: 64.1504321, longitude: -21.9404567, time: Date(), horizontalAccuracy: 4, mode: .threeDimensional)
        }
    }

    private static func authorized(_ decision: AuthorizationDecision) -> Authorization {
        Authorization(decision: decision, appState: AppState.unattended)
    }

    @Test func decisionUpdatesReportTheDecisionAndEachChange() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try store()
        var updates = store.decisionUpdates().makeAsyncIterator()
        #expect(try await updates.next()?.status == .notDetermined)
        try store.allow(always: true)
        #expect(try await updates.next()?.status == .authorizedAlways)
        try write("[location]\nauthorization = restricted\n", to: paths.policyCandidates[0])
        #expect(try await updates.next()?.status == .restricted)
        // A file malformed for a moment authorizes nothing, and the updates go on when it mends.
        try write("[location]\nauthorization = sometimes\n", to: paths.userFile!)
        let broken = try #require(try await updates.next())
        #expect(broken.invalidSettings?.line == 2 && broken.invalidSettings?.file == paths.userFile)
        #expect(Self.authorized(broken).denial == .settingsInvalid)
        try write("[location]\nauthorization = always\n", to: paths.userFile!)
        #expect(try await updates.next()?.status == .restricted, "the policy still restricts")
    }

    @Test func aDenyAtThePromptIsKeptInACRLFFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("# from Windows\r\n[fallback]\r\nlatitude = 1\r\nlongitude = 2\r\n", to: paths.userFile!)
        struct Deny: AuthorizationPrompter {
            func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? { .deny }
        }
        let manager = GPSLocationManager(
            authorizationSource: try store(), appState: AppState.foreground)
        let authorization = try await manager.requestWhenInUseAuthorization(prompter: Deny())
        #expect(authorization.denial == .denied)
        #expect(
            try String(contentsOfFile: paths.userFile!, encoding: .utf8)
                == "# from Windows\r\n[fallback]\r\nlatitude = 1\r\nlongitude = 2\r\n\r\n[location]\r\nauthorization = denied\r\n")
    }

    /// A user file the store must not trust is refused (fail closed), naming the file, and a FIFO
    /// is refused at once instead of hanging the reader.
    @Test(arguments: ["world-writable", "group-writable", "foreign", "FIFO", "directory"])
    func refusesAUserFileItMustNotTrust(kind: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = paths.userFile!
        try write("[location]\nauthorization = always\n", to: file)
        switch kind {
        case "world-writable": chmod(file, 0o646)
        case "group-writable": chmod(file, 0o660)
        case "foreign":
            guard geteuid() == 0 else { return }  // only root can give a file away
            chown(file, 65534, 65534)
        case "FIFO":
            try FileManager.default.removeItem(atPath: file)
            mkfifo(file, 0o600)
        default:
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        }
        #expect { try store().currentDecision() } throws: { error in
            guard case .invalidSettings(let problem) = error as? GPSLocationError else { return false }
            return problem.file == file && problem.line == nil
        }
    }

    @Test func aPolicyMustBeRootsAlone() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("[location]\nauthorization = always\n", to: paths.userFile!)
        let policy = paths.policyCandidates[0]
        try write("[location]\naccuracy = reduced\n", to: policy)
        if geteuid() == 0 {
            #expect(try store().currentDecision().accuracy == .reducedAccuracy, "root's policy applies")
            chown(policy, 65534, 65534)
        }
        #expect { try store().currentDecision() } throws: { error in
            guard case .invalidSettings(let problem) = error as? GPSLocationError else { return false }
            return problem.file == policy && problem.message.contains("not owned by root")
        }
    }

    @Test func aRelativeOrMissingHomeIsNeverUsed() {
        for environment in [
            ["HOME": "relative/home"], ["HOME": ""], [:], ["HOME": "x", "XDG_CONFIG_HOME": "cfg", "XDG_CACHE_HOME": "cache"],
        ] {
            let paths = SettingsPaths(environment: environment)
            #expect(paths.userFile.map { $0.hasPrefix("/") } ?? true, "\(environment)")
            #expect(paths.cacheDirectory.map { $0.hasPrefix("/") } ?? true, "\(environment)")
            #expect(paths.policyCandidates.allSatisfy { $0.hasPrefix("/") })
        }
        #expect(SettingsPaths(environment: ["HOME": "x"]).userFile == SettingsPaths(environment: [:]).userFile, "the passwd entry's home")
    }

    @Test func keepsALocationOnlyWhileTheDecisionStands() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("[location]\nauthorization = always\n", to: paths.userFile!)
        let store = try store()
        let released = Self.authorized(try store.currentDecision())
        store.keep(try Self.fix, releasedUnder: released)
        #expect(try store.keptLocation()?.latitude == Self.fix.latitude)
        try store.deny()
        #expect(store.keptLocation() == nil, "a deny purges")
        store.keep(try Self.fix, releasedUnder: released)
        #expect(store.keptLocation() == nil, "released before the deny: never kept after it")
        #expect(!FileManager.default.fileExists(atPath: paths.cacheDirectory! + "/last-fix.json"))
    }

    @Test func aFixKeptMomentsAgoStaysUntilItIsFourSecondsOldOrPurged() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("[location]\nauthorization = always\n", to: paths.userFile!)
        let store = try store()
        let released = Self.authorized(try store.currentDecision())
        store.keep(try Self.fix, releasedUnder: released)
        let later = try Location(latitude: 64.2, longitude: -21.9, time: Date(), mode: .threeDimensional)
        store.keep(later, releasedUnder: released)
        #expect(store.keptLocation()?.latitude == 64.1504321, "the file is not replaced within 4 s")
        try store.deny()
        try store.allow(always: true)
        store.keep(later, releasedUnder: Self.authorized(try store.currentDecision()))
        #expect(store.keptLocation()?.latitude == 64.2, "once purged, the next fix is kept at once")
    }

    /// A switch to reduced accuracy read first by a stream's keep (which reads the files without
    /// purging) still leaves no precise fix in the cache.
    @Test func aKeepThatFindsReducedAccuracyRemovesAPreciseFix() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("[location]\nauthorization = always\n", to: paths.userFile!)
        let store = try store()
        let released = Self.authorized(try store.currentDecision())
        store.keep(try Self.fix, releasedUnder: released)
        #expect(store.keptLocation()?.accuracy == .fullAccuracy)
        try write("[location]\nauthorization = always\naccuracy = reduced\n", to: paths.userFile!)
        store.keep(try Self.fix, releasedUnder: released)
        #expect(store.keptLocation() == nil, "the precise fix is gone, and the one released before is not kept")
    }

    /// Another user who can write the cache directory could plant links at its names or files
    /// to be served: such a directory is not used, and the host is told once.
    @Test(arguments: ["world-writable", "foreign", "symbolic link"])
    func aCacheDirectoryThatIsNotTheUsersAloneIsNotUsed(kind: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("[location]\nauthorization = always\n", to: paths.userFile!)
        let cache = paths.cacheDirectory!
        let planted =
            #"{"format":2,"received":\#(Date().timeIntervalSince1970)}"# + "\n"
            + #"{"lat":10.5,"lon":20.5,"time":null,"mode":"3d","accuracy":"full"}"#
        switch kind {
        case "world-writable":
            try write(planted, to: cache + "/last-fix.json")
            chmod(cache, 0o777)
        case "foreign":
            guard geteuid() == 0 else { return }
            try write(planted, to: cache + "/last-fix.json")
            chown(cache, 65534, 65534)
        default:
            try write(planted, to: directory.path + "/elsewhere/last-fix.json")
            try FileManager.default.createSymbolicLink(atPath: cache, withDestinationPath: directory.path + "/elsewhere")
        }
        let warnings = WarningLog()
        let store = ConsentStore(paths: paths, app: nil, warning: warnings.note)
        #expect(store.keptLocation() == nil, "a planted fix is not served")
        store.keep(try Self.fix, releasedUnder: Self.authorized(try store.currentDecision()))
        store.keep(try Self.fix, releasedUnder: Self.authorized(try store.currentDecision()))
        let kept = try String(
            contentsOfFile: (kind == "symbolic link" ? directory.path + "/elsewhere" : cache) + "/last-fix.json", encoding: .utf8)
        #expect(kept == planted, "nothing written there")
        #expect(warnings.lines.count == 1 && warnings.lines[0].contains("not using the cache \(cache)"), "\(warnings.lines)")
    }

    @Test func aFileInTheCacheThatIsNotTheUsersOwnIsNotServed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        guard geteuid() == 0 else { return }
        try write("[location]\nauthorization = always\n", to: paths.userFile!)
        let store = try store()
        store.keep(try Self.fix, releasedUnder: Self.authorized(try store.currentDecision()))
        #expect(store.keptLocation() != nil)
        chown(paths.cacheDirectory! + "/last-fix.json", 65534, 65534)
        #expect(store.keptLocation() == nil)
    }
}

/// What a store warns about, as a host would collect it.
final class WarningLog: Sendable {
    private let collected = Mutex<[String]>([])

    var lines: [String] { collected.withLock { $0 } }

    @Sendable func note(_ line: String) {
        collected.withLock { $0.append(line) }
    }
}
