import AuthorizationFixtures
import Foundation
import Synchronization
import Testing

@testable import GPSLocation

/// What a `GPSLocationManager` keeps, as `CLLocationManager` does: the last location (gated when
/// read), the authorization with "Allow once", one prompt at a time, and the process context a
/// host gives it.
struct ManagerStateTests {
    /// A prompter that answers as told, after `delay`, and counts how often it was asked.
    final class ScriptedPrompter: AuthorizationPrompter {
        let answer: AuthorizationAnswer?
        let delay: Duration
        let asked = Mutex<[AuthorizationQuestion]>([])

        init(_ answer: AuthorizationAnswer?, delay: Duration = .zero) {
            self.answer = answer
            self.delay = delay
        }

        func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? {
            asked.withLock { $0.append(question) }
            try? await Task.sleep(for: delay)
            return answer
        }

        var count: Int { asked.withLock { $0.count } }
    }

    /// A dialog on the main actor, as a desktop program's would be: it must be able to conform.
    @MainActor
    final class MainActorPrompter: AuthorizationPrompter {
        var shown = 0

        func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? {
            shown += 1
            return .allowWhileUsing
        }
    }

    private static let foreground = AppState.foreground

    /// A manager of gpsd at port 1 of loopback: nothing listens there, so a request that reaches
    /// gpsd fails at once.
    private func manager(_ source: MemoryAuthorizationSource, appState: AppState = foreground) throws -> GPSLocationManager {
        GPSLocationManager(
            authorizationSource: source, configuration: GPSLocationConfiguration(endpoint: try GPSDEndpoint(parsing: "127.0.0.1:1")),
            appState: appState)
    }

    @Test func theLastLocationIsGatedEachTimeItIsRead() async throws {
        let fix = try Location(latitude: 64.1504321, longitude: -21.9404567, time: Date(), horizontalAccuracy: 4, mode: .threeDimensional)
        let source = MemoryAuthorizationSource(AuthorizationDecision(status: .authorizedAlways), kept: fix)
        let manager = try manager(source)
        #expect(manager.location == nil, "nothing delivered yet")
        let delivered = try await manager.requestLocation(maxAge: .seconds(3600))
        #expect(delivered.latitude == 64.1504321)
        #expect(manager.location?.latitude == 64.1504321)
        source.decide(AuthorizationDecision(status: .authorizedAlways, accuracy: .reducedAccuracy))
        #expect(manager.location == nil, "released under full accuracy: not handed out under reduced")
        source.decide(AuthorizationDecision(status: .authorizedAlways))
        #expect(manager.location == nil, "forgotten, not only hidden")
        let cell = try await manager.requestLocation(maxAge: .seconds(3600))
        source.decide(AuthorizationDecision(status: .denied))
        #expect(manager.location == nil, "denied now: no location, whatever was delivered before")
        #expect(manager.authorizationStatus == .denied)
        #expect(cell.latitude == 64.1504321)
    }

    /// The gate's second rule for the last location: a revoke forgets it even when the
    /// authorization comes back before anyone reads it.
    @Test func aRevokeUndoneAtOnceStillForgetsTheLastLocation() async throws {
        let fix = try Location(latitude: 64.1504321, longitude: -21.9404567, time: Date(), horizontalAccuracy: 4, mode: .threeDimensional)
        let source = MemoryAuthorizationSource(AuthorizationDecision(status: .authorizedAlways), kept: fix)
        let manager = try manager(source)
        _ = try await manager.requestLocation(maxAge: .seconds(3600))
        #expect(manager.location != nil)
        source.decide(AuthorizationDecision(status: .denied))
        source.decide(AuthorizationDecision(status: .authorizedAlways))
        try await waitUntil("the deny to forget the location", timeout: .seconds(30)) { manager.location == nil }
    }

    @Test func requestingAuthorizationAsksOnlyWhenNotDeterminedAndKeepsTheAnswer() async throws {
        let source = MemoryAuthorizationSource(app: "weather")
        let always = ScriptedPrompter(.allowAlways)
        let manager = try manager(source)
        #expect(manager.authorizationStatus == .notDetermined)
        let authorization = try await manager.requestAlwaysAuthorization(purpose: "weather", prompter: always)
        #expect(authorization.status == .authorizedAlways && authorization.isAuthorized)
        #expect(always.asked.withLock { $0 } == [AuthorizationQuestion(app: "weather", purpose: "weather", asksForAlways: true)])
        #expect(source.recorded == [.authorizedAlways])
        let again = ScriptedPrompter(.deny)
        try await manager.requestWhenInUseAuthorization(prompter: again)
        #expect(again.count == 0, "already chosen: not asked again")
        #expect(manager.authorizationStatus == .authorizedAlways)
    }

    @Test func allowOnceIsWhenInUseForThisManagersLifeAndNoAnswerChangesNothing() async throws {
        let source = MemoryAuthorizationSource()
        let manager = try manager(source)
        #expect(try await manager.requestWhenInUseAuthorization(prompter: ScriptedPrompter(nil)).denial == .notDetermined)
        let authorization = try await manager.requestWhenInUseAuthorization(prompter: ScriptedPrompter(.allowOnce))
        #expect(authorization.status == .authorizedWhenInUse && authorization.isAuthorized, "the guard every example uses lets it through")
        #expect(manager.authorizationStatus == .authorizedWhenInUse)
        #expect(source.recorded.isEmpty, "nothing kept")
        #expect(try self.manager(source).authorization().denial == .notDetermined, "another manager was not allowed")
        let background = try await self.manager(source, appState: AppState.unattended)
            .requestWhenInUseAuthorization(prompter: ScriptedPrompter(.allowOnce))
        #expect(background.denial == .background, "allow once is when-in-use: not in the background")
    }

