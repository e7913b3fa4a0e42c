import Synchronization

/// What a `GPSLocationManager` remembers, behind a lock: the last location it delivered (as it
/// was released then; the manager releases it again when read), "allow once", and how many of
/// its live streams are being iterated.
final class ManagerState: Sendable {
    private struct Values {
        var lastLocation: Location?
        var isAllowedOnce = false
        var activeLiveUpdates = 0
    }

    private let values = Mutex(Values())

    var lastLocation: Location? { values.withLock { $0.lastLocation } }
    var isAllowedOnce: Bool { values.withLock { $0.isAllowedOnce } }
    var activeLiveUpdates: Int { values.withLock { $0.activeLiveUpdates } }

    func allowOnce() {
        values.withLock { $0.isAllowedOnce = true }
    }

    /// Notes a delivered location.
    func record(_ location: Location) {
        values.withLock { $0.lastLocation = location }
    }

    func liveUpdatesStarted() {
        values.withLock { $0.activeLiveUpdates += 1 }
    }

    func liveUpdatesEnded() {
        values.withLock { $0.activeLiveUpdates -= 1 }
    }
}
