import FoundationEssentials
import LocateSupport
import Synchronization

/// The live stream of ``GPSLocationManager/liveUpdates(_:)``: fixes and status events, as an
/// `AsyncSequence` (CoreLocation's `CLLocationUpdate.liveUpdates()`).
///
/// Each iteration runs a session of its own on a dedicated thread: starting to iterate starts
/// it, and ending the iteration (leaving the loop, or cancelling the task) stops it and closes
/// its gpsd connection at once. A consumer that keeps up gets every update; one that stops
/// taking them holds up gpsd's reading first (back-pressure), and only when it takes nothing
/// for a while does it lose the oldest updates, told by a `dropped` status event.
///
/// Every fix passes the gate when it is handed out, not when it arrived: a fix that waited in
/// the queue while location was revoked, paused or reduced is never delivered, and the options'
/// filters judge the fix as released (under reduced accuracy, the grid cell).
public struct LiveUpdates: AsyncSequence, Sendable {
    /// Each element is a fix or a status event.
    public typealias Element = LocationUpdate
    /// The stream ends with a ``GPSLocationError``.
    public typealias Failure = GPSLocationError

    let configuration: GPSLocationConfiguration
    let options: LiveUpdateOptions
    let source: any AuthorizationSource
    /// The manager's app state, "Allow once" and last location.
    let state: ManagerState
    /// The track played instead of gpsd, if any.
    let replay: GPSLocationManager.Replay?
    /// The manager that started the stream, told how many streams run.
    let manager: GPSLocationManager
    /// When a replay ends, done or not (a replaying manager's request); `nil` for never.
    var deadline: ContinuousClock.Instant?

