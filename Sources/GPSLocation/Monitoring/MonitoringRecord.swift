public import FoundationEssentials

/// A region and its last state, with the time that state was decided: CoreLocation's
/// `CLMonitor.MonitoringRecord` (a condition and its last event). A named ``RegionMonitor``
/// hands these out (``RegionMonitor/records``) and takes them back when it starts again, so that
/// a later run reports `enter` and `exit` against the state an earlier one left.
public struct MonitoringRecord: Sendable, Hashable {
    /// The region.
    public let region: CircularRegion
    /// Its last state.
    public let state: RegionState
    /// The receiver time of the fix that decided ``state``, or `nil` when it is `unknown` or the
    /// fix had no time.
    public let date: Date?

    /// A record of `region` in `state` since `date`.
    public init(region: CircularRegion, state: RegionState, date: Date?) {
        self.region = region
        self.state = state
        self.date = state == .unknown ? nil : date
    }

    /// The record an event leaves: its region in its state, decided at its fix's time.
    public init(_ event: RegionEvent) {
        self.init(region: event.region, state: event.state, date: event.location.time)
    }
}
