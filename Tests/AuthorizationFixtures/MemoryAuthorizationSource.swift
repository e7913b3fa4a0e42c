import Foundation
import GPSLocation
import Synchronization

/// An authorization source held in memory, for the manager's own tests: a decision a test sets,
/// the answers kept, and a kept location. (The consent store, the real source, has tests of its
/// own; `locate`'s end-to-end tests run the two together.)
final class MemoryAuthorizationSource: AuthorizationSource {
    private struct State {
        var decision: AuthorizationDecision
        var recorded: [AuthorizationStatus] = []
        var kept: Location?
        var watchers: [AsyncUpdates<AuthorizationDecision>.Continuation] = []
    }

    private let state: Mutex<State>
    let appName: String?

    init(_ decision: AuthorizationDecision = AuthorizationDecision(), app: String? = nil, kept: Location? = nil) {
        state = Mutex(State(decision: decision, kept: kept))
        appName = app
    }

    /// Changes the decision, as an edit of the settings would.
    func decide(_ decision: AuthorizationDecision) {
        let watchers = state.withLock { state in
            state.decision = decision
            return state.watchers
        }
        for watcher in watchers { watcher.yield(decision) }
    }

    var recorded: [AuthorizationStatus] { state.withLock { $0.recorded } }
    var kept: Location? { state.withLock { $0.kept } }

    func currentDecision() throws(GPSLocationError) -> AuthorizationDecision { state.withLock { $0.decision } }

    func decisionUpdates() -> AsyncUpdates<AuthorizationDecision> {
        let (updates, continuation) = AsyncUpdates<AuthorizationDecision>.makeStream()
        let decision = state.withLock { state in
            state.watchers.append(continuation)
            return state.decision
        }
        continuation.yield(decision)
        return updates
    }

    func record(_ choice: AuthorizationStatus) throws(GPSLocationError) {
        let decision = state.withLock { state in
            state.recorded.append(choice)
            state.decision.status = choice
            return state.decision
        }
        decide(decision)
    }

    func keptLocation() -> Location? { kept }

    func keep(_ location: Location, releasedUnder authorization: Authorization) {
        state.withLock { $0.kept = location }
    }
}
