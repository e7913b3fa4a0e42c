/// A live stream run through a ``LocationEventDetector``: region events of a ``RegionMonitor``
/// or visits of a ``VisitDetector``, and the stream's status events, as an `AsyncSequence`
/// (``GPSLocationManager/events(from:options:)``).
///
/// The detector sees exactly the fixes the live stream hands out, when it hands them out: each
/// passed the gate then, so a fix that waited while location was revoked decides nothing. An
/// event is a position too, so each one passes the gate again when it is handed out: the events
/// one fix made (a region's `initial` for each of hundreds of regions) are dropped as soon as
/// the authorization changes (a revoke, a pause, a switch to reduced accuracy), however slowly
/// the consumer takes them, and the detector starts afresh, as if monitoring had just begun: a
/// state decided before the change is not carried over it.
///
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
        /// The detector as given, to start afresh from after a change of the authorization.
        private let initial: Detector
        private var detector: Detector
        /// Events of one fix not handed out yet, in order, with the stamp of that fix.
        private var pending: [Detector.Event] = []
        private var pendingStamp: ReleaseStamp?
        /// The generation of the authorization the detector's fixes were released under.
        private var generation: Int?
        /// Whether the authorization at the start was checked (later changes come as events).
        private var checkedStart = false

        /// How many fixes the detector has been given: fixes that passed the gate, whether or
        /// not they made an event (a stream that ends with none saw no position).
        public private(set) var locationsProcessed = 0

        init(updates: LiveUpdates.Iterator, detector: Detector) {
            self.updates = updates
            initial = detector
            self.detector = detector
        }

        /// The authorization positions are released under now, as the live stream follows it.
        public var authorization: Authorization { updates.authorization }

        /// How many times the authorization has changed since the stream started: an event
        /// taken before a change is stale (see ``LiveUpdates/Iterator/authorizationChanges``).
        public var authorizationChanges: Int { updates.authorizationChanges }

        /// Fixes that passed the gate but the options' filters held back, before the detector.
        public var locationsHeldBack: Int { updates.locationsHeldBack }

        /// The admission of the fix the events handed out last were made of (they need precise
        /// positions: ask ``LocationAdmission/isAdmittedPrecise``), to ask from any thread when a
        /// record of them is handed on; `nil` before the first.
        public var lastEventAdmission: LocationAdmission? {
            pendingStamp.map { LocationAdmission(stamp: $0, authorization: updates.session.authorization) }
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
                if let stamp = pendingStamp, !pending.isEmpty {
                    // The gate, again, for each event as it is handed out.
                    if updates.admits(stamp, requiringFullAccuracy: true) { return .event(pending.removeFirst()) }
                    pending.removeAll()
                }
                guard let update = try await updates.next(isolation: actor) else { return nil }
                switch update {
                case .status(let event):
                    if case .accuracyChanged(.reducedAccuracy) = event { throw .preciseLocationRequired }
                    return .status(event)
                case .location(let location):
                    guard let stamp = updates.lastStamp else { continue }
                    // A fix the gate released reduced: precise location was switched off.
                    guard stamp.authorization.accuracy == .fullAccuracy else { throw .preciseLocationRequired }
                    if generation != stamp.generation {
                        // A new authorization: nothing decided under the old one carries over.
                        if generation != nil { detector = initial }
                        generation = stamp.generation
                    }
                    locationsProcessed += 1
                    pending = detector.process(location)
                    pendingStamp = stamp
                }
            }
        }
    }
}
