/// The live stream of `GPSLocationManager.liveUpdates(_:)`: fixes and status events, as an
/// `AsyncSequence` (CoreLocation's `CLLocationUpdate.liveUpdates()`).
///
/// Each iteration runs a session of its own on a dedicated thread: starting to iterate starts
/// it, and ending the iteration (leaving the loop, or cancelling the task) stops it and closes
/// its gpsd connection at once. A consumer that keeps up gets every update; one that stops
/// taking them holds up gpsd's reading first (back-pressure), and only when it takes nothing
/// for a while does it lose the oldest updates, told by a `dropped` status event.
public struct LiveUpdates: AsyncSequence, Sendable {
    /// Each element is a fix or a status event.
    public typealias Element = LocationUpdate
    /// The stream ends with `ConfigurationError` or `GPSLocationError`.
    public typealias Failure = any Error

    let configuration: GPSLocationConfiguration
    let options: LiveUpdateOptions
    /// The manager's memory: the stream notes the locations it delivers and that it runs.
    let state: ManagerState

    /// Starts a session and returns its iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(session: Session(LiveUpdateSession.start(configuration: configuration, options: options), state: state))
    }

    /// Iterates one session's updates; dropping it stops the session.
    public struct Iterator: AsyncIteratorProtocol {
        let session: Session

        /// The next update, or `nil` when the stream has ended or the task was cancelled.
        /// - Throws: `ConfigurationError` when a settings file is or becomes malformed;
        ///   `GPSLocationError` when the first connection fails or gpsd refuses the WATCH.
        public mutating func next() async throws -> LocationUpdate? {
            session.noted(try await session.queue.next())
        }

        /// The next update if one is already waiting, without suspending; `nil` when none is
        /// (the end of the stream, and its error, come from `next()`). For a consumer that does
        /// its work in batches: take what is ready, write it out in one go, then wait again.
        public mutating func nextIfAvailable() -> LocationUpdate? {
            session.noted(session.queue.nextIfAvailable())
        }
    }

    /// Ties the session's life to the iterator's.
    final class Session: Sendable {
        let queue: LiveUpdateQueue
        private let state: ManagerState

        init(_ queue: LiveUpdateQueue, state: ManagerState) {
            self.queue = queue
            self.state = state
            state.liveUpdatesStarted()
        }

        /// `update`, after noting a location in the manager's memory.
        func noted(_ update: LocationUpdate?) -> LocationUpdate? {
            if case .location(let location)? = update { state.record(location) }
            return update
        }

        deinit {
            queue.cancel()
            state.liveUpdatesEnded()
        }
    }
}
