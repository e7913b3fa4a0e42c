import LocateSupport

/// Decides which fixes of a live stream are emitted, following `LiveUpdateOptions`.
///
/// A fix within the desired accuracy (when one is asked for) passes when no fix was emitted yet, or when the minimum interval has passed since
/// the last emitted fix and the receiver has moved at least the filter distance from it
/// (or the heartbeat is due). Time is measured on the clock the caller passes in, so the
/// rules can be checked without waiting.
struct LiveUpdateFilter {
    let options: LiveUpdateOptions
    private var lastEmitted: (location: Location, at: ContinuousClock.Instant)?

    init(options: LiveUpdateOptions) {
        self.options = options
    }

    /// Whether `location`, received at `now`, is emitted; remembers it when it is.
    mutating func admit(_ location: Location, at now: ContinuousClock.Instant) -> Bool {
        if let desired = options.desiredAccuracy {
            guard let accuracy = location.horizontalAccuracy, accuracy <= desired else { return false }
        }
        guard let last = lastEmitted else {
            lastEmitted = (location, now)
            return true
        }
        let elapsed = last.at.duration(to: now)
        if let interval = options.minimumInterval, elapsed < interval { return false }
        // Without a distance filter every fix has moved far enough; no trigonometry per fix.
        let moved = options.distanceFilter <= 0 || last.location.greatCircleDistance(to: location) >= options.distanceFilter
        let heartbeatDue = options.heartbeat.map { elapsed >= $0 } ?? false
        guard moved || heartbeatDue else { return false }
        lastEmitted = (location, now)
        return true
    }
}
