import Foundation
import Testing
@testable import GPSLocation

/// `GPSLocationManager.authorizationUpdates()` follows edits of the settings files, including a
/// settings directory that appears after the stream started (a missed change would hang: hence
/// the time limit).
@Suite(.timeLimit(.minutes(1)))
struct AuthorizationUpdatesTests {
    @Test func reportsTheCurrentPermissionAndEachChange() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-updates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = SettingsFiles(userFile: directory.path + "/locate.conf", policyCandidates: [directory.path + "/policy.conf"])
        let manager = GPSLocationManager(configuration: GPSLocationConfiguration(permission: PermissionSettings(files: files), cache: nil))
        var updates = manager.authorizationUpdates().makeAsyncIterator()

        #expect(try await updates.next()?.status == .notDetermined)
        try UserSettingsEditor(file: files.userFile).update(app: nil, setting: [.authorization(.always)])
        #expect(try await updates.next()?.status == .authorizedAlways)
        try "[location]\nauthorization = restricted\n".write(toFile: directory.path + "/policy.conf", atomically: true, encoding: .utf8)
        let restricted = try await updates.next()
        #expect(restricted?.status == .restricted)
        #expect(restricted?.statusOrigin == SettingOrigin(file: directory.path + "/policy.conf", line: 2))
    }

    @Test func endsWithTheErrorWhenAFileBecomesMalformed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-updates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = SettingsFiles(userFile: directory.path + "/locate.conf", policyCandidates: [])
        let manager = GPSLocationManager(configuration: GPSLocationConfiguration(permission: PermissionSettings(files: files), cache: nil))
        var updates = manager.authorizationUpdates().makeAsyncIterator()
        #expect(try await updates.next()?.status == .notDetermined)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "[location]\nauthorization = sometimes\n".write(toFile: files.userFile, atomically: true, encoding: .utf8)
        await #expect(throws: ConfigurationError.self) { _ = try await updates.next() }
    }
}
