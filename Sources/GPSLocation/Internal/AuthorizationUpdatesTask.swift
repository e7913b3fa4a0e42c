import LocateSupport
import Synchronization

/// `GPSLocationManager.authorizationUpdates()`: a task that follows the source's decisions and,
/// every tick, the app state, and yields the authorization whenever it changes.
enum AuthorizationUpdatesTask {
    /// What is known so far, and what was last given.
    private final class Known: Sendable {
        let state: Mutex<(decision: AuthorizationDecision?, appState: AppState, last: Authorization?)>
        let manager: ManagerState
        let continuation: AsyncUpdates<Authorization>.Continuation

        init(manager: ManagerState, continuation: AsyncUpdates<Authorization>.Continuation) {
            state = Mutex((nil, manager.appState, nil))
            self.manager = manager
            self.continuation = continuation
        }

        /// Notes a decision or an app state, and yields the authorization if it changed.
        func note(decision: AuthorizationDecision? = nil, appState: AppState? = nil) {
            let changed: Authorization? = state.withLock { state in
                if let decision { state.decision = decision }
                if let appState { state.appState = appState }
                guard let decision = state.decision else { return nil }
                let authorization = manager.authorization(decision, appState: state.appState)
                guard authorization != state.last else { return nil }
                state.last = authorization
                return authorization
            }
            if let changed { continuation.yield(changed) }
        }
    }

    static func start(source: any AuthorizationSource, state: ManagerState) -> AsyncUpdates<Authorization> {
        let (updates, continuation) = AsyncUpdates<Authorization>.makeStream(bufferingNewest: 8)
        let known = Known(manager: state, continuation: continuation)
        // Followed from now: a change made before the task first runs is not missed.
        let decisions = source.decisionUpdates()
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do throws(GPSLocationError) {
                        for try await decision in decisions {
                            known.note(decision: decision)
                        }
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: EventWait.tick)
                        known.note(appState: state.appState)
                    }
                }
                // The decisions end only with an error (or a source that has no more to say).
                await group.next()
                group.cancelAll()
            }
            continuation.finish()
        }
        continuation.onTermination { task.cancel() }
        return updates
    }
}
