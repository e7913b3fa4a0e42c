import GPSLocation

/// The reduced-accuracy pace of `locate serve`'s clients, per app: at most one grid cell every
/// five minutes (``DeliveryGate/reducedAccuracyInterval``) to an app, over all its connections,
/// so that reconnecting does not get a cell per connection. (Every client is of serve's own
/// user: others are refused.) Kept on the serve loop's thread.
final class ReducedAccuracyPace {
    /// When each app (`nil`: `[location]`) was last given a cell.
    private var lastCell: [String?: ContinuousClock.Instant] = [:]

    /// Whether `release` may go to a client of `app` now; a cell that may counts as given.
    func admits(_ release: DeliveryGate.Release, app: String?, at now: ContinuousClock.Instant = .now) -> Bool {
        guard release.authorization.accuracy == .reducedAccuracy else { return true }
        if let last = lastCell[app], last.duration(to: now) < DeliveryGate.reducedAccuracyInterval { return false }
        lastCell[app] = now
        // Apps whose five minutes are over are forgotten: the map stays as small as the apps served lately.
        lastCell = lastCell.filter { $0.value.duration(to: now) < DeliveryGate.reducedAccuracyInterval }
        return true
    }
}
