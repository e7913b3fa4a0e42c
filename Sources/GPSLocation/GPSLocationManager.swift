import LocateSupport

/// Gets positions from gpsd, with the user's permission: one fix on request (the weather-app
/// case) or a live stream of fixes and status events (the running-app case). CoreLocation's
/// `CLLocationManager` for gpsd, as an actor.
///
/// Whether positions are authorized comes from an ``AuthorizationSource`` (the consent store of
/// `GPSLocationConsent` by default, in `locate`): each request or stream resolves it once into
/// an ``Authorization`` and follows its changes, and every position leaves through one gate,
/// consulted when the position is handed out: with no authorization there is no position, and
/// with reduced accuracy only the reduced one.
///
/// Like `CLLocationManager`, a manager keeps state, as actor state: the last location it
/// delivered (``location``), an "Allow once" answer, the prompt in flight
/// (``requestAuthorization(_:purpose:prompter:)`` asks one question at a time), and how many of
/// its live streams are being iterated (``activeLiveUpdates``).
///
/// - Important: the manager never prints, exits or installs signal handlers. libgps and gpsd's
///   socket are read on a dedicated thread per request or stream, never on Swift's cooperative
///   pool.
public actor GPSLocationManager {
    /// How this manager reaches gpsd.
    public nonisolated let configuration: GPSLocationConfiguration
    /// Where the authorization comes from.
    public nonisolated let authorizationSource: any AuthorizationSource
    /// The process's situation as the host gave it, or `nil` to read it from the terminal.
    private nonisolated let processContext: ProcessContext?
    /// The track played instead of gpsd, and at what speed; `nil` for gpsd.
    private nonisolated let replay: Replay?

    private var isAllowedOnce = false
    private var askedForAlwaysUpgrade = false
    private var promptInFlight: Task<Result<Authorization, GPSLocationError>, Never>?
    private var lastLocation: Location?
    private var iterations = 0

    /// The libgps release and API version, such as `3.22, API 11.0`. libgps has no stable ABI,
    /// so the binary must run with the libgps it was built with.
    public static let libgpsVersion = LibGPS.version

    /// Creates a manager; nothing connects until a location is requested.
    /// - Parameters:
    ///   - authorizationSource: where the authorization comes from (`ConsentStore` for the
    ///     user's settings files; ``StaticAuthorization`` for a fixed decision).
    ///   - configuration: how to reach gpsd.
    ///   - processContext: the process's situation (foreground of a terminal or not), for a
    ///     daemon or a test that knows it; `nil` reads it from the terminal at each check.
    public init(
        authorizationSource: any AuthorizationSource, configuration: GPSLocationConfiguration = GPSLocationConfiguration(),
        processContext: ProcessContext? = nil
    ) {
        self.authorizationSource = authorizationSource
        self.configuration = configuration
        self.processContext = processContext
        replay = nil
    }

    /// Creates a manager that plays `track` instead of reading gpsd, so a program (or its tests)
    /// runs against a known track without a receiver: requests and live streams deliver the
    /// track's fixes, in order, marked ``LocationSource/replay``, and a live stream ends after
    /// the last one. A recorded track is not this machine's position: it needs no permission
    /// (the authorization is a fixed `always`, full accuracy) and nothing of it is kept.
    /// - Parameters:
    ///   - track: the fixes to play.
    ///   - speed: how many times the pace of the fixes' receiver times to play them at; 0 for as
    ///     fast as the consumer takes them.
    public init(replaying track: ReplayTrack, speed: Double = 1) {
        authorizationSource = StaticAuthorization(AuthorizationDecision(status: .authorizedAlways))
        configuration = GPSLocationConfiguration()
        processContext = ProcessContext(hasTerminal: false, isForeground: false)
        replay = Replay(track: track, speed: speed)
    }

    // MARK: - Authorization

    /// The authorization for this process now: the source's decision, the process's situation
    /// and an "Allow once" answer. Check ``Authorization/isAuthorized`` before asking for a
    /// position; ``Authorization/denial`` says why not.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the decision cannot be known.
    public func authorization() throws(GPSLocationError) -> Authorization {
        Authorization(
            decision: try authorizationSource.currentDecision(), context: processContext ?? .current(), isAllowedOnce: isAllowedOnce)
    }

    /// The authorization status now (`CLLocationManager.authorizationStatus`):
    /// ``AuthorizationStatus/authorizedWhenInUse`` after "Allow once", and
    /// ``AuthorizationStatus/denied`` when the decision cannot be known (``authorization()`` says
    /// why). Services switched off show in ``locationServicesEnabled``, and a when-in-use status
    /// without the foreground in ``Authorization/denial``.
    public var authorizationStatus: AuthorizationStatus {
        (try? authorization().status) ?? .denied
    }

    /// How precise positions may be now (`CLLocationManager.accuracyAuthorization`);
    /// `.reducedAccuracy` when the decision cannot be known.
    public var accuracyAuthorization: AccuracyAuthorization {
        (try? authorization().accuracy) ?? .reducedAccuracy
    }

    /// Whether location services are on (`CLLocationManager.locationServicesEnabled()`);
    /// `false` when the decision cannot be known.
    public var locationServicesEnabled: Bool {
        (try? authorization().locationServicesEnabled) ?? false
    }

    /// Asks the user for permission (`requestWhenInUseAuthorization()` /
    /// `requestAlwaysAuthorization()`), through `prompter`, when they have to be asked: while
    /// nothing is decided, or once per manager for `.always` after when-in-use (the upgrade).
    /// The answer is kept by the source ("Allow once" by this manager, for its life).
    ///
    /// One prompt at a time: a request made while another is asking waits for that answer
    /// instead of asking again. Nothing is asked while services are off or the policy decides.
    /// - Parameters:
    ///   - level: the authorization asked for.
    ///   - purpose: why the program needs location, shown to the user.
    ///   - prompter: how the user is asked; it may be main-actor isolated, and may take its time.
    /// - Returns: the authorization afterwards: check ``Authorization/isAuthorized``.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the decision cannot be known or
    ///   the answer cannot be kept.
    @discardableResult
    public func requestAuthorization(
        _ level: AuthorizationLevel = .whenInUse, purpose: String? = nil, prompter: some AuthorizationPrompter
    ) async throws(GPSLocationError) -> Authorization {
        if let promptInFlight { return try await promptInFlight.value.get() }
        let current = try authorization()
        guard current.locationServicesEnabled else { return current }
        let isUpgrade: Bool
        switch (current.status, level) {
        case (.notDetermined, _):
            isUpgrade = false
        case (.authorizedWhenInUse, .always) where !current.isAllowedOnce && !askedForAlwaysUpgrade:
            isUpgrade = true
            askedForAlwaysUpgrade = true
        default:
            return current
        }
        let question = AuthorizationQuestion(app: authorizationSource.appName, purpose: purpose, level: level, isUpgrade: isUpgrade)
        let task = Task { () -> Result<Authorization, GPSLocationError> in
            let answer = await prompter.ask(question)
            return self.keep(answer, to: question)
        }
        promptInFlight = task
        let result = await task.value
        promptInFlight = nil
        return try result.get()
    }

    /// Keeps `answer`, and says what holds now.
    private func keep(_ answer: AuthorizationAnswer?, to question: AuthorizationQuestion) -> Result<Authorization, GPSLocationError> {
        do throws(GPSLocationError) {
            if try authorizationSource.keep(answer, to: question) { isAllowedOnce = true }
            return .success(try authorization())
        } catch {
            return .failure(error)
        }
    }

    /// "Allow once" answered by a host's own prompt (the `locate` command asks on its terminal
    /// before it starts the manager).
    package func allowOnce() {
        isAllowedOnce = true
    }

    /// The authorization now, and again whenever it changes (the source's decision changes, or
    /// the process moves between foreground and background), until the consumer stops
    /// iterating. CoreLocation's `locationManagerDidChangeAuthorization(_:)`.
    /// - Note: the sequence ends with ``GPSLocationError/invalidSettings(_:)`` when the decision
    ///   can no longer be known.
    public func authorizationUpdates() -> AsyncUpdates<Authorization> {
        AuthorizationUpdatesTask.start(source: authorizationSource, context: processContext, isAllowedOnce: isAllowedOnce)
    }

    // MARK: - Positions

    /// The last location this manager delivered, by a request or a live stream's `next()`, as
    /// the authorization lets it out now (`CLLocationManager.location`): `nil` when there is
    /// none or location is not authorized now, and its grid cell when only reduced accuracy is.
    public var location: Location? {
        guard let lastLocation, let authorization = try? authorization() else { return nil }
        return PositionGate.releaseOnce(lastLocation, under: authorization)
    }

    /// How many iterations of live streams started by ``liveUpdates(_:)`` are running now: from
    /// their first `next()` until they end or their iterator is dropped (counted down shortly
    /// after).
    public var activeLiveUpdates: Int { iterations }

    /// Returns one fix.
    ///
    /// Resolves the authorization; with `maxAge`, answers from the location the source keeps
    /// when it is that young. Otherwise connects, sends WATCH and `?POLL;` in one write, and
    /// answers at once when gpsd's current fix is good enough; otherwise waits for streamed
    /// fixes. A fix is good enough when it is 2D or 3D, within `accuracy` if given (its
    /// horizontal error, as released, known and at most that: under reduced accuracy the grid
    /// cell's), and no older than `maxAge` if given. gpsd without a receiver yet is waited for
    /// like a fix. The authorization is resolved again when the fix is handed out, and what is
    /// handed out is given to the source to keep.
    ///
    /// - Parameters:
    ///   - accuracy: the largest acceptable horizontal error in metres, or `nil` for any fix.
    ///   - timeout: how long to wait for a good enough fix.
    ///   - maxAge: the oldest acceptable fix (by its receiver time), or `nil` for any age.
    /// - Returns: the first good enough fix, released (its grid cell under reduced accuracy).
    /// - Throws: ``GPSLocationError``: `notAuthorized`, `invalidSettings`, `gpsdUnreachable`,
    ///   `connectTimedOut`, `noDevice` (none by the deadline), `gpsdRefused`,
    ///   `gpsdClosedConnection`, `noFix`, `accuracyNotReached` with the most accurate fix seen
    ///   when fixes came but none was good enough in time, or `cancelled`.
    public func requestLocation(
        accuracy: Double? = nil, timeout: Duration = .seconds(30), maxAge: Duration? = nil
    ) async throws(GPSLocationError) -> Location {
        if replay != nil { return try await firstReplayedLocation(accuracy: accuracy, timeout: timeout) }
        let request = SingleFixRequest(
            source: authorizationSource, configuration: configuration, context: processContext,
            isAllowedOnce: isAllowedOnce, accuracy: accuracy, timeout: timeout, maxAge: maxAge)
        let answer: SingleFixRequest.Answer
        do {
            answer = try await request.run()
        } catch {
            if case .accuracyNotReached(_, let best) = error { lastLocation = best }
            throw error
        }
        lastLocation = answer.location
        request.keep(answer)
        return answer.location
    }

    /// A live stream of fixes and status events until the consumer stops iterating.
    ///
    /// The stream starts with gpsd's current fix when it has one, then follows the receiver.
    /// Fixes pass the gate when they are handed out, then `options` (distance filter, minimum
    /// interval, heartbeat), judged on the released fix. gpsd may report one epoch (receiver
    /// time) several times; a report of the same time is delivered when it changes what the fix
    /// says (a higher mode, or a position that moved) and dropped only when it repeats the fix
    /// before it. Status events report a missing fix or device once per change, gpsd going
    /// away and coming back (the stream reconnects with capped exponential back-off), and
    /// authorization changes: when location stops being authorized the stream stops reading
    /// gpsd, holds back every fix still queued, and reports `authorizationChanged` (or `paused`
    /// for a when-in-use process sent to the background); when it is authorized again, gpsd is
    /// read again. Updates wait in a buffer of a few thousand; only a consumer that stops taking
    /// them loses the oldest, told by a `dropped(count:)` event.
    public func liveUpdates(_ options: LiveUpdateOptions = LiveUpdateOptions()) -> LiveUpdates {
        LiveUpdates(
            configuration: configuration, options: options, source: authorizationSource, context: processContext,
            isAllowedOnce: isAllowedOnce, replay: replay, manager: self)
    }

    /// The events `detector` finds in a live stream (`options` as for ``liveUpdates(_:)``),
    /// with the stream's status events, until the consumer stops iterating: region events with
    /// a ``RegionMonitor`` (CoreLocation's `CLMonitor`), arrivals and departures with a
    /// ``VisitDetector`` (`CLVisit`). The authorization is that of ``liveUpdates(_:)`` (positions
    /// as a stream, when-in-use only in the foreground), and full accuracy besides: under
    /// reduced accuracy the sequence ends with ``GPSLocationError/preciseLocationRequired``.
    public func events<Detector: LocationEventDetector>(
        from detector: Detector, options: LiveUpdateOptions = LiveUpdateOptions()
    ) -> LocationEventUpdates<Detector> {
        LocationEventUpdates(updates: liveUpdates(options), detector: detector)
    }

    /// A replaying manager's ``requestLocation(accuracy:timeout:maxAge:)``: the track's first fix
    /// within `accuracy`, waiting for it as the track's pace says, at most `timeout` (a track's
    /// age means nothing now, so there is no `maxAge`).
    private func firstReplayedLocation(accuracy: Double?, timeout: Duration) async throws(GPSLocationError) -> Location {
        /// How one of the two racing tasks ended.
        enum Outcome: Sendable {
            case found(Location)
            case failed(GPSLocationError)
            /// The track ended, or the wait was cut short, with the most accurate fix seen.
            case ended(bestSeen: Location?)
            case timedOut
        }
        let updates = liveUpdates()
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                var best: Location?
                do throws(GPSLocationError) {
                    var iterator = updates.makeAsyncIterator()
                    while let update = try await iterator.next() {
                        guard case .location(let location) = update else { continue }
                        let error = location.horizontalAccuracy ?? .infinity
                        if accuracy.map({ error <= $0 }) ?? true { return .found(location) }
                        if best == nil || error < best?.horizontalAccuracy ?? .infinity { best = location }
                    }
                } catch {
                    return .failed(error)
                }
                return .ended(bestSeen: best)
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .timedOut
            }
            var first = await group.next() ?? .timedOut
            group.cancelAll()
            // The timer won: the stream, cancelled, says what it saw.
            if case .timedOut = first { first = await group.next() ?? .ended(bestSeen: nil) }
            return first
        }
        switch outcome {
        case .found(let location):
            lastLocation = location
            return location
        case .failed(let error):
            throw error
        case .ended(let bestSeen?):
            lastLocation = bestSeen
            throw .accuracyNotReached(timeout: timeout, bestSeen: bestSeen)
        case .ended(nil), .timedOut:
            throw .noFix(timeout: timeout)
        }
    }

    /// gpsd's devices and the quality of its current fix, without waiting for the receiver
    /// (`?POLL;`), for diagnostics; a gpsd with no device yet is waited for until the timeout.
    /// Needs the same authorization as a position (and tells no more than its gate lets out).
    /// - Throws: ``GPSLocationError``: `invalidSettings`, `notAuthorized`, `gpsdUnreachable`,
    ///   `connectTimedOut`, `noDevice`, `gpsdRefused`, `gpsdClosedConnection` or `cancelled`.
    public func receiverStatus(timeout: Duration = .seconds(3)) async throws(GPSLocationError) -> ReceiverStatus {
        let before = try authorization()
        if let reason = before.denial { throw .notAuthorized(reason: reason) }
        let answer = try await GPSDRequest.ask(
            ReceiverStatusQuestion(endpoint: configuration.endpoint), configuration: configuration,
            deadline: .now.advanced(by: timeout.boundedForWaiting))
        var status = ReceiverStatus(devices: answer.devices)
        if let fix = answer.fix {
            let now = try authorization()
            guard let released = PositionGate.releaseOnce(fix, under: now) else { throw .notAuthorized(reason: now.denial ?? .denied) }
            status.mode = released.mode
            status.satellitesUsed = released.satellitesUsed
            status.horizontalAccuracy = released.horizontalAccuracy
        }
        return status
    }

    /// A track played instead of gpsd.
    struct Replay: Sendable {
        let track: ReplayTrack
        let speed: Double
    }

    // MARK: - What streams tell

    func delivered(_ location: Location) {
        lastLocation = location
    }

    func liveUpdatesStarted() {
        iterations += 1
    }

    func liveUpdatesEnded() {
        iterations -= 1
    }
}
