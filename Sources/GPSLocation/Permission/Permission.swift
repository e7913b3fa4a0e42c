/// Whether this process may use location, as CoreLocation's `CLAuthorizationStatus` names it.
/// Location services being switched off is a separate switch
/// (`Permission.locationServicesEnabled`), as `CLLocationManager.locationServicesEnabled()` is.
public enum AuthorizationStatus: String, Sendable, Hashable, CaseIterable {
    /// The user has not chosen yet.
    case notDetermined = "not-determined"
    /// The administrator's policy forbids location; the user cannot change it.
    case restricted
    /// The user said no.
    case denied
    /// Allowed while the process runs in the foreground of its terminal.
    case authorizedWhenInUse = "when-in-use"
    /// Allowed with or without a terminal.
    case authorizedAlways = "always"
}

/// Why location is not authorized for this process now.
public enum DenialReason: String, Sendable, Hashable, CaseIterable {
    /// Location services are switched off (by the user or the policy).
    case servicesOff = "services_off"
    /// The user has not chosen yet, and could not be asked.
    case notDetermined = "not_determined"
    /// The administrator's policy forbids location.
    case restricted
    /// The user said no.
    case denied
    /// When-in-use, but the process has no terminal or is not in its foreground.
    case background
}

/// Why a position is not live: the `reason` of a fallback record. A denial, or gpsd not able to
/// give a fix.
public enum FallbackReason: String, Sendable, Hashable {
    /// Location services are switched off.
    case servicesOff = "services_off"
    /// The user has not chosen yet, and could not be asked.
    case notDetermined = "not_determined"
    /// The administrator's policy forbids location.
    case restricted
    /// The user said no.
    case denied
    /// When-in-use, but no terminal or not in the foreground.
    case background
    /// gpsd could not be reached, refused, or has no device.
    case gpsdUnavailable = "gpsd_unavailable"
    /// No acceptable fix came in time.
    case timeout

    /// The fallback reason of a denial.
    public init(_ denial: DenialReason) {
        switch denial {
        case .servicesOff: self = .servicesOff
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .background: self = .background
        }
    }
}

/// The coordinate printed when location is not allowed or not available.
public struct FallbackCoordinate: Sendable, Hashable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double

    /// Seoul (37.517829, 126.886270): the built-in default.
    public static let builtIn = FallbackCoordinate(latitude: 37.517829, longitude: 126.886270)

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The fallback as a `Location`: `source` fallback, reduced accuracy, nothing measured.
    public var location: Location {
        Location(latitude: latitude, longitude: longitude, mode: nil, source: .fallback, accuracy: .reducedAccuracy)
    }
}

/// The permission in force for one app: what the user settings and the system policy say
/// together, and what it means for this process now. Computed by `PermissionSettings.resolve`.
public struct Permission: Sendable, Hashable {
    /// Whether location services are on (`services = on`, the default, in both files).
    public var locationServicesEnabled: Bool
    /// The file and line that switched services off; `nil` while they are on.
    public var servicesOrigin: SettingOrigin?
    /// The authorization state.
    public var status: AuthorizationStatus
    /// The file and line that decided `status`; `nil` for the default (not determined) or "allow once".
    public var statusOrigin: SettingOrigin?
    /// Set for this process only by "Allow once" at the prompt.
    public var isAllowedOnce: Bool
    /// How precise positions may be.
    public var accuracy: AccuracyAuthorization
    /// The file and line that decided `accuracy`; `nil` for the default (full).
    public var accuracyOrigin: SettingOrigin?
    /// The fallback coordinate, or `nil` when the fallback is disabled.
    public var fallback: FallbackCoordinate?
    /// `[gpsd] server`, policy first.
    public var gpsdServer: GPSDEndpoint?
    /// `[location] timeout`, policy first.
    public var timeout: Duration?
    /// The process's situation the permission was resolved for.
    public var context: ProcessContext

    /// Why positions may not be delivered now, or `nil` when they may.
    public var denial: DenialReason? {
        guard locationServicesEnabled else { return .servicesOff }
        return switch status {
        case .notDetermined: isAllowedOnce ? nil : .notDetermined
        case .restricted: .restricted
        case .denied: .denied
        case .authorizedWhenInUse: context.isForeground ? nil : .background
        case .authorizedAlways: nil
        }
    }

    /// Positions may be delivered now.
    public var isAuthorized: Bool { denial == nil }

