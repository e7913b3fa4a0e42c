/// Something that turns a stream of fixes into events of its own, one fix at a time, in order:
/// ``RegionMonitor`` and ``VisitDetector``. ``GPSLocationManager/events(from:options:)`` runs one
/// over a live stream.
public protocol LocationEventDetector: Sendable {
    /// What it reports.
    associatedtype Event: Sendable, Hashable
    /// The events `location` causes (none, usually).
    mutating func process(_ location: Location) -> [Event]
}

/// One element of ``LocationEventUpdates``: an event of the detector, or news about the stream.
public enum LocationEventUpdate<Event: Sendable & Hashable>: Sendable, Hashable {
    /// What the detector reported.
    case event(Event)
    /// A status event of the live stream underneath (no fix, gpsd lost, authorization changed ...).
    case status(LocationStatusEvent)
}
