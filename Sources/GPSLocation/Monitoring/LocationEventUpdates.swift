/// A live stream run through a ``LocationEventDetector``: region events of a ``RegionMonitor``
/// or visits of a ``VisitDetector``, and the stream's status events, as an `AsyncSequence`
/// (``GPSLocationManager/events(from:options:)``).
///
/// The detector sees exactly the fixes the live stream hands out, when it hands them out: each
/// passed the gate then, so a fix that waited while location was revoked decides nothing.
/// Detectors need precise positions: when only reduced accuracy is authorized (at the start, or
/// after a change) the sequence ends with ``GPSLocationError/preciseLocationRequired`` before
/// any event, as region monitoring and visits are unavailable on iOS without "Precise Location".
public struct LocationEventUpdates<Detector: LocationEventDetector>: AsyncSequence, Sendable {
    /// An event of the detector, or a status event of the stream.
    public typealias Element = LocationEventUpdate<Detector.Event>
    /// The stream ends with a ``GPSLocationError``.
    public typealias Failure = GPSLocationError

    let updates: LiveUpdates
    let detector: Detector

    /// Starts the live stream and returns its iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(updates: updates.makeAsyncIterator(), detector: detector)
    }

    /// Iterates the events; dropping it stops the live stream.
    public struct Iterator: AsyncIteratorProtocol {
        /// The stream ends with a ``GPSLocationError``.
        public typealias Failure = GPSLocationError

        private var updates: LiveUpdates.Iterator
        private var detector: Detector
        /// Events of one fix not handed out yet, in order.
        private var pending: [Detector.Event] = []
        /// Whether the authorization at the start was checked (later changes come as events).
        private var checkedStart = false

        init(updates: LiveUpdates.Iterator, detector: Detector) {
            self.updates = updates
            self.detector = detector
        }

        /// The next event, or `nil` when the stream has ended or the task was cancelled.
        /// - Throws: ``GPSLocationError/preciseLocationRequired`` under reduced accuracy, and
        ///   what ``LiveUpdates/Iterator/next()`` throws.
        public mutating func next() async throws(GPSLocationError) -> Element? {
            try await next(isolation: nil)
        }

        /// ``next()``, on the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(GPSLocationError) -> Element? {
            if !checkedStart {
                checkedStart = true
                // Reduced from the start: no fix needs to come to say so.
                let authorization = updates.authorization
                if authorization.isAuthorized, authorization.accuracy == .reducedAccuracy { throw .preciseLocationRequired }
            }
            while true {
                if !pending.isEmpty { return .event(pending.removeFirst()) }
                guard let update = try await updates.next(isolation: actor) else { return nil }
                switch update {
                case .status(let event):
                    if case .accuracyChanged(.reducedAccuracy) = event { throw .preciseLocationRequired }
                    return .status(event)
                case .location(let location):
                    // A fix the gate released reduced: precise location was switched off.
                    guard location.accuracy == .fullAccuracy else { throw .preciseLocationRequired }
                    pending = detector.process(location)
                }
            }
        }
    }
}
