import GPSLocation
import Testing

@testable import GeoClueAgent

/// The agent's rules on their own, from decisions to GeoClue's answers.
struct AgentRulesTests {
    private static func decision(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization = .fullAccuracy, services: Bool = true
    ) -> AuthorizationDecision {
        AuthorizationDecision(locationServicesEnabled: services, status: status, accuracy: accuracy)
    }

    @Test func theMaximumLevelFollowsTheGlobalDecision() {
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.authorizedAlways)) == 8)
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.authorizedWhenInUse)) == 8)
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.notDetermined)) == 0)
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.authorizedAlways, .reducedAccuracy)) == 4)
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.notDetermined, .reducedAccuracy)) == 0)
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.denied)) == 0)
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.restricted)) == 0)
        #expect(AgentRules.maxAccuracyLevel(for: Self.decision(.authorizedAlways, services: false)) == 0)
        let unreadable = AuthorizationDecision(invalidSettings: SettingsProblem(file: "locate.conf", line: 3, message: "unknown key"))
        #expect(AgentRules.maxAccuracyLevel(for: unreadable) == 0)
    }

    @Test(arguments: [AuthorizationStatus.authorizedAlways, .authorizedWhenInUse])
    func anAllowedAppGetsWhatItAsksForCappedByItsAccuracy(status: AuthorizationStatus) {
        for requested: UInt32 in [1, 4, 5, 6, 8] {
            #expect(AgentRules.answer(for: Self.decision(status), requested: requested) == .authorized(at: requested))
            #expect(
                AgentRules.answer(for: Self.decision(status, .reducedAccuracy), requested: requested) == .authorized(at: min(requested, 4)))
        }
        #expect(AgentRules.answer(for: Self.decision(status), requested: 99) == .authorized(at: 8))
    }

    @Test func anAppThatMayNotHavePositionsIsRefusedWithTheReason() {
        #expect(AgentRules.answer(for: Self.decision(.denied), requested: 8) == .refused(.denied))
        #expect(AgentRules.answer(for: Self.decision(.restricted), requested: 8) == .refused(.restricted))
        #expect(AgentRules.answer(for: Self.decision(.authorizedAlways, services: false), requested: 8) == .refused(.servicesOff))
        let unreadable = AuthorizationDecision(invalidSettings: SettingsProblem(file: "locate.conf", message: "unreadable"))
        #expect(AgentRules.answer(for: unreadable, requested: 8) == .refused(.settingsInvalid))
        #expect(AgentRules.answer(for: Self.decision(.denied), requested: 8)?.level == 0)
    }

    @Test func anUndecidedAppIsForTheUserToBeAsked() {
        #expect(AgentRules.answer(for: Self.decision(.notDetermined), requested: 8) == nil)
        // Services off wins over asking: nobody is asked about what cannot be had anyway.
        #expect(AgentRules.answer(for: Self.decision(.notDetermined, services: false), requested: 8) == .refused(.servicesOff))
    }

    @Test func theUsersAnswerDecides() {
        for allow in [AuthorizationAnswer.allowOnce, .allowWhileUsing, .allowAlways] {
            #expect(AgentRules.answer(after: allow, accuracy: .fullAccuracy, requested: 6) == .authorized(at: 6))
            #expect(AgentRules.answer(after: allow, accuracy: .reducedAccuracy, requested: 8) == .authorized(at: 4))
        }
        #expect(AgentRules.answer(after: .deny, accuracy: .fullAccuracy, requested: 8) == .refused(.denied))
        #expect(AgentRules.answer(after: nil, accuracy: .fullAccuracy, requested: 8) == .refused(.notDetermined))
    }
}