    /// Location is refused outright (services off, restricted, denied), not just unavailable to
    /// this process now: a fix kept from before must not outlive it, so the cache is purged.
    var isRefusal: Bool {
        !locationServicesEnabled || status == .restricted || status == .denied
    }

    /// When-in-use in a background job of a terminal: a live stream pauses until the job is in the foreground.
    public var isPausedInBackground: Bool {
        status == .authorizedWhenInUse && context.hasTerminal && !context.isForeground
    }
}

/// What decides the permission: the two settings files, the app, and a one-time grant.
public struct PermissionSettings: Sendable, Hashable {
    /// Where the user settings and the policy are.
    public var files: SettingsFiles
    /// The app whose `[app "NAME"]` section applies (`--app` or `LOCATE_APP`), if any.
    public var app: AppName?
    /// "Allow once" was answered at the prompt: authorized for this process, nothing saved.
    public var isAllowedOnce: Bool
    /// The process's situation, when the host says what it is (a daemon, a test); `nil` to read
    /// it from the terminal at each check (`ProcessContext.current()`).
    public var processContext: ProcessContext?

    /// Creates permission settings.
    public init(files: SettingsFiles, app: AppName? = nil, isAllowedOnce: Bool = false, processContext: ProcessContext? = nil) {
        self.files = files
        self.app = app
        self.isAllowedOnce = isAllowedOnce
        self.processContext = processContext
    }

    /// The process's situation now: the one given, or the terminal's.
    var currentContext: ProcessContext { processContext ?? .current() }

    /// Reads both files and resolves the permission for `context` (by default, the process's
    /// situation now).
    /// - Throws: `ConfigurationError` when a file is unreadable or malformed.
    public func resolve(context: ProcessContext? = nil) throws(ConfigurationError) -> Permission {
        let (user, policy) = try files.load()
        return Self.resolve(user: user, policy: policy, app: app, isAllowedOnce: isAllowedOnce, context: context ?? currentContext)
    }

    /// The rules, on parsed settings. The policy can only restrict: its `services = off`,
    /// `authorization = restricted` and `accuracy = reduced` win over anything the user set.
    /// Otherwise the app's section wins over `[location]`, which wins over the defaults.
    public static func resolve(
        user: LocationSettings, policy: LocationSettings, app: AppName?, isAllowedOnce: Bool, context: ProcessContext
    ) -> Permission {
        let userApp = app.flatMap { user.apps[$0] }
        let policyApp = app.flatMap { policy.apps[$0] }

        let servicesOff = [policy.location.services, user.location.services].compactMap({ $0 }).first(where: { !$0.value })

        var status = AuthorizationStatus.notDetermined
        var statusOrigin: SettingOrigin?
        if let restricted = policyApp?.restricted ?? policy.location.restricted {
            (status, statusOrigin) = (.restricted, restricted.origin)
        } else if let choice = userApp?.authorization ?? user.location.authorization {
            statusOrigin = choice.origin
            switch choice.value {
            case .whenInUse: status = .authorizedWhenInUse
            case .always: status = .authorizedAlways
            case .denied: status = .denied
            }
        }

        var accuracy = AccuracyAuthorization.fullAccuracy
        var accuracyOrigin: SettingOrigin?
        if let cap = [policyApp?.accuracy, policy.location.accuracy].compactMap({ $0 }).first(where: { $0.value == .reducedAccuracy }) {
            (accuracy, accuracyOrigin) = (.reducedAccuracy, cap.origin)
        } else if let chosen = userApp?.accuracy ?? user.location.accuracy {
            (accuracy, accuracyOrigin) = (chosen.value, chosen.origin)
        }

        let enabled = (policy.fallbackEnabled ?? user.fallbackEnabled)?.value ?? true
        let builtIn = FallbackCoordinate.builtIn
        let fallback = FallbackCoordinate(
            latitude: (policy.fallbackLatitude ?? user.fallbackLatitude)?.value ?? builtIn.latitude,
            longitude: (policy.fallbackLongitude ?? user.fallbackLongitude)?.value ?? builtIn.longitude)

        return Permission(
            locationServicesEnabled: servicesOff == nil, servicesOrigin: servicesOff?.origin,
            status: status, statusOrigin: statusOrigin, isAllowedOnce: isAllowedOnce && status == .notDetermined,
            accuracy: accuracy, accuracyOrigin: accuracyOrigin,
            fallback: enabled ? fallback : nil,
            gpsdServer: (policy.gpsdServer ?? user.gpsdServer)?.value,
            timeout: (policy.location.timeout ?? user.location.timeout)?.value,
            context: context)
    }
}
