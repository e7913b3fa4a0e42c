import GPSLocation
import Testing

@testable import GPSLocationConsent

struct PermissionResolutionTests {
    private let foreground = AppState.foreground
    private let background = AppState.background
    private let noTerminal = AppState.unattended

    /// The settings the files say, and the authorization they give a process in `context`.
    private func resolve(
        user: String = "", policy: String = "", app: String? = nil, once: Bool = false,
        appState: AppState
    ) throws -> (settings: ConsentSettings, authorization: Authorization) {
        let settings = ConsentSettings(
            user: try LocationSettings(SettingsLines(Array(user.utf8)), file: "user.conf", role: .user),
            policy: try LocationSettings(SettingsLines(Array(policy.utf8)), file: "policy.conf", role: .policy),
            app: try app.map { (name) throws(GPSLocationError) in try AppName(name) })
        return (settings, Authorization(decision: settings.decision, appState: appState, isAllowedOnce: once))
    }

    @Test func nothingSetIsNotDetermined() throws {
        let (settings, authorization) = try resolve(appState: foreground)
        #expect(authorization.status == .notDetermined)
        #expect(authorization.denial == .notDetermined)
        #expect(settings.fallback == .coordinate(.builtIn))
        #expect(authorization.accuracy == .fullAccuracy)
    }

    @Test func allowOnceAuthorizesOnlyWhatIsNotDeterminedAsWhenInUse() throws {
        let once = try resolve(once: true, appState: foreground).authorization
        #expect(once.isAuthorized && once.status == .authorizedWhenInUse)
        #expect(try resolve(once: true, appState: noTerminal).authorization.denial == .background, "when-in-use: not without a terminal")
        #expect(try resolve(user: "[location]\nauthorization = denied\n", once: true, appState: foreground).authorization.denial == .denied)
    }

    @Test func whenInUseNeedsTheForegroundOfATerminal() throws {
        let user = "[location]\nauthorization = when-in-use\n"
        #expect(try resolve(user: user, appState: foreground).authorization.isAuthorized)
        let backgroundJob = try resolve(user: user, appState: background).authorization
        #expect(backgroundJob.denial == .background && backgroundJob.isPausedInBackground)
        let cron = try resolve(user: user, appState: noTerminal).authorization
        #expect(cron.denial == .background && !cron.isPausedInBackground)
    }

    @Test func alwaysNeedsNoTerminal() throws {
        #expect(try resolve(user: "[location]\nauthorization = always\n", appState: noTerminal).authorization.isAuthorized)
    }

    @Test func theAppSectionWinsOverLocation() throws {
        let user = "[location]\nauthorization = denied\n[app \"weather\"]\nauthorization = always\naccuracy = reduced\n"
        let weather = try resolve(user: user, app: "weather", appState: noTerminal)
        #expect(weather.authorization.status == .authorizedAlways)
        #expect(weather.settings.statusDecidedBy == SettingOrigin(file: "user.conf", line: 4))
        #expect(weather.authorization.accuracy == .reducedAccuracy)
        #expect(try resolve(user: user, app: "other", appState: noTerminal).authorization.status == .denied)
    }

    @Test func thePolicyRestrictsWhateverTheUserSays() throws {
        let user = "[location]\nauthorization = always\naccuracy = full\n[fallback]\nlatitude = 1\nlongitude = 2\nenabled = yes\n"
        let restricted = try resolve(user: user, policy: "[location]\nauthorization = restricted\n", appState: noTerminal)
        #expect(restricted.authorization.status == .restricted && restricted.settings.statusDecidedBy?.file == "policy.conf")
        let servicesOff = try resolve(user: user, policy: "[location]\nservices = off\n", appState: noTerminal)
        #expect(servicesOff.authorization.denial == .servicesOff)
        let capped = try resolve(user: user, policy: "[location]\naccuracy = reduced\n", appState: noTerminal)
        #expect(capped.authorization.isAuthorized && capped.authorization.accuracy == .reducedAccuracy)
        #expect(capped.settings.accuracyDecidedBy?.file == "policy.conf")
        let fallback = try resolve(user: user, policy: "[fallback]\nlatitude = 10\nenabled = no\n", appState: noTerminal)
        #expect(fallback.settings.fallback == .disabled)
        #expect(
            try resolve(user: user, policy: "[fallback]\nlatitude = 10\n", appState: noTerminal).settings.fallback
                == .coordinate(FallbackCoordinate(latitude: 10, longitude: 2)))
    }

    @Test func theUserCanSwitchServicesOff() throws {
        let (settings, authorization) = try resolve(user: "[location]\nservices = off\nauthorization = always\n", appState: foreground)
        #expect(!authorization.locationServicesEnabled && settings.servicesDecidedBy == SettingOrigin(file: "user.conf", line: 2))
        #expect(authorization.denial == .servicesOff)
        #expect(authorization.status == .authorizedAlways, "the choice behind the switch is kept, as CoreLocation keeps it")
    }
}
