import Foundation
import Synchronization
import Testing
@testable import GPSLocation

/// What a `GPSLocationManager` keeps, as `CLLocationManager` does: the last location (gated when
/// read), the authorization, an "allow once", and a process context the host gives it.
struct ManagerStateTests {
    /// A prompter that answers as told and counts how often it was asked.
    final class ScriptedPrompter: AuthorizationPrompter {
        let answer: AuthorizationAnswer?
        let asked = Mutex<[(String?, AuthorizationLevel)]>([])

        init(_ answer: AuthorizationAnswer?) {
            self.answer = answer
        }

        func ask(app: AppName?, purpose: String?, level: AuthorizationLevel) -> AuthorizationAnswer? {
            asked.withLock { $0.append((purpose, level)) }
            return answer
        }

        var count: Int { asked.withLock { $0.count } }
    }

    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-manager-\(UUID().uuidString)").path
    private var files: SettingsFiles { SettingsFiles(userFile: directory + "/locate.conf", policyCandidates: [directory + "/policy.conf"]) }

    private func manager(context: ProcessContext = ProcessContext(hasTerminal: true, isForeground: true), cache: LastFixCache? = nil) -> GPSLocationManager {
        GPSLocationManager(configuration: GPSLocationConfiguration(permission: PermissionSettings(files: files), cache: cache,
                                                                   endpoint: try! GPSDEndpoint(parsing: "127.0.0.1:1")),
                           processContext: context)
    }

    private func writeUser(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: files.userFile, atomically: true, encoding: .utf8)
    }

    @Test func theLastLocationIsGatedEachTimeItIsRead() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeUser("[location]\nauthorization = always\n")
        let cache = LastFixCache(path: directory + "/last-fix.json")
        let fix = Location(latitude: 64.1504321, longitude: -21.9404567, time: Date(), horizontalAccuracy: 4, mode: .threeDimensional)
        cache.store(fix)
        let manager = manager(cache: cache)
        #expect(manager.location == nil, "nothing delivered yet")
        let delivered = try await manager.requestLocation(maxAge: .seconds(60))
        #expect(delivered.source == .cache)
        #expect(manager.location?.latitude == 64.1504321)
        try writeUser("[location]\nauthorization = always\naccuracy = reduced\n")
        let reduced = try #require(manager.location)
        #expect(reduced.accuracy == .reducedAccuracy && reduced.latitude != 64.1504321, "reduced now: the grid cell")
        try writeUser("[location]\nauthorization = denied\n")
        #expect(manager.location == nil, "denied now: no location, whatever was delivered before")
        #expect(manager.authorizationStatus == .denied)
    }

    @Test func requestingAuthorizationAsksOnlyWhenNotDeterminedAndSavesTheAnswer() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let always = ScriptedPrompter(.allowAlways)
        let manager = manager()
        #expect(manager.authorizationStatus == .notDetermined)
        let permission = try manager.requestAuthorization(.always, purpose: "weather", prompter: always)
        #expect(permission.status == .authorizedAlways && manager.authorizationStatus == .authorizedAlways)
        #expect(always.asked.withLock { $0.first?.0 == "weather" && $0.first?.1 == .always })
        #expect(try String(contentsOfFile: files.userFile, encoding: .utf8).contains("authorization = always"))
        let again = ScriptedPrompter(.deny)
        try manager.requestAuthorization(prompter: again)
        #expect(again.count == 0, "already chosen: not asked again")
        #expect(manager.authorizationStatus == .authorizedAlways)
    }

    @Test func allowOnceHoldsForThisManagerOnlyAndNoAnswerChangesNothing() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let silent = ScriptedPrompter(nil)
        let manager = manager()
        #expect(try manager.requestAuthorization(prompter: silent).denial == .notDetermined)
        let once = ScriptedPrompter(.allowOnce)
        #expect(try manager.requestAuthorization(prompter: once).isAuthorized)
        #expect(try manager.authorization().isAuthorized)
        #expect(!FileManager.default.fileExists(atPath: files.userFile), "nothing saved")
        #expect(try self.manager().authorization().denial == .notDetermined, "another manager was not allowed")
    }

    @Test func aHostCanSayWhetherItIsInTheForeground() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeUser("[location]\nauthorization = when-in-use\n")
        #expect(try manager(context: ProcessContext(hasTerminal: true, isForeground: true)).authorization().isAuthorized)
        let daemon = manager(context: ProcessContext(hasTerminal: false, isForeground: false))
        #expect(try daemon.authorization().denial == .background)
        #expect(daemon.authorizationStatus == .authorizedWhenInUse)
    }

    @Test func theManagerCountsTheLiveStreamsBeingIterated() throws {
        let manager = manager()
        #expect(manager.activeLiveUpdates == 0)
        var first: LiveUpdates.Iterator? = manager.liveUpdates().makeAsyncIterator()
        var second: LiveUpdates.Iterator? = manager.liveUpdates().makeAsyncIterator()
        #expect(manager.activeLiveUpdates == 2)
        first = nil
        #expect(manager.activeLiveUpdates == 1)
        second = nil
        #expect(manager.activeLiveUpdates == 0 && first == nil && second == nil)
    }

    @Test func servicesOffIsItsOwnSwitch() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeUser("[location]\nservices = off\nauthorization = always\n")
        let manager = manager()
        #expect(!manager.locationServicesEnabled && manager.authorizationStatus == .authorizedAlways)
        #expect(try manager.authorization().denial == .servicesOff)
        let prompter = ScriptedPrompter(.allowAlways)
        try manager.requestAuthorization(prompter: prompter)
        #expect(prompter.count == 0, "no prompt while services are off")
    }
}
