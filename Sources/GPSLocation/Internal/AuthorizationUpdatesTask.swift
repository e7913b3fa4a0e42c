import LocateSupport
import Synchronization

/// `GPSLocationManager.authorizationUpdates()`: a task that follows the source's decisions and,
/// every tick, the process's terminal state, and yields the authorization whenever it changes.
enum AuthorizationUpdatesTask {
    /// How often the process's terminal state is checked (foreground or background).
    static let tick = Duration.milliseconds(200)

    /// What is known so far, and what was last given.
    private final class Known: Sendable {
        let state: Mutex<(decision: AuthorizationDecision?, context: ProcessContext, last: Authorization?)>
        let isAllowedOnce: Bool
        let continuation: AsyncUpdates<Authorization>.Continuation

        init(context: ProcessContext, isAllowedOnce: Bool, continuation: AsyncUpdates<Authorization>.Continuation) {
            state = Mutex((nil, context, nil))
            self.isAllowedOnce = isAllowedOnce
            self.continuation = continuation
        }

        /// Notes a decision or a context, and yields the authorization if it changed.
        func note(decision: AuthorizationDecision? = nil, context: ProcessContext? = nil) {
            let changed: Authorization? = state.withLock { state in
                if let decision { state.decision = decision }
                if let context { state.context = context }
                guard let decision = state.decision else { return nil }
                let authorization = Authorization(decision: decision, context: state.context, isAllowedOnce: isAllowedOnce)
                guard authorization != state.last else { return nil }
                state.last = authorization
                return authorization
            }
            if let changed { continuation.yield(changed) }
        }
    }

    static func start(source: any AuthorizationSource, context: ProcessContext?, isAllowedOnce: Bool) -> AsyncUpdates<Authorization> {
        let (updates, continuation) = AsyncUpdates<Authorization>.makeStream(bufferingNewest: 8)
        let known = Known(context: context ?? .current(), isAllowedOnce: isAllowedOnce, continuation: continuation)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do throws(GPSLocationError) {
                        for try await decision in source.decisionUpdates() {
                            known.note(decision: decision)
                        }
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: tick)
                        known.note(context: context ?? .current())
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
