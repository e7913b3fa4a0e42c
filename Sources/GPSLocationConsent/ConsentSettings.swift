public import GPSLocation

/// What the user's settings and the administrator's policy say together for one app, and where
/// each part of the decision was made: what `locate permission status` and `locate status` show
/// (``ConsentStore/settings()``).
///
/// The policy can only restrict: its `services = off`, `authorization = restricted` and
/// `accuracy = reduced` win over anything the user set, and its `[fallback]` and `[gpsd]` values
/// win over the user's. Otherwise the app's section wins over `[location]`, which wins over the
/// defaults (services on, not determined, full accuracy).
public struct ConsentSettings: Sendable, Hashable {
    /// The decision.
    public var decision: AuthorizationDecision
    /// The file and line that switched services off; `nil` while they are on.
    public var servicesDecidedBy: SettingOrigin?
    /// The file and line that decided the status; `nil` for the default (not determined).
    public var statusDecidedBy: SettingOrigin?
    /// The file and line that decided the accuracy; `nil` for the default (full).
    public var accuracyDecidedBy: SettingOrigin?
    /// `[gpsd] server`, the policy's first.
    public var gpsdServer: GPSDEndpoint?
    /// `[location] timeout`, the policy's first: how long a request waits by default.
    public var timeout: Duration?
    /// `[region "NAME"]` sections: the policy's, then the user's (which replace the policy's of
    /// the same name when monitored).
    public var regions: [CircularRegion]
    /// `[mqtt] password-file`, the user's own: the private file with the broker's password.
    public var mqttPasswordFile: String?
    /// `[mqtt] ca-file`, the policy's first: the CA certificates `mqtts://` trusts.
    public var mqttCAFile: String?
    /// `[http] password-file`, the user's own: the private file with an HTTP endpoint's password.
    public var httpPasswordFile: String?
    /// `[http] ca-file`, the policy's first: the CA certificates `https://` trusts.
    public var httpCAFile: String?
    /// `[history] keep`, the policy's first (an administrator's bound on what is kept): how many
    /// days of points `locate record` keeps; `nil` keeps them until forgotten.
    public var historyKeepDays: Int?
    /// The fallback as the files set it (``ConsentStore/fallback(resolvingPlaceNames:)`` gives it).
    var fallback: FallbackSetting

    /// The fallback as the files set it: off, a coordinate, or a place to resolve.
    enum FallbackSetting: Sendable, Hashable {
        case disabled
        case coordinate(FallbackCoordinate)
        case place(Setting<String>)
    }

    /// The rules, on parsed settings.
    init(user: LocationSettings, policy: LocationSettings, app: AppName?) {
        let userApp = app.flatMap { user.apps[$0] }
        let policyApp = app.flatMap { policy.apps[$0] }

        // Written out, not through arrays of settings: this runs on every start.
        var servicesOff: Setting<Bool>?
        if let setting = policy.location.services, !setting.value {
            servicesOff = setting
        } else if let setting = user.location.services, !setting.value {
            servicesOff = setting
        }

        var status = AuthorizationStatus.notDetermined
        if let restricted = policyApp?.restricted ?? policy.location.restricted {
            (status, statusDecidedBy) = (.restricted, restricted.origin)
        } else if let choice = userApp?.authorization ?? user.location.authorization {
            (status, statusDecidedBy) = (choice.value, choice.origin)
        }

        var accuracy = AccuracyAuthorization.fullAccuracy
        if let cap = policyApp?.accuracy, cap.value == .reducedAccuracy {
            (accuracy, accuracyDecidedBy) = (.reducedAccuracy, cap.origin)
        } else if let cap = policy.location.accuracy, cap.value == .reducedAccuracy {
            (accuracy, accuracyDecidedBy) = (.reducedAccuracy, cap.origin)
        } else if let chosen = userApp?.accuracy ?? user.location.accuracy {
            (accuracy, accuracyDecidedBy) = (chosen.value, chosen.origin)
        }

        decision = AuthorizationDecision(locationServicesEnabled: servicesOff == nil, status: status, accuracy: accuracy)
        servicesDecidedBy = servicesOff?.origin

        // The policy's fallback wins whole: its place, or its coordinate (each part over the user's).
        let builtIn = FallbackCoordinate.builtIn
        let policySetsFallback = policy.fallbackPlace != nil || policy.fallbackLatitude != nil || policy.fallbackLongitude != nil
        if (policy.fallbackEnabled ?? user.fallbackEnabled)?.value == false {
            fallback = .disabled
        } else if let place = policy.fallbackPlace ?? (policySetsFallback ? nil : user.fallbackPlace) {
            fallback = .place(place)
        } else {
            // The parts were checked when read (a latitude in -90...90, a longitude in -180...180).
            fallback = .coordinate(
                (try? FallbackCoordinate(
                    latitude: (policy.fallbackLatitude ?? user.fallbackLatitude)?.value ?? builtIn.latitude,
                    longitude: (policy.fallbackLongitude ?? user.fallbackLongitude)?.value ?? builtIn.longitude)) ?? builtIn)
        }
        gpsdServer = (policy.gpsdServer ?? user.gpsdServer)?.value
        timeout = (policy.location.timeout ?? user.location.timeout)?.value
        regions = policy.regions + user.regions
        mqttPasswordFile = user.mqttPasswordFile?.value
        mqttCAFile = (policy.mqttCAFile ?? user.mqttCAFile)?.value
        httpPasswordFile = user.httpPasswordFile?.value
        httpCAFile = (policy.httpCAFile ?? user.httpCAFile)?.value
        historyKeepDays = (policy.historyKeep ?? user.historyKeep)?.value
    }
}
