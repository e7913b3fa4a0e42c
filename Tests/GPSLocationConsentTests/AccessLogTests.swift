import Foundation
import GPSLocation
import Testing

@testable import GPSLocationConsent

/// The access log on its own: what a session keeps, lines it did not write, its bound, and
/// the receivers of processes that are gone.
struct AccessLogTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-state-\(UUID().uuidString)")
    private var log: AccessLog {
        AccessLog(paths: SettingsPaths(userFile: nil, policyCandidates: [], cacheDirectory: nil, stateDirectory: directory.path))
    }

    private func session(_ app: String, deliveries: Int) -> AccessSession {
        var session = AccessSession(
            app: app, program: "/usr/bin/\(app)", user: 1000, processID: 42, via: "serve",
            started: Date(timeIntervalSince1970: 1_767_254_400))
        for second in 0..<deliveries {
            session.noteDelivery(accuracy: .reducedAccuracy, at: Date(timeIntervalSince1970: 1_767_254_401 + Double(second)))
        }
        return session
    }

    @Test func aSessionComesBackAsItWasRecorded() throws {
        try log.record(session("gpxlogger", deliveries: 3))
        var denied = session("gpspipe", deliveries: 0)
        denied.denial = .notDetermined
        try log.record(denied)
        var answered = session("org.example.Maps", deliveries: 0)
        answered.accuracyLevel = 4
        try log.record(answered)
        #expect(try log.recentSessions() == [session("gpxlogger", deliveries: 3), denied, answered])
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path + "/access.jsonl")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func linesItDidNotWriteAreSkipped() throws {
        try log.record(session("a", deliveries: 1))
        let file = directory.appendingPathComponent("access.jsonl")
        let written = try String(contentsOf: file, encoding: .utf8)
        try (written + "garbage\n{\"via\":\"serve\"}\n{\"user\":-1,\"via\":\"x\",\"started\":\"2026-01-01T00:00:00Z\",\"count\":1}\n")
            .write(
                to: file, atomically: true, encoding: .utf8)
        try log.record(session("b", deliveries: 1))
        #expect(try log.recentSessions().map(\.app) == ["a", "b"])
    }

    @Test func theLogIsBoundedByRotation() throws {
        let log = AccessLog(
            paths: SettingsPaths(userFile: nil, policyCandidates: [], cacheDirectory: nil, stateDirectory: directory.path),
            rotationSize: 4096)
        for index in 0..<100 { try log.record(session("app\(index % 7)", deliveries: 1)) }
        let sizes = try ["access.jsonl", "access.1.jsonl"].map {
            try FileManager.default.attributesOfItem(atPath: directory.path + "/" + $0)[.size] as? Int ?? 0
        }
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= 4096 + 512 }, "\(sizes)")
        #expect(try log.recentSessions(limit: 5).count == 5)
    }

    @Test func receiversOfAProcessThatIsGoneAreNotShown() throws {
        try log.setReceivers([session("gpxlogger", deliveries: 2)])
        #expect(try log.currentReceivers().map(\.app) == ["gpxlogger"])
        let mine = directory.appendingPathComponent("receivers-\(getpid()).jsonl")
        try FileManager.default.copyItem(at: mine, to: directory.appendingPathComponent("receivers-2147483646.jsonl"))
        #expect(try log.currentReceivers().count == 1)
        try log.setReceivers([])
        #expect(try log.currentReceivers().isEmpty)
    }
}
