import FoundationEssentials
import Synchronization

/// The one check every position, and everything derived from one, passes on its way out of the
/// library: a fix of a single request or a live stream, a region event or a visit a detector
/// made of fixes, the manager's last location, what is kept for later. The rule:
///
/// 1. No authorization, no position; reduced accuracy, a reduced position (``release(_:readUnder:at:)``).
/// 2. A record is stamped with the generation of the authorization it was released under
///    (``ReleaseStamp``), and it is handed out only while that generation is still the current
///    one (``admits(_:requiringFullAccuracy:)``): each change of the authorization (a revoke, a
///    pause, a switch to reduced accuracy, a settings file that cannot be read) starts a new
///    generation, so whatever was made before it (a fix still queued, the events one fix made,
///    a served or published message waiting for a slow reader) is dropped, even when the
///    authorization comes back.
/// 3. It is consulted when a record is handed out, never only when the position arrived.
/// 4. After a change, a stream's gate releases no fix the receiver took before it: gpsd hands
///    its current fix again (a POLL, the next report of a slow receiver), which is the position
///    from before a revoke; a fix whose receiver time is no later than the newest one the gate
///    was asked about before the change is not released (unless it is a minute or more older:
///    a replayed track that started again, a receiver whose clock went back).
///
/// Nothing else hands a `Location` from gpsd or a kept fix, or anything made of one, to a
/// caller: a new producer of records takes a gate and asks it for each record it hands out.
struct PositionGate: Sendable {
    /// The authorization of the stream (or request) and its generation, as its producer follows it.
    let authorization: AuthorizationGeneration
    private var reducer = AccuracyReducer()
    private var accuracy: AccuracyAuthorization?
    /// The newest receiver time of a fix the gate was asked about, and the generation of the last ask.
    private var newestTime: Date?
    private var lastGeneration: Int?
    /// The newest receiver time before the last change of the authorization (rule 4).
    private var barrier: Date?

    /// A gate over the authorization `authorization` follows.
    init(_ authorization: AuthorizationGeneration) {
        self.authorization = authorization
    }

    /// What may be released of `location`, read from gpsd under the authorization's
    /// `generation`: the fix itself, its reduced form, or nothing (when the authorization does
    /// not authorize now, or has changed since the fix was read). `now` is when a live stream
    /// hands it out (`nil` for a single request, which has no rate limit). A change of accuracy
    /// starts the reducer afresh.
    /// - Returns: the released location and the stamp its records carry.
    mutating func release(
        _ location: Location, readUnder generation: Int, at now: ContinuousClock.Instant?
    ) -> (location: Location, stamp: ReleaseStamp)? {
        let current = authorization.current
        if let lastGeneration, lastGeneration != current.generation { barrier = newestTime }
        lastGeneration = current.generation
        if let time = location.time, newestTime.map({ time > $0 }) ?? true { newestTime = time }
        if let barrier, let time = location.time, time <= barrier, barrier.timeIntervalSince(time) < 60 { return nil }
        guard generation == current.generation, let released = release(location, under: current.authorization, at: now) else {
            return nil
        }
        return (released, ReleaseStamp(generation: current.generation, authorization: current.authorization))
    }

    /// Whether a record made of a fix released with `stamp` may be handed out now: the
    /// authorization is still of that generation (and so still authorizes), and, for records
    /// that need precise positions (region events, visits), full accuracy.
    func admits(_ stamp: ReleaseStamp, requiringFullAccuracy: Bool = false) -> Bool {
        stamp.generation == authorization.current.generation && (!requiringFullAccuracy || stamp.authorization.accuracy == .fullAccuracy)
    }

    /// The first rule alone, for a position judged under `authorization` as it is now.
    private mutating func release(_ location: Location, under authorization: Authorization, at now: ContinuousClock.Instant?) -> Location? {
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

    /// What a single request may release of `location` under `authorization` as it is now: the
    /// first rule, with a gate of its own (a request hands out one record, at once).
    static func releaseOnce(_ location: Location, under authorization: Authorization) -> Location? {
        var gate = PositionGate(AuthorizationGeneration(authorization))
        return gate.release(location, under: authorization, at: nil)
    }
}

/// What a released record carries to be checked again when it is handed out: the generation of
/// the authorization it was released under, and that authorization.
struct ReleaseStamp: Sendable, Hashable {
    let generation: Int
    let authorization: Authorization
}

/// The authorization a stream's records are released under, and its generation: each change
/// makes a new generation, and a record made under an older one is never handed out, even when
/// the authorization comes back (a revoke holds back everything queued before it). Its producer
/// changes it; the consumer's gate reads it.
final class AuthorizationGeneration: Sendable {
    private let state: Mutex<(generation: Int, authorization: Authorization)>

    init(_ authorization: Authorization) {
        state = Mutex((0, authorization))
    }

    /// The authorization now and its generation.
    var current: (generation: Int, authorization: Authorization) { state.withLock { $0 } }

    /// Makes `authorization` the current one, in a new generation; returns that generation.
    @discardableResult
    func change(to authorization: Authorization) -> Int {
        state.withLock { state in
            state = (state.generation + 1, authorization)
            return state.generation
        }
    }
}