    @Test func concurrentRequestsShareOnePrompt() async throws {
        let source = MemoryAuthorizationSource()
        let manager = try manager(source)
        let slow = ScriptedPrompter(.allowWhileUsing, delay: .milliseconds(200))
        async let first = manager.requestWhenInUseAuthorization(prompter: slow)
        async let second = manager.requestWhenInUseAuthorization(prompter: slow)
        let results = try await [first, second]
        #expect(slow.count == 1, "one prompt in flight per manager")
        #expect(results.allSatisfy { $0.status == .authorizedWhenInUse })
        #expect(source.recorded == [.authorizedWhenInUse])
    }

    @Test func askingForAlwaysAfterWhenInUsePromptsForTheUpgradeOnce() async throws {
        let source = MemoryAuthorizationSource(AuthorizationDecision(status: .authorizedWhenInUse))
        let manager = try manager(source)
        let keep = ScriptedPrompter(.allowWhileUsing)
        let kept = try await manager.requestAlwaysAuthorization(prompter: keep)
        #expect(keep.asked.withLock { $0.first?.isUpgrade } == true)
        #expect(kept.status == .authorizedWhenInUse && source.recorded.isEmpty, "keeping when-in-use changes nothing")
        let upgrade = ScriptedPrompter(.allowAlways)
        try await manager.requestAlwaysAuthorization(prompter: upgrade)
        #expect(upgrade.count == 0, "the upgrade is asked once per manager")
        let fresh = try self.manager(source)
        #expect(try await fresh.requestAlwaysAuthorization(prompter: upgrade).status == .authorizedAlways)
        #expect(upgrade.count == 1 && source.recorded == [.authorizedAlways])
        #expect(
            try await fresh.requestWhenInUseAuthorization(prompter: keep).status == .authorizedAlways, "when-in-use asks nothing more")
    }

    @MainActor
    @Test func aMainActorPrompterIsAsked() async throws {
        let prompter = MainActorPrompter()
        let authorization = try await manager(MemoryAuthorizationSource()).requestWhenInUseAuthorization(prompter: prompter)
        #expect(prompter.shown == 1 && authorization.status == .authorizedWhenInUse)
    }

    @Test func aHostCanSayWhetherItIsInTheForeground() async throws {
        let source = MemoryAuthorizationSource(AuthorizationDecision(status: .authorizedWhenInUse))
        #expect(try manager(source).authorization().isAuthorized)
        let daemon = try manager(source, appState: AppState.unattended)
        #expect(try daemon.authorization().denial == .background)
        #expect(daemon.authorizationStatus == .authorizedWhenInUse)
    }

    @Test func theManagerCountsTheLiveStreamsBeingIterated() async throws {
        // Denied: each stream says so first, then stays open waiting for a grant.
        let manager = try manager(MemoryAuthorizationSource(AuthorizationDecision(status: .denied)))
        #expect(await manager.activeLiveUpdates == 0)
        var first: LiveUpdates.Iterator? = await manager.liveUpdates().makeAsyncIterator()
        var second: LiveUpdates.Iterator? = await manager.liveUpdates().makeAsyncIterator()
        #expect(try await first?.next() == .status(.authorizationChanged(status: .denied, denial: .denied)))
        #expect(await manager.activeLiveUpdates == 1)
        _ = try await second?.next()
        #expect(await manager.activeLiveUpdates == 2)
        first = nil
        try await waitUntil("one stream left") { await manager.activeLiveUpdates == 1 }
        second = nil
        try await waitUntil("no stream left") { await manager.activeLiveUpdates == 0 }
        #expect(first == nil && second == nil)
    }

    @Test func servicesOffIsItsOwnSwitch() async throws {
        let manager = try manager(
            MemoryAuthorizationSource(AuthorizationDecision(locationServicesEnabled: false, status: .authorizedAlways)))
        #expect(!manager.locationServicesEnabled)
        #expect(manager.authorizationStatus == .authorizedAlways)
        #expect(try manager.authorization().denial == .servicesOff)
        let prompter = ScriptedPrompter(.allowAlways)
        try await manager.requestWhenInUseAuthorization(prompter: prompter)
        #expect(prompter.count == 0, "no prompt while services are off")
    }

    @Test func theAuthorizationUpdatesFollowTheSource() async throws {
        let source = MemoryAuthorizationSource(AuthorizationDecision(status: .authorizedAlways))
        var updates = try manager(source).authorizationUpdates().makeAsyncIterator()
        #expect(try await updates.next()?.isAuthorized == true)
        source.decide(AuthorizationDecision(status: .denied))
        #expect(try await updates.next()?.denial == .denied)
        // Settings that cannot be read for a moment authorize nothing, and the updates go on.
        let problem = SettingsProblem(file: "/home/me/.config/locate/locate.conf", line: 2, column: 17, message: "bad value")
        source.decide(AuthorizationDecision(invalidSettings: problem))
        let broken = try #require(try await updates.next())
        #expect(broken.denial == .settingsInvalid && broken.decision.invalidSettings == problem && !broken.isAuthorized)
        source.decide(AuthorizationDecision(status: .authorizedAlways))
        #expect(try await updates.next()?.isAuthorized == true)
    }
}

/// Waits until `condition` holds, checking every 10 ms; fails after `timeout`.
func waitUntil(_ what: String, timeout: Duration = .seconds(5), _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting for \(what)")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
