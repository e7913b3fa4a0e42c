import Glibc

/// Decides which fixes of a live stream are emitted, following `LiveUpdateOptions`.
///
/// A fix passes when no fix was emitted yet, or when the minimum interval has passed since
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
        guard let last = lastEmitted else {
            lastEmitted = (location, now)
            return true
        }
        let elapsed = last.at.duration(to: now)
        if let interval = options.minimumInterval, elapsed < interval { return false }
        // Without a distance filter every fix has moved far enough; no trigonometry per fix.
        let moved = options.distanceFilter <= 0 || greatCircleDistance(from: last.location, to: location) >= options.distanceFilter
        let heartbeatDue = options.heartbeat.map { elapsed >= $0 } ?? false
        guard moved || heartbeatDue else { return false }
        lastEmitted = (location, now)
        return true
    }
}

/// The distance in metres between two locations along the earth's surface (haversine, mean radius).
func greatCircleDistance(from a: Location, to b: Location) -> Double {
    greatCircleDistance(a.latitude, a.longitude, b.latitude, b.longitude)
}

/// The distance in metres between two coordinates in degrees (haversine, mean radius 6,371,008.8 m).
func greatCircleDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let earthRadius = 6_371_008.8
    let radians = Double.pi / 180
    let dLat = (latitude2 - latitude1) * radians
    let dLon = (longitude2 - longitude1) * radians
    let h = pow(sin(dLat / 2), 2) + cos(latitude1 * radians) * cos(latitude2 * radians) * pow(sin(dLon / 2), 2)
    return 2 * earthRadius * asin(min(1, h.squareRoot()))
}