    /// Starts a session and returns its iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            session: Session(self), filter: LiveUpdateFilter(options: options),
            motion: options.stationaryAfter.map(MotionDetector.init(stationaryAfter:)))
    }

    /// Iterates one session's updates; dropping it stops the session.
    public struct Iterator: AsyncIteratorProtocol {
        /// The stream ends with a ``GPSLocationError``.
        public typealias Failure = GPSLocationError

        let session: Session
        private var gate: PositionGate
        private var filter: LiveUpdateFilter
        private var motion: MotionDetector?
        /// A `stationary` or `moving` event, handed out after the fix that decided it, while the
        /// fix's stamp is still current (it says where the receiver is not going).
        private var pendingStatus: (event: LocationStatusEvent, stamp: ReleaseStamp)?
        private var lastKept: ContinuousClock.Instant?

        /// The stamp of the last fix handed out, for records made of it (``LocationEventUpdates``).
        private(set) var lastStamp: ReleaseStamp?

        init(session: Session, filter: LiveUpdateFilter, motion: MotionDetector?) {
            self.session = session
            gate = PositionGate(session.authorization)
            self.filter = filter
            self.motion = motion
        }

        /// The authorization positions are released under now: CoreLocation's
        /// `authorizationStatus` and `accuracyAuthorization` as this stream follows them.
        public var authorization: Authorization { session.authorization.current.authorization }

        /// How many times the authorization has changed since the stream started. A consumer
        /// that holds positions before it shows them (a batch, a reader that is slow) shows
        /// only those taken since the last change: any change (a revoke, a pause, a switch of
        /// accuracy, even one undone at once) makes the positions taken before it stale, as the
        /// stream's own gate does with the fixes waiting in it.
        public var authorizationChanges: Int { session.authorization.current.generation }

        /// Fixes that passed the gate but the options' filters held back (`desiredAccuracy`,
        /// `distanceFilter`, `minimumInterval`): gpsd answered, with nothing to hand out.
        public private(set) var locationsHeldBack = 0

        /// Whether a record made of a fix this stream released with `stamp` may still be handed
        /// out (the gate's second rule).
        func admits(_ stamp: ReleaseStamp, requiringFullAccuracy: Bool) -> Bool {
            gate.admits(stamp, requiringFullAccuracy: requiringFullAccuracy)
        }

        /// A stream keeps its newest delivered fix in the authorization source at most this often.
        static let keepInterval = Duration.seconds(5)

        /// The next update, or `nil` when the stream has ended or the task was cancelled.
        /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the authorization can no
        ///   longer be known; a gpsd error when the first connection fails or gpsd refuses the WATCH.
        public mutating func next() async throws(GPSLocationError) -> LocationUpdate? {
            try await next(isolation: nil)
        }

        /// ``next()``, on the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(GPSLocationError) -> LocationUpdate? {
            await session.noteStarted()
            if let pending = takePendingStatus() { return .status(pending) }
            do {
                while let queued = try await session.queue.next() {
                    if let update = deliver(queued) {
                        return update
                    }
                }
            } catch {
                await session.noteEnded()
                throw error
            }
            await session.noteEnded()
            return nil
        }

        /// The next update if one is already waiting, without suspending; `nil` when none is (the
        /// end of the stream, and its error, come from `next()`). For a consumer that works in
        /// batches (`locate --follow` writes what is ready in one go).
        public mutating func nextIfAvailable() -> LocationUpdate? {
            if let pending = takePendingStatus() { return .status(pending) }
            while let queued = session.queue.nextIfAvailable() {
                if let update = deliver(queued) {
                    return update
                }
            }
            return nil
        }

        /// The pending motion event, if the fix that decided it may still be handed out.
        private mutating func takePendingStatus() -> LocationStatusEvent? {
            guard let pending = pendingStatus else { return nil }
            pendingStatus = nil
            return gate.admits(pending.stamp) ? pending.event : nil
        }

        /// The update to hand out for `queued`, if any: status events as they are, fixes through
        /// the gate (under the authorization now, and only when read under it) and the filters.
        private mutating func deliver(_ queued: QueuedUpdate) -> LocationUpdate? {
            switch queued {
            case .status(let event):
                return .status(event)
            case .fix(let location, let generation):
                let now = ContinuousClock.now
                guard let (released, stamp) = gate.release(location, readUnder: generation, at: now) else { return nil }
                // Motion is judged on every released fix, before the filters thin them out.
                if let event = motion?.observe(released) { pendingStatus = (event, stamp) }
                guard filter.admit(released, handedOutAt: Date()) else {
                    locationsHeldBack += 1
                    return takePendingStatus().map(LocationUpdate.status)
                }
                if lastKept.map({ $0.duration(to: now) >= Self.keepInterval }) ?? true {
                    // Kept by the session's thread: the cache's lock and write are no work for the pool.
                    session.queue.keep(released, releasedUnder: stamp.authorization)
                    lastKept = now
                }
                lastStamp = stamp
                session.state.delivered(released, releasedUnder: stamp.authorization)
                return .location(released)
            }
        }
    }

    /// Ties the session's life to the iterator's.
    final class Session: Sendable {
        let queue: LiveUpdateQueue
        let authorization: AuthorizationGeneration
        let state: ManagerState
        let manager: GPSLocationManager
        /// Whether the manager counts this iteration now: from the first `next()` to the end.
        private let isCounted = Mutex(false)

        init(_ stream: LiveUpdates) {
            state = stream.state
            manager = stream.manager
            let wakeUp = WakeUp()
            queue = LiveUpdateQueue(producerWakeUp: wakeUp)
            let appState = stream.state.appState
            do throws(GPSLocationError) {
                guard let wakeUp else { throw .gpsdUnreachable(endpoint: stream.configuration.endpoint, reason: "out of file descriptors") }
                let decision = try stream.source.currentDecision()
                authorization = AuthorizationGeneration(stream.state.authorization(decision, appState: appState))
                if let replay = stream.replay {
                    ReplaySession.start(
                        track: replay.track, speed: replay.speed, deadline: stream.deadline, queue: queue, wakeUp: wakeUp,
                        generation: authorization.current.generation)
                    return
                }
                LiveUpdateSession.start(
                    configuration: stream.configuration, source: stream.source, decision: decision, state: stream.state,
                    shared: authorization, queue: queue, wakeUp: wakeUp)
            } catch {
                // A stream over before it starts: it hands out nothing, under an authorization of nothing.
                authorization = AuthorizationGeneration(
                    Authorization(decision: AuthorizationDecision(locationServicesEnabled: false), appState: appState))
                queue.finish(throwing: error)
            }
        }

        /// Counts the iteration in the manager, once.
        func noteStarted() async {
            guard
                isCounted.withLock({ counted in
                    defer { counted = true }
                    return !counted
                })
            else { return }
            await manager.liveUpdatesStarted()
        }

        /// Stops counting the iteration, once.
        func noteEnded() async {
            guard
                isCounted.withLock({ counted in
                    defer { counted = false }
                    return counted
                })
            else { return }
            await manager.liveUpdatesEnded()
        }

        deinit {
            queue.cancel()
            if isCounted.withLock({ $0 }) {
                let manager = manager
                Task { await manager.liveUpdatesEnded() }
            }
        }
    }
}
