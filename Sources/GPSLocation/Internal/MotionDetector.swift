import FoundationEssentials
import LocateSupport

/// Tells when a stream's position stops moving and starts again (`stationary` and `moving`):
/// stationary once the fixes have stayed within their accuracy (at least `minimumMovement`) of
/// the fix that began the stay for `stationaryAfter` of receiver time; moving at the first fix
/// clearly beyond it. Fixes without a time decide nothing.
struct MotionDetector {
    let stationaryAfter: Duration
    /// Movement smaller than this is noise whatever the fixes' accuracy says, metres.
    static let minimumMovement = 5.0
    private var anchor: Location?
    private var isStationary = false

    init(stationaryAfter: Duration) {
        self.stationaryAfter = stationaryAfter
    }

    /// The event `location` causes, if any.
    mutating func observe(_ location: Location) -> LocationStatusEvent? {
        guard let time = location.time else { return nil }
        guard let anchor, let anchorTime = anchor.time, time >= anchorTime else {
            self.anchor = location
            return nil
        }
        let tolerance = max(anchor.horizontalAccuracy ?? 0, location.horizontalAccuracy ?? 0, Self.minimumMovement)
        // A noise threshold needs no ellipsoid: the sphere's distance is within 0.6% and cheap.
        if anchor.greatCircleDistance(to: location) > tolerance {
            self.anchor = location
            guard isStationary else { return nil }
            isStationary = false
            return .moving
        }
        guard !isStationary, time.timeIntervalSince(anchorTime) >= stationaryAfter.seconds else { return nil }
        isStationary = true
        return .stationary
    }
}
