import Foundation
public import GPSLocation
import Synchronization

/// An authorization source held in memory, for the tests of the manager and of apps built on it: a decision a test sets,
/// the answers kept, and a kept location. (The consent store, the real source, has tests of its
/// own; `locate`'s end-to-end tests run the two together.)
public final class MemoryAuthorizationSource: AuthorizationSource {
    private struct State {
        var decision: AuthorizationDecision
        var recorded: [AuthorizationStatus] = []
        var kept: Location?
        var watchers: [AsyncUpdates<AuthorizationDecision>.Continuation] = []
    }

    private let state: Mutex<State>
    /// The app whose permission it answers for; `nil` for `[location]`.
    public let appName: String?

    /// A source that answers `decision` for `app`, keeping `kept`.
    public init(_ decision: AuthorizationDecision = AuthorizationDecision(), app: String? = nil, kept: Location? = nil) {
        state = Mutex(State(decision: decision, kept: kept))
        appName = app
    }

    /// Changes the decision, as an edit of the settings would.
    public func decide(_ decision: AuthorizationDecision) {
        let watchers = state.withLock { state in
            state.decision = decision
            return state.watchers
        }
        for watcher in watchers { watcher.yield(decision) }
    }

    /// The answers given to `record(_:)`, in order.
    public var recorded: [AuthorizationStatus] { state.withLock { $0.recorded } }
    /// The location kept last.
    public var kept: Location? { state.withLock { $0.kept } }

    /// The decision now.
    public func currentDecision() throws(GPSLocationError) -> AuthorizationDecision { state.withLock { $0.decision } }

    /// The decision now, then each one `decide(_:)` or `record(_:)` makes.
    public func decisionUpdates() -> AsyncUpdates<AuthorizationDecision> {
        let (updates, continuation) = AsyncUpdates<AuthorizationDecision>.makeStream()
        let decision = state.withLock { state in
            state.watchers.append(continuation)
            return state.decision
        }
        continuation.yield(decision)
        return updates
    }

    /// Keeps `choice` and makes it the decision's status.
    public func record(_ choice: AuthorizationStatus) throws(GPSLocationError) {
        let decision = state.withLock { state in
            state.recorded.append(choice)
            state.decision.status = choice
            return state.decision
        }
        decide(decision)
    }

    /// The location kept last.
    public func keptLocation() -> Location? { kept }

    /// Keeps `location`.
    public func keep(_ location: Location, releasedUnder authorization: Authorization) {
        state.withLock { $0.kept = location }
    }
}
