import Testing
@testable import GPSLocation

struct PermissionResolutionTests {
    private let foreground = ProcessContext(hasTerminal: true, isForeground: true)
    private let background = ProcessContext(hasTerminal: true, isForeground: false)
    private let noTerminal = ProcessContext(hasTerminal: false, isForeground: false)

    private func resolve(user: String = "", policy: String = "", app: String? = nil, once: Bool = false,
                         context: ProcessContext) throws -> Permission {
        PermissionSettings.resolve(
            user: try LocationSettings(bytes: Array(user.utf8), file: "user.conf", role: .user),
            policy: try LocationSettings(bytes: Array(policy.utf8), file: "policy.conf", role: .policy),
            app: try app.map(AppName.init), isAllowedOnce: once, context: context)
    }

    @Test func nothingSetIsNotDetermined() throws {
        let permission = try resolve(context: foreground)
        #expect(permission.status == .notDetermined)
        #expect(permission.denial == .notDetermined)
        #expect(permission.fallback == .builtIn)
        #expect(permission.accuracy == .fullAccuracy)
    }

    @Test func allowOnceAuthorizesOnlyWhatIsNotDetermined() throws {
        #expect(try resolve(once: true, context: noTerminal).isAuthorized)
        #expect(try resolve(user: "[location]\nauthorization = denied\n", once: true, context: foreground).denial == .denied)
    }

    @Test func whenInUseNeedsTheForegroundOfATerminal() throws {
        let user = "[location]\nauthorization = when-in-use\n"
        #expect(try resolve(user: user, context: foreground).isAuthorized)
        let backgroundJob = try resolve(user: user, context: background)
        #expect(backgroundJob.denial == .background && backgroundJob.isPausedInBackground)
        let cron = try resolve(user: user, context: noTerminal)
        #expect(cron.denial == .background && !cron.isPausedInBackground)
    }

    @Test func alwaysNeedsNoTerminal() throws {
        #expect(try resolve(user: "[location]\nauthorization = always\n", context: noTerminal).isAuthorized)
    }

    @Test func theAppSectionWinsOverLocation() throws {
        let user = "[location]\nauthorization = denied\n[app \"weather\"]\nauthorization = always\naccuracy = reduced\n"
        let weather = try resolve(user: user, app: "weather", context: noTerminal)
        #expect(weather.status == .authorizedAlways)
        #expect(weather.statusOrigin == SettingOrigin(file: "user.conf", line: 4))
        #expect(weather.accuracy == .reducedAccuracy)
        #expect(try resolve(user: user, app: "other", context: noTerminal).status == .denied)
    }

    @Test func thePolicyRestrictsWhateverTheUserSays() throws {
        let user = "[location]\nauthorization = always\naccuracy = full\n[fallback]\nlatitude = 1\nlongitude = 2\nenabled = yes\n"
        let restricted = try resolve(user: user, policy: "[location]\nauthorization = restricted\n", context: noTerminal)
        #expect(restricted.status == .restricted && restricted.statusOrigin?.file == "policy.conf")
        let servicesOff = try resolve(user: user, policy: "[location]\nservices = off\n", context: noTerminal)
        #expect(servicesOff.denial == .servicesOff)
        let capped = try resolve(user: user, policy: "[location]\naccuracy = reduced\n", context: noTerminal)
        #expect(capped.isAuthorized && capped.accuracy == .reducedAccuracy && capped.accuracyOrigin?.file == "policy.conf")
        let fallback = try resolve(user: user, policy: "[fallback]\nlatitude = 10\nenabled = no\n", context: noTerminal)
        #expect(fallback.fallback == nil)
        #expect(try resolve(user: user, policy: "[fallback]\nlatitude = 10\n", context: noTerminal).fallback == FallbackCoordinate(latitude: 10, longitude: 2))
    }

    @Test func theUserCanSwitchServicesOff() throws {
        let permission = try resolve(user: "[location]\nservices = off\nauthorization = always\n", context: foreground)
        #expect(!permission.locationServicesEnabled && permission.servicesOrigin == SettingOrigin(file: "user.conf", line: 2))
        #expect(permission.denial == .servicesOff)
        #expect(permission.status == .authorizedAlways, "the choice behind the switch is kept, as CoreLocation keeps it")
    }
}
