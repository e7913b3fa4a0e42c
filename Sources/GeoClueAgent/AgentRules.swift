import GPSLocation

/// GeoClue's accuracy levels (`GClueAccuracyLevel`), as its agent interface speaks them.
enum AccuracyLevel {
    /// No position at all: GeoClue refuses the client ("Geolocation disabled").
    static let none: UInt32 = 0
    static let country: UInt32 = 1
    /// The city: what reduced accuracy allows (at it, GeoClue 2.6 does not start its NMEA source).
    static let city: UInt32 = 4
    static let neighborhood: UInt32 = 5
    static let street: UInt32 = 6
    /// The receiver's own accuracy.
    static let exact: UInt32 = 8

    /// The level's name in GeoClue's words, for messages.
    static func name(_ level: UInt32) -> String {
        switch level {
        case none: "none"
        case country: "country"
        case city: "city"
        case neighborhood: "neighborhood"
        case street: "street"
        case exact: "exact"
        default: "level \(level)"
        }
    }
}

/// What the agent answers GeoClue: whether the app may have positions, at which level at most,
/// and why not when not.
struct AgentAnswer: Sendable, Hashable {
    let authorized: Bool
    let level: UInt32
    let denial: DenialReason?

    /// Positions at `level`; a level of none is no authorization (GeoClue, the log and the
    /// message all say refused).
    static func authorized(at level: UInt32) -> AgentAnswer {
        AgentAnswer(authorized: level > AccuracyLevel.none, level: level, denial: nil)
    }

    /// No position, because of `denial`.
    static func refused(_ denial: DenialReason) -> AgentAnswer { AgentAnswer(authorized: false, level: AccuracyLevel.none, denial: denial) }
}

/// The agent's rules, from the consent store's decisions to GeoClue's answers, on their own: no
/// file, no bus, no clock.
///
/// GeoClue 2.6 asks its agent about one kind of client only, one it takes for a sandboxed app
/// (a Flatpak's scope in the client's cgroup, the Flatpak id its desktop id): `AuthorizeApp`,
/// answered from the app's own decision (its `[app "ID"]` section, else `[location]`). Every
/// other client it serves at most at the agent's `MaxAccuracyLevel`, answered from `[location]`.
enum AgentRules {
    /// `MaxAccuracyLevel` for the user's own decision (`[location]` and the policy): none when
    /// location services are off, the settings cannot be read, or location is restricted or
    /// denied (GeoClue then serves no client, and stops those it serves); the city under
    /// reduced accuracy; exact otherwise. Not determined is none too: GeoClue asks nothing about a
    /// client it does not take for a sandboxed app, so nobody could be asked, and what is not
    /// decided is not allowed (as `locate` without a terminal); a sandboxed app is asked about
    /// on its own.
    static func maxAccuracyLevel(for decision: AuthorizationDecision) -> UInt32 {
        if decision.invalidSettings != nil || !decision.locationServicesEnabled { return AccuracyLevel.none }
        switch decision.status {
        case .restricted, .denied, .notDetermined: return AccuracyLevel.none
        case .authorizedWhenInUse, .authorizedAlways:
            return decision.accuracy == .reducedAccuracy ? AccuracyLevel.city : AccuracyLevel.exact
        }
    }

    /// `AuthorizeApp`'s answer for an app whose decision is `decision`, asking for `requested`:
    /// authorized at the requested level, the city at most under reduced accuracy, when the app
    /// may have positions (always, or when-in-use: an app asks GeoClue when it starts using the
    /// location, which a desktop app does while it is used, and the agent cannot see its window;
    /// so it is taken as in use when it asks); refused, with the reason, when it may not;
    /// `nil` when nothing is decided (the user is to be asked).
    static func answer(for decision: AuthorizationDecision, requested: UInt32) -> AgentAnswer? {
        let denial = Authorization(decision: decision, appState: .foreground).denial
        switch denial {
        case nil: return .authorized(at: level(requested, under: decision.accuracy))
        case .notDetermined: return nil
        case let denial?: return .refused(denial)
        }
    }

    /// The answer after the user was asked: authorized as ``answer(for:requested:)`` says for
    /// any allow (once, while using, always), refused for a deny, and refused as not determined
    /// when nobody answered (no terminal, or nobody at it).
    static func answer(after reply: AuthorizationAnswer?, accuracy: AccuracyAuthorization, requested: UInt32) -> AgentAnswer {
        switch reply {
        case .allowOnce?, .allowWhileUsing?, .allowAlways?: .authorized(at: level(requested, under: accuracy))
        case .deny?: .refused(.denied)
        case nil: .refused(.notDetermined)
        }
    }

    /// `requested`, at most the city under reduced accuracy (and never past exact).
    private static func level(_ requested: UInt32, under accuracy: AccuracyAuthorization) -> UInt32 {
        min(requested, accuracy == .reducedAccuracy ? AccuracyLevel.city : AccuracyLevel.exact)
    }
}
