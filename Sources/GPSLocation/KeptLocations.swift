import FoundationEssentials

extension GPSLocationManager {
    /// Hands out positions the host kept earlier (a history it recorded while location was
    /// allowed), under this process's authorization now, as a live stream would hand them out:
    /// `nil` when location is not authorized now (nothing may go; ``authorization()`` says why);
    /// under reduced accuracy each as its grid cell, and at most one every five minutes of the
    /// points' own times (as a reduced stream releases them); otherwise as they are. So a record reaches the reader only if it was
    /// allowed when it was taken (the host's part) and is allowed now.
    /// - Parameter locations: the kept positions, in time order.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the authorization cannot be known.
    public nonisolated func admitKept(_ locations: [Location]) throws(GPSLocationError) -> [Location]? {
        let authorization = try authorization()
        guard authorization.isAuthorized else { return nil }
        guard authorization.accuracy == .reducedAccuracy else { return locations }
        let interval = TimeInterval(AccuracyReducer.minimumInterval.components.seconds)
        var released: [Location] = []
        var last: Date?
        for location in locations {
            if let last, let time = location.time, time.timeIntervalSince(last) < interval { continue }
            var cell = AccuracyReducer.snapped(location)
            cell.accuracy = .reducedAccuracy
            released.append(cell)
            last = location.time ?? last
        }
        return released
    }
}
