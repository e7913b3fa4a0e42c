import Synchronization

/// What a manager keeps that its requests and streams read from their own threads: the app
/// state the host gave (or `nil`, the terminal rule), an "Allow once" answer, and the last
/// location delivered. Every authorization of the manager is judged through it.
final class ManagerState: Sendable {
    private struct Values {
        var appState: AppState?
        var isAllowedOnce = false
        /// The last location delivered and the authorization it was released under.
        var last: (location: Location, authorization: Authorization)?
        /// What forgets it when the authorization changes, once there is one to forget.
        var watch: Task<Void, Never>?
    }

    private let values: Mutex<Values>
    private let source: any AuthorizationSource

    init(appState: AppState?, source: any AuthorizationSource) {
        values = Mutex(Values(appState: appState))
        self.source = source
    }

    /// The app state now: the host's, or the terminal rule's.
    var appState: AppState { values.withLock { $0.appState } ?? .terminal }

    /// Makes `state` the host's app state (`nil`: the terminal rule).
    func setAppState(_ state: AppState?) {
        values.withLock { $0.appState = state }
    }

    /// "Allow once" was answered for this manager.
    var isAllowedOnce: Bool { values.withLock { $0.isAllowedOnce } }

    func allowOnce() {
        values.withLock { $0.isAllowedOnce = true }
    }

    /// Notes `location`, released under `authorization`, as the last one delivered. The gate's
    /// second rule holds for it as for every record: any change of the authorization after it
    /// was released (a revoke, a pause, a switch of accuracy, even one undone at once) forgets
    /// it, so it is never handed out again. A task follows the authorization for that from the
    /// first delivery on, until ``stop()``.
    func delivered(_ location: Location, releasedUnder authorization: Authorization) {
        let startsWatch = values.withLock { values in
            values.last = (location, authorization)
            return values.watch == nil
        }
        if startsWatch { watchAuthorization() }
    }

    /// The last location delivered, when the authorization is still the one it was released
    /// under (`now`); otherwise it is forgotten.
    func lastLocation(under now: Authorization) -> Location? {
        values.withLock { values in
            guard let last = values.last else { return nil }
            guard last.authorization == now else {
                values.last = nil
                return nil
            }
            return last.location
        }
    }

    /// Forgets the last location if it was released under another authorization than `now`.
    private func note(_ now: Authorization) {
        values.withLock { values in
            if let last = values.last, last.authorization != now { values.last = nil }
        }
    }

    private func watchAuthorization() {
        let updates = AuthorizationUpdatesTask.start(source: source, state: self)
        let task = Task { [weak self] in
            do throws(GPSLocationError) {
                for try await authorization in updates {
                    guard let self else { return }
                    self.note(authorization)
                }
            } catch {
                // The decision can never be known again: nothing is authorized.
            }
            self?.values.withLock { $0.last = nil }
        }
        let keeps = values.withLock { values in
            guard values.watch == nil else { return false }
            values.watch = task
            return true
        }
        if !keeps { task.cancel() }
    }

    /// Stops following the authorization (the manager is gone).
    func stop() {
        values.withLock { $0.watch }?.cancel()
    }

    /// The authorization `decision` gives this manager now: judged in the app state now, with
    /// its "Allow once".
    func authorization(_ decision: AuthorizationDecision) -> Authorization {
        let (appState, isAllowedOnce) = values.withLock { ($0.appState, $0.isAllowedOnce) }
        return Authorization(decision: decision, appState: appState ?? .terminal, isAllowedOnce: isAllowedOnce)
    }

    /// `authorization(_:)` in an app state already known (read once per request or tick).
    func authorization(_ decision: AuthorizationDecision, appState: AppState) -> Authorization {
        Authorization(decision: decision, appState: appState, isAllowedOnce: isAllowedOnce)
    }
}
