/// Where a manager's authorization comes from: what the user and the administrator decided,
/// now and as it changes, and where the user's answers are kept.
///
/// `GPSLocationConsent`'s `ConsentStore` is the source `locate` and most hosts use: the user's
/// settings file and the administrator's policy, watched for changes. A host with a consent
/// system of its own implements this protocol; ``StaticAuthorization`` is a fixed decision for
/// daemons and tests.
///
/// The manager resolves a decision into an ``Authorization`` for its process (foreground or not,
/// "Allow once") and consults it through one gate whenever it hands a position out.
public protocol AuthorizationSource: Sendable {
    /// The name of the app whose permission this is, as the prompt shows it; `nil` for the default.
    var appName: String? { get }

    /// What is decided now.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the decision cannot be known (a
    ///   malformed file): the manager then fails closed.
    func currentDecision() throws(GPSLocationError) -> AuthorizationDecision

    /// The decision now, then again each time it changes, until the consumer stops iterating.
    /// A change must reach the consumer within a fraction of a second: a revoke stops running
    /// streams through it. While the decision cannot be known for a while (a settings file
    /// malformed for a moment), give ``AuthorizationDecision/init(invalidSettings:)``: running
    /// streams hold everything back and resume when a decision comes again. The sequence ends
    /// with an error only when the decision can never be known again (fail closed).
    func decisionUpdates() -> AsyncUpdates<AuthorizationDecision>

    /// Keeps what the user chose (to a prompt, or in a settings command):
    /// ``AuthorizationStatus/authorizedWhenInUse``, ``AuthorizationStatus/authorizedAlways`` or
    /// ``AuthorizationStatus/denied``.
    /// - Throws: ``GPSLocationError`` when it cannot be kept (or `status` is none of the three).
    func record(_ status: AuthorizationStatus) throws(GPSLocationError)

    /// The last location kept for this user by ``keep(_:releasedUnder:)``, for requests that
    /// accept a fix of some age (the manager hands it out as ``LocationSource/cache``); `nil`
    /// when there is none (the default keeps nothing).
    func keptLocation() -> Location?

    /// Keeps `location`, which the gate just released under `authorization`, for later
    /// requests. The source must check again, atomically with keeping it, that the decision
    /// has not changed since: a location must never be kept after a revoke.
    func keep(_ location: Location, releasedUnder authorization: Authorization)
}

extension AuthorizationSource {
    /// No app name: the default.
    public var appName: String? { nil }

    /// Nothing kept.
    public func keptLocation() -> Location? { nil }

    /// Keeps nothing.
    public func keep(_ location: Location, releasedUnder authorization: Authorization) {}
}

/// A decision that never changes, for daemons, tests and previews: for example
/// `StaticAuthorization(AuthorizationDecision(status: .authorizedAlways))`. Answers to a prompt
/// are not kept ("Allow once" still holds for the manager).
public struct StaticAuthorization: AuthorizationSource {
    /// The decision.
    public let decision: AuthorizationDecision

    /// A source that always says `decision`.
    public init(_ decision: AuthorizationDecision) {
        self.decision = decision
    }

    /// The decision.
    public func currentDecision() throws(GPSLocationError) -> AuthorizationDecision { decision }

    /// The decision, once; the sequence stays open until the consumer stops.
    public func decisionUpdates() -> AsyncUpdates<AuthorizationDecision> {
        let (updates, continuation) = AsyncUpdates<AuthorizationDecision>.makeStream(bufferingNewest: 1)
        continuation.yield(decision)
        return updates
    }

    /// Keeps nothing: the decision is fixed.
    public func record(_ status: AuthorizationStatus) throws(GPSLocationError) {}
}

extension AuthorizationSource {
    /// Keeps what the user answered to `question`, as ``GPSLocationManager`` does with its
    /// prompter's answer (and `locate`, which asks on its terminal before it starts a manager):
    /// "Allow while using" and "Always allow" are kept as when-in-use and always, "Don't allow" as
    /// denied; an upgrade question keeps only always or deny; "Allow once" and no answer keep
    /// nothing.
    /// - Returns: whether the answer was "Allow once" to a first question, which the asker holds
    ///   for its own life.
    /// - Throws: ``GPSLocationError`` when the answer cannot be kept.
    func keep(_ answer: AuthorizationAnswer?, to question: AuthorizationQuestion) throws(GPSLocationError) -> Bool {
        switch answer {
        case .allowOnce?:
            return !question.isUpgrade
        case .allowWhileUsing?:
            if !question.isUpgrade { try record(.authorizedWhenInUse) }
        case .allowAlways?:
            try record(.authorizedAlways)
        case .deny?:
            try record(.denied)
        case nil:
            break
        }
        return false
    }
}
