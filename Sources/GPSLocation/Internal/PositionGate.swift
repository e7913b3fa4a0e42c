/// The one check every position passes on its way out of the library, whether it answers a
/// single request, flows in a live stream, or is read back as the manager's last location: no
/// authorization, no position; reduced accuracy, a reduced position. It is consulted when a
/// position is handed out, never only when it arrived, so a revoke holds back whatever was
/// still waiting. Nothing else hands a `Location` from gpsd or a kept fix to a caller.
struct PositionGate {
    private var reducer = AccuracyReducer()
    private var accuracy: AccuracyAuthorization?

    /// What may be released of `location` under `authorization`: the fix itself, its reduced
    /// form, or nothing. `now` is when a live stream hands it out (`nil` for a single request,
    /// which has no rate limit). A change of accuracy starts the reducer afresh.
    mutating func release(_ location: Location, under authorization: Authorization, at now: ContinuousClock.Instant?) -> Location? {
        guard authorization.isAuthorized else { return nil }
        if authorization.accuracy != accuracy {
            reducer = AccuracyReducer()
            accuracy = authorization.accuracy
        }
        switch authorization.accuracy {
        case .fullAccuracy: return location
        case .reducedAccuracy: return reducer.reduce(location, at: now)
        }
    }

    /// What a single request may release: `release(_:under:at:)` with a gate of its own.
    static func releaseOnce(_ location: Location, under authorization: Authorization) -> Location? {
        var gate = PositionGate()
        return gate.release(location, under: authorization, at: nil)
    }
}
