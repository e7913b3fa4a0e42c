/// Whether this process may use location, as CoreLocation's `CLAuthorizationStatus` names it.
/// Location services being switched off is a separate switch
/// (``Authorization/locationServicesEnabled``), as `CLLocationManager.locationServicesEnabled()` is.
public enum AuthorizationStatus: String, Sendable, Hashable, CaseIterable {
    /// The user has not chosen yet.
    case notDetermined = "not-determined"
    /// The administrator's policy forbids location; the user cannot change it.
    case restricted
    /// The user said no.
    case denied
    /// Allowed while the process runs in the foreground of its terminal ("Allow once" too, for
    /// the rest of the manager's life).
    case authorizedWhenInUse = "when-in-use"
    /// Allowed with or without a terminal.
    case authorizedAlways = "always"
}

/// How precise positions may be: iOS's "Precise Location" switch, as CoreLocation's
/// `CLAccuracyAuthorization` names it. The raw values are the settings' words.
public enum AccuracyAuthorization: String, Sendable, Hashable, CaseIterable, Codable {
    /// Positions as the receiver reports them.
    case fullAccuracy = "full"
    /// Positions snapped to the centre of a grid cell of several kilometres.
    case reducedAccuracy = "reduced"
}

/// Why location is not authorized for this process now. The raw values are the `reason`
/// words of `locate`'s records.
public enum DenialReason: String, Sendable, Hashable, CaseIterable {
    /// Location services are switched off (by the user or the policy).
    case servicesOff = "services_off"
    /// The user has not chosen yet, and could not be asked.
    case notDetermined = "not_determined"
    /// The administrator's policy forbids location.
    case restricted
    /// The user said no.
    case denied
    /// When-in-use, but the program is not in use (in the background, or unattended).
    case background
    /// The settings that decide cannot be read now (a malformed or unreadable file, perhaps
    /// saved in two steps): nothing is authorized until they read again.
    case settingsInvalid = "settings_invalid"
}

/// What the user and the administrator decided, as an ``AuthorizationSource`` tells it: the
/// services switch, the authorization status and the accuracy. Whether that authorizes this
/// process now also depends on the process (``Authorization``).
public struct AuthorizationDecision: Sendable, Hashable {
    /// Whether location services are on.
    public var locationServicesEnabled: Bool
    /// The authorization status as decided; never "allow once", which is the manager's.
    public var status: AuthorizationStatus
    /// How precise positions may be.
    public var accuracy: AccuracyAuthorization
    /// Why nothing can be decided now, when the settings cannot be read (a malformed or
    /// unreadable file): then nothing is authorized, whatever the other values say, until a
    /// decision without a problem comes.
    public var invalidSettings: SettingsProblem?

    /// Creates a decision; by default services are on, nothing is decided, and accuracy is full.
    public init(
        locationServicesEnabled: Bool = true, status: AuthorizationStatus = .notDetermined,
        accuracy: AccuracyAuthorization = .fullAccuracy
    ) {
        self.locationServicesEnabled = locationServicesEnabled
        self.status = status
        self.accuracy = accuracy
    }

    /// The decision while the settings cannot be read: nothing is authorized, and `problem`
    /// says why (a source's ``AuthorizationSource/decisionUpdates()`` gives it, and gives a
    /// decision again when the settings read again).
    public init(invalidSettings problem: SettingsProblem) {
        self.init(locationServicesEnabled: false, status: .notDetermined, accuracy: .reducedAccuracy)
        invalidSettings = problem
    }

}

/// The authorization in force for this process now: a decision (``AuthorizationDecision``),
/// whether the program is in use (``AppState``) and an "Allow once" answer, together.
///
/// The three questions a program asks, and the guard every example uses:
/// - ``status``: what was decided (`CLLocationManager.authorizationStatus`). "Allow once" shows
///   as ``AuthorizationStatus/authorizedWhenInUse`` for the rest of the manager's life.
/// - ``denial``: why positions may not be delivered *now*, or `nil` when they may: services off,
///   a status that does not authorize, settings that cannot be read, or when-in-use while the
///   program is not in use.
/// - ``isAuthorized``: `denial == nil`, the one check before asking for a position:
///
/// ```swift
/// let authorization = try await manager.requestWhenInUseAuthorization(prompter: prompter)
/// guard authorization.isAuthorized else { return show(authorization.denial!) }
/// ```
public struct Authorization: Sendable, Hashable {
    /// What the user and the administrator decided.
    public var decision: AuthorizationDecision
    /// Whether the program was in use when the authorization was judged.
    public var appState: AppState
    /// "Allow once" was answered: when-in-use for this manager, nothing kept.
    public var isAllowedOnce: Bool

    /// Creates an authorization from its parts.
    public init(decision: AuthorizationDecision, appState: AppState, isAllowedOnce: Bool = false) {
        self.decision = decision
        self.appState = appState
        self.isAllowedOnce = isAllowedOnce && decision.status == .notDetermined
    }

    /// Whether location services are on.
    public var locationServicesEnabled: Bool { decision.locationServicesEnabled }

    /// The authorization status: the decision's, or ``AuthorizationStatus/authorizedWhenInUse``
    /// after "Allow once".
    public var status: AuthorizationStatus { isAllowedOnce ? .authorizedWhenInUse : decision.status }

    /// How precise positions may be.
    public var accuracy: AccuracyAuthorization { decision.accuracy }

    /// Why positions may not be delivered now, or `nil` when they may.
    public var denial: DenialReason? {
        if decision.invalidSettings != nil { return .settingsInvalid }
        guard locationServicesEnabled else { return .servicesOff }
        return switch status {
        case .notDetermined: .notDetermined
        case .restricted: .restricted
        case .denied: .denied
        case .authorizedWhenInUse: appState == .foreground ? nil : .background
        case .authorizedAlways: nil
        }
    }

    /// Positions may be delivered now.
    public var isAuthorized: Bool { denial == nil }

    /// When-in-use while the program is in the background (a terminal's background job, a
    /// minimized window): a live stream pauses until it is in the foreground again.
    public var isPausedInBackground: Bool {
        denial == .background && appState == .background
    }
}
