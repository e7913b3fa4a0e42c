import Synchronization

/// The gate for a program that passes positions on to other programs, one gate per recipient:
/// a server handing fixes to its clients (`locate serve`), a publisher to a broker. It follows
/// the recipient's authorization (its source's decision, as it changes, and whether the
/// recipient is in use, as the host judges it) and applies the manager's rule to every record:
///
/// 1. No authorization, no position; reduced accuracy, the grid cell only, at most one record
///    every five minutes (``release(_:at:)``).
/// 2. A released record carries the generation of the authorization it was released under, and
///    is handed out only while that generation is the current one (``admits(_:)``): a revoke, a
///    pause or a switch of accuracy holds back everything made before it, even when undone.
///
/// Release a fix when it is about to be handed out, never when it arrives, and ask
/// ``admits(_:)`` again before each further part of it goes out.
public final class DeliveryGate: Sendable {
    /// A location the gate released, and the authorization it was released under.
    public struct Release: Sendable, Hashable {
        /// The location as the recipient may have it (its grid cell under reduced accuracy).
        public let location: Location
        /// The authorization it was released under.
        public var authorization: Authorization { stamp.authorization }
        let stamp: ReleaseStamp
    }

    /// How often at most a recipient with reduced accuracy gets a record: once every five minutes.
    public static let reducedAccuracyInterval = AccuracyReducer.minimumInterval

    private let source: any AuthorizationSource
    private let appState: @Sendable () -> AppState
    private let generation: AuthorizationGeneration
    private let gate: Mutex<PositionGate>

    /// A gate for one recipient. It asks `source` for the decision at each release and check
    /// (a consent store reads its files again only when they changed); a host that hands
    /// records out rarely looks at ``authorization`` every tick, so that a change undone at
    /// once still starts a new generation.
    /// - Parameters:
    ///   - source: where the recipient's authorization comes from (its app's consent store).
    ///   - appState: whether the recipient is in use now; asked at each release and check.
    public init(authorizationSource source: any AuthorizationSource, appState: @escaping @Sendable () -> AppState) {
        self.source = source
        self.appState = appState
        let generation = AuthorizationGeneration(Authorization(decision: Self.decision(source), appState: appState()))
        self.generation = generation
        gate = Mutex(PositionGate(generation))
    }

    /// The recipient's authorization now (a change since the last look starts a new generation).
    public var authorization: Authorization {
        gate.withLock { _ in refresh() }
    }

    /// What the recipient may have of `location` now, handed out at `now`: the fix, its grid
    /// cell, or `nil` (not authorized, or reduced accuracy within five minutes of the last record).
    public func release(_ location: Location, at now: ContinuousClock.Instant = .now) -> Release? {
        gate.withLock { gate in
            refresh()
            let current = generation.current.generation
            return gate.release(location, readUnder: current, at: now).map { Release(location: $0.location, stamp: $0.stamp) }
        }
    }

    /// Whether `release` (or what was made of it) may still be handed out: its authorization is
    /// still the current one, of the same generation.
    public func admits(_ release: Release) -> Bool {
        gate.withLock { gate in
            refresh()
            return gate.admits(release.stamp)
        }
    }

    /// The authorization of the decision and the app state now; a new generation when it
    /// changed (called with the gate's lock held, so that changes are seen in order).
    @discardableResult
    private func refresh() -> Authorization {
        let now = Authorization(decision: Self.decision(source), appState: appState())
        if generation.current.authorization != now { generation.change(to: now) }
        return now
    }

    private static func decision(_ source: any AuthorizationSource) -> AuthorizationDecision {
        do throws(GPSLocationError) {
            return try source.currentDecision()
        } catch {
            return decision(failingWith: error)
        }
    }

    /// What a source that cannot decide decides: nothing is authorized.
    private static func decision(failingWith error: GPSLocationError) -> AuthorizationDecision {
        if case .invalidSettings(let problem) = error { return AuthorizationDecision(invalidSettings: problem) }
        return AuthorizationDecision(status: .denied)
    }
}
