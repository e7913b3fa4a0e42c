import FoundationEssentials

extension GPSLocationManager {
    /// The period of the clock (seconds) of which at most one kept position goes under reduced
    /// accuracy: five minutes, a reduced stream's pace. A host reading a span of kept positions
    /// reads whole periods (from a multiple of it) before ``admitKept(_:)``.
    public static let keptPeriod: Double = 300

    /// Hands out positions the host kept earlier (a history it recorded while location was
    /// allowed), under this process's authorization now, as a live stream would hand them out:
    /// `nil` when location is not authorized now (nothing may go; ``authorization()`` says why);
    /// under reduced accuracy as grid cells, at most one for each five minutes of the clock (the
    /// first point of each period, a period being fixed by the clock, not by the points given, so
    /// that no choice of what to ask gives another point of a period); otherwise as they are. So
    /// a record reaches the reader only if it was allowed when it was taken (the host's part) and
    /// is allowed now. A host that filters what it hands out (by time, by place) filters what this
    /// returns, never the precise points, and asks for whole periods (``keptPeriod``).
    /// - Parameter locations: the kept positions, in time order.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the authorization cannot be known.
    public nonisolated func admitKept(_ locations: [Location]) throws(GPSLocationError) -> [Location]? {
        let authorization = try authorization()
        guard authorization.isAuthorized else { return nil }
        guard authorization.accuracy == .reducedAccuracy else { return locations }
        var released: [Location] = []
        var lastPeriod: Double?
        for location in locations {
            let period = location.time.map { ($0.timeIntervalSince1970 / Self.keptPeriod).rounded(.down) }
            if let period, period == lastPeriod { continue }
            var cell = AccuracyReducer.snapped(location)
            cell.accuracy = .reducedAccuracy
            released.append(cell)
            lastPeriod = period ?? lastPeriod
        }
        return released
    }
}
