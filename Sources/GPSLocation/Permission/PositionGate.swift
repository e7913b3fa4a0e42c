/// The one check every position passes on its way out of the library, whether it answers a
/// single request or flows in a live stream: no authorization, no position; reduced accuracy,
/// a reduced position. Nothing else hands a `Location` from gpsd to a caller.
struct PositionGate {
    private var reducer = AccuracyReducer()

    /// What may be released of `location` under `permission`: the fix itself, its reduced form,
    /// or nothing. `now` is when a live stream received it (`nil` for a single request).
    mutating func release(_ location: Location, under permission: Permission, at now: ContinuousClock.Instant?) -> Location? {
        guard permission.isAuthorized else { return nil }
        switch permission.accuracy {
        case .fullAccuracy: return location
        case .reducedAccuracy: return reducer.reduce(location, at: now)
        }
    }

    /// Forget the reduced-accuracy cell and rate limit, as when the accuracy setting changes.
    mutating func reset() {
        reducer = AccuracyReducer()
    }
}
