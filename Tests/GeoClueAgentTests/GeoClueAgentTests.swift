import Foundation
import GPSLocation
import GPSLocationConsent
import Testing

@testable import GeoClueAgent

/// The agent's engine against a scripted GeoClue, with settings files of the test's own: its
/// answers from each app's decision, the access log of every answer, the user asked about an
/// app nothing is decided for, and the level that follows the settings as they change.
@Suite(.timeLimit(.minutes(1)))
struct GeoClueAgentTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-agent-\(UUID().uuidString)")
    private var paths: SettingsPaths {
        SettingsPaths(
            userFile: directory.path + "/config/locate.conf", policyCandidates: [directory.path + "/etc/policy.conf"],
            cacheDirectory: directory.path + "/cache", stateDirectory: directory.path + "/state")
    }

    /// Writes the user's settings as an editor saving them would (a new file renamed over the old).
    private func settings(_ text: String) throws {
        let file = URL(fileURLWithPath: try #require(paths.userFile))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = file.deletingLastPathComponent().appendingPathComponent("locate.conf.new")
        try text.write(to: temporary, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
        #expect(rename(temporary.path, file.path) == 0)
    }

    /// An agent serving the scripted GeoClue, and the task it runs in.
    private func agent(prompter: (any AuthorizationPrompter)? = nil) throws -> (geoClue: ScriptedGeoClue, task: Task<Void, any Error>) {
        let geoClue = ScriptedGeoClue()
        let agent = GeoClueAgent(store: try ConsentStore(paths: paths), transport: geoClue, prompter: prompter, diagnose: { _ in })
        return (geoClue, Task { try await agent.run() })
    }

    @Test(arguments: [
        ("[app \"org.example.Maps\"]\nauthorization = always\n", 8, AgentAnswer.authorized(at: 8)),
        ("[app \"org.example.Maps\"]\nauthorization = when-in-use\n", 6, .authorized(at: 6)),
        ("[app \"org.example.Maps\"]\nauthorization = always\naccuracy = reduced\n", 8, .authorized(at: 4)),
        ("[app \"org.example.Maps\"]\nauthorization = always\naccuracy = reduced\n", 1, .authorized(at: 1)),
        ("[app \"org.example.Maps\"]\nauthorization = denied\n", 8, .refused(.denied)),
        ("[location]\nauthorization = always\n", 8, .authorized(at: 8)),
        ("[location]\nauthorization = always\n[app \"org.example.Maps\"]\nauthorization = denied\n", 8, .refused(.denied)),
        ("[location]\nservices = off\n[app \"org.example.Maps\"]\nauthorization = always\n", 8, .refused(.servicesOff)),
        ("[location]\nauthorization = sometimes\n", 8, .refused(.settingsInvalid)),
    ])
    func anAppsDecisionAnswers(settings text: String, requested: UInt32, expected: AgentAnswer) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings(text)
        let (geoClue, task) = try agent()
        defer { task.cancel() }
        #expect(try await geoClue.ask("org.example.Maps", level: requested) == expected)
    }

    @Test func everyAnswerIsInTheAccessLogWithItsLevelAndNeverAPosition() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings(
            """
            [app "org.example.Maps"]
            authorization = always
            [app "org.example.Weather"]
            authorization = always
            accuracy = reduced
            [app "org.example.Spy"]
            authorization = denied

            """)
        let (geoClue, task) = try agent()
        defer { task.cancel() }
        for app in ["org.example.Maps", "org.example.Weather", "org.example.Spy"] { _ = try await geoClue.ask(app) }
        let sessions = try AccessLog(paths: paths).recentSessions()
        #expect(sessions.map(\.app) == ["org.example.Maps", "org.example.Weather", "org.example.Spy"])
        #expect(sessions.map(\.accuracyLevel) == [8, 4, 0])
        #expect(sessions.map(\.accuracy) == [.fullAccuracy, .reducedAccuracy, nil])
        #expect(sessions.map(\.denial) == [nil, nil, .denied])
        #expect(sessions.allSatisfy { $0.via == "agent" && $0.deliveries == 0 && $0.user == getuid() })
        let line = try String(contentsOfFile: directory.path + "/state/access.jsonl", encoding: .utf8)
        #expect(!line.contains("lat") && !line.contains("lon"), "\(line)")
        #expect(line.contains(#""accuracy_level":4"#), "\(line)")
    }

    @Test func anIdThatNamesNoAppIsRefusedAndRecorded() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings("[location]\nauthorization = always\n")
        let (geoClue, task) = try agent()
        defer { task.cancel() }
        #expect(try await geoClue.ask("-org.example.Maps") == .refused(.denied))
        let session = try #require(try AccessLog(paths: paths).recentSessions().last)
        #expect(session.app == nil && session.refusal?.contains("'-org.example.Maps' cannot name an app") == true, "\(session)")
    }

    @Test func anUndecidedAppWithNobodyToAskIsRefusedAndTheAttemptRecorded() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings("[gpsd]\nserver = localhost:2947\n")
        let (geoClue, task) = try agent(prompter: ScriptedPrompter(answering: nil))
        defer { task.cancel() }
        #expect(try await geoClue.ask("org.example.Maps") == .refused(.notDetermined))
        #expect(try AccessLog(paths: paths).recentSessions().map(\.denial) == [.notDetermined])
        #expect(try ConsentStore(paths: paths, appName: "org.example.Maps").currentDecision().status == .notDetermined)
    }

    @Test(arguments: [
        (AuthorizationAnswer.allowAlways, AuthorizationStatus.authorizedAlways, AgentAnswer.authorized(at: 8)),
        (.allowWhileUsing, .authorizedWhenInUse, .authorized(at: 8)),
        (.deny, .denied, .refused(.denied)),
    ])
    func anUndecidedAppIsAskedAboutOnceAndTheAnswerKept(
        reply: AuthorizationAnswer, kept: AuthorizationStatus, expected: AgentAnswer
    ) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings("[gpsd]\nserver = localhost:2947\n")
        let prompter = ScriptedPrompter(answering: reply)
        let (geoClue, task) = try agent(prompter: prompter)
        defer { task.cancel() }
        async let first = geoClue.ask("org.example.Maps")
        async let second = geoClue.ask("org.example.Maps")
        #expect(try await [first, second] == [expected, expected])
        #expect(prompter.questions.map(\.app) == ["org.example.Maps"], "asked once: the second was answered by the first's answer")
        #expect(try ConsentStore(paths: paths, appName: "org.example.Maps").currentDecision().status == kept)
        #expect(try ConsentStore(paths: paths).currentDecision().status == .notDetermined, "[location] stays as it was")
    }

    @Test func allowOnceAuthorizesThisRequestAndKeepsNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings("[gpsd]\nserver = localhost:2947\n")
        let prompter = ScriptedPrompter(answering: .allowOnce)
        let (geoClue, task) = try agent(prompter: prompter)
        defer { task.cancel() }
        #expect(try await geoClue.ask("org.example.Maps", level: 5) == .authorized(at: 5))
        #expect(try await geoClue.ask("org.example.Maps", level: 5) == .authorized(at: 5))
        #expect(prompter.questions.count == 2, "asked again: nothing was kept")
        #expect(try ConsentStore(paths: paths, appName: "org.example.Maps").currentDecision().status == .notDetermined)
    }

    @Test func anAgentRunsOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings("[location]\nauthorization = always\n")
        let agent = GeoClueAgent(store: try ConsentStore(paths: paths), transport: ScriptedGeoClue(), prompter: nil, diagnose: { _ in })
        agent.stop()
        try await agent.run()
        await #expect(throws: GeoClueAgent.Failure.self) { try await agent.run() }
    }

    @Test func theLevelFollowsTheGlobalSettingsAsTheyChange() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try settings("[location]\nauthorization = always\n")
        let (geoClue, task) = try agent()
        defer { task.cancel() }
        try await waitUntil("the first level") { geoClue.levels == [8] }
        for (text, level) in [
            ("[location]\nauthorization = denied\n", UInt32(0)), ("[location]\nauthorization = always\naccuracy = reduced\n", 4),
            ("[location]\nauthorization = when-in-use\n", 8), ("[location]\nservices = off\n", 0),
            ("[location]\nauthorization = always\n", 8),
            ("[location]\nauthorisation = always\n", 0),
        ] {
            try settings(text)
            // The store's watcher sees a change within its tick (200 ms).
            try await waitUntil("level \(level) after \(text)", timeout: .seconds(2)) { geoClue.levels.last == level }
        }
        #expect(geoClue.levels == [8, 0, 4, 8, 0, 8, 0], "one level a change, none repeated")
    }
}
