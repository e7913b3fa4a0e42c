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

    /// The location `request` delivers, noted; the best fix seen is noted too when it comes
    /// with `accuracyNotReached`.
    func recording(_ request: () async throws -> Location) async throws -> Location {
        do {
            let location = try await request()
            record(location)
            return location
        } catch GPSLocationError.accuracyNotReached(let timeout, let best) {
            record(best)
            throw GPSLocationError.accuracyNotReached(timeout: timeout, bestSeen: best)
        }
    }

    /// `recording`, for a request that blocks the calling thread.
    func recordingNow(_ request: () throws -> Location) throws -> Location {
        do {
            let location = try request()
            record(location)
            return location
        } catch GPSLocationError.accuracyNotReached(let timeout, let best) {
            record(best)
            throw GPSLocationError.accuracyNotReached(timeout: timeout, bestSeen: best)
        }
    }
}
