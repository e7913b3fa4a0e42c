import FoundationEssentials
import LocateSupport

/// Decides which fixes of a live stream are emitted, following `LiveUpdateOptions`.
///
/// A fix within the desired accuracy (when one is asked for; a fix that does not state its
/// accuracy is taken as exact), of at least the minimum fix type and not suspect when those are
/// asked for, passes when no fix was emitted yet, or when the minimum interval
/// has passed since the last emitted fix and the receiver has moved at least the filter distance
/// from it (or the heartbeat is due).
///
/// Time is the stream's one clock: the fixes' receiver time, so a replay at any speed (or as
/// fast as read) passes the fixes a live run would; a fix without a time is judged on the time
/// it was handed out (`fallback`), which the caller passes in.
struct LiveUpdateFilter {
    let options: LiveUpdateOptions
    private var lastEmitted: (location: Location, at: Date)?

    init(options: LiveUpdateOptions) {
        self.options = options
    }

    /// Whether `location` is emitted; remembers it when it is.
    /// - Parameter fallback: the time to judge a fix without a receiver time by.
    mutating func admit(_ location: Location, handedOutAt fallback: Date) -> Bool {
        if let desired = options.desiredAccuracy, let accuracy = location.horizontalAccuracy, accuracy > desired { return false }
        // A grid cell has no fix type, and its integrity is not told: under reduced accuracy
        // neither is judged (holding cells back by them would tell them).
        if location.accuracy == .fullAccuracy {
            if let minimum = options.minimumFix, (location.details.fix?.rank ?? 0) < minimum.rank { return false }
            if options.rejectsSuspect, case .suspect? = location.integrity { return false }
        }
        let now = location.time ?? fallback
        guard let last = lastEmitted else {
            lastEmitted = (location, now)
            return true
        }
        // A receiver clock that went back starts the count afresh.
        let elapsed = max(0, now.timeIntervalSince(last.at))
        if let interval = options.minimumInterval, elapsed < interval.seconds, now >= last.at { return false }
        // Without a distance filter every fix has moved far enough; no trigonometry per fix.
        let moved = options.distanceFilter <= 0 || last.location.greatCircleDistance(to: location) >= options.distanceFilter
        let heartbeatDue = options.heartbeat.map { elapsed >= $0.seconds } ?? false
        guard moved || heartbeatDue else { return false }
        lastEmitted = (location, now)
        return true
    }
}
