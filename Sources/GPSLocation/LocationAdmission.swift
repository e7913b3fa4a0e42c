/// Whether a record made of a location a live stream handed out may still be handed out: the
/// gate's rule, as a value any thread can ask at the moment it hands the record on.
///
/// For a host that hands such records out later and elsewhere (a publisher's queue that waits
/// through a broker outage, a slow reader's buffer): it takes the admission with the location
/// (``LiveUpdates/Iterator/lastLocationAdmission``) and asks ``isAdmitted`` when the record goes
/// out. Any change of the authorization since the location was released (a revoke, a pause, a
/// switch of accuracy, even one undone at once) makes the record stale, as the stream's own gate
/// does with the fixes waiting in it.
public struct LocationAdmission: Sendable {
    let stamp: ReleaseStamp
    let authorization: AuthorizationGeneration

    /// Whether the authorization the location was released under is still the current one.
    public var isAdmitted: Bool { PositionGate(authorization).admits(stamp) }

    /// ``isAdmitted``, and the location was released with full accuracy: for records that need
    /// precise positions (region events).
    public var isAdmittedPrecise: Bool { PositionGate(authorization).admits(stamp, requiringFullAccuracy: true) }
}

extension LiveUpdates.Iterator {
    /// The admission of the location this stream handed out last, to ask from any thread when a
    /// record made of it is handed on; `nil` before the first.
    public var lastLocationAdmission: LocationAdmission? {
        lastStamp.map { LocationAdmission(stamp: $0, authorization: session.authorization) }
    }
}

extension LiveUpdates.Iterator {
    /// The admission of records made before this stream started (what a publisher's outbox on
    /// disk kept from an earlier run): admitted while the authorization the stream has now
    /// holds (any change, even one undone at once, ends it); `nil` when it does not authorize
    /// now (denied, paused, services off), so that the host deletes those records unsent.
    /// Ask ``LocationAdmission/isAdmittedPrecise`` for records of precise positions: under
    /// reduced accuracy they must not go either.
    public var admissionNow: LocationAdmission? {
        let current = session.authorization.current
        guard current.authorization.isAuthorized, !current.authorization.isPausedInBackground else { return nil }
        return LocationAdmission(
            stamp: ReleaseStamp(generation: current.generation, authorization: current.authorization), authorization: session.authorization)
    }
}
