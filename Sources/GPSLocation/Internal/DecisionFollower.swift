import LocateSupport
import Synchronization

/// A source's decisions for a thread that waits in `poll`, not in Swift's concurrency: a task
/// iterates the source's updates and leaves the newest here, signalling a wake-up the thread
/// polls.
final class DecisionFollower: Sendable {
    /// The newest decision not yet taken, or the error the updates ended with.
    private final class Newest: Sendable {
        let value = Mutex<Result<AuthorizationDecision, GPSLocationError>?>(nil)
    }

    private let newest = Newest()
    private let task: Task<Void, Never>

    /// Starts following `source`; `wakeUp` is signalled for each new decision and for the end.
    init(_ source: any AuthorizationSource, wakeUp: WakeUp) {
        task = Task { [newest] in
            do throws(GPSLocationError) {
                for try await decision in source.decisionUpdates() {
                    newest.value.withLock { $0 = .success(decision) }
                    wakeUp.signal()
                }
            } catch {
                newest.value.withLock { $0 = .failure(error) }
                wakeUp.signal()
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// The newest decision since the last call, or the error the source's updates ended with;
    /// `nil` when there is nothing new.
    func take() -> Result<AuthorizationDecision, GPSLocationError>? {
        newest.value.withLock { newest in
            defer { if case .success = newest { newest = nil } }
            return newest
        }
    }
}
