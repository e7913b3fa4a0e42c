import FoundationEssentials
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
/// delivered (``location``), an "Allow once" answer, the app state the host gave
/// (``setAppState(_:)``), the prompt in flight (``requestWhenInUseAuthorization(purpose:prompter:)``
/// asks one question at a time), and how many of its live streams are being iterated
/// (``activeLiveUpdates``).
///
/// - Important: the manager never prints, exits or installs signal handlers. libgps and gpsd's
///   socket are read on a dedicated thread per request or stream, never on Swift's cooperative
///   pool.
public actor GPSLocationManager {
    /// How this manager reaches gpsd.
    public nonisolated let configuration: GPSLocationConfiguration
    /// Where the authorization comes from.
    public nonisolated let authorizationSource: any AuthorizationSource
    /// The app state, "Allow once" and the last location, which requests and streams read from
    /// their own threads.
    private nonisolated let state: ManagerState
    /// The track played instead of gpsd, and at what speed; `nil` for gpsd.
    private nonisolated let replay: Replay?

    private var askedForAlwaysUpgrade = false
    private var promptInFlight: Task<Result<Authorization, GPSLocationError>, Never>?
    private var iterations = 0

    /// The libgps release and API version, such as `3.22, API 11.0`. libgps has no stable ABI,
    /// so the binary must run with the libgps it was built with.
    package static let libgpsVersion = LibGPS.version

    /// How long a request waits for a good enough fix unless it says otherwise: 30 s.
    public static let defaultTimeout = Duration.seconds(30)

    /// Creates a manager; nothing connects until a location is requested.
    /// - Parameters:
    ///   - authorizationSource: where the authorization comes from (`ConsentStore` for the
    ///     user's settings files; ``StaticAuthorization`` for a fixed decision).
    ///   - configuration: how to reach gpsd.
    ///   - appState: whether the program is in use, for a host that knows (a desktop app says
    ///     so as its window comes and goes, with ``setAppState(_:)``; a daemon says
    ///     ``AppState/unattended``); `nil` for the terminal rule (``AppState/terminal``), read
    ///     at each check.
    public init(
        authorizationSource: any AuthorizationSource, configuration: GPSLocationConfiguration = GPSLocationConfiguration(),
        appState: AppState? = nil
    ) {
        self.authorizationSource = authorizationSource
        self.configuration = configuration
        state = ManagerState(appState: appState, source: authorizationSource)
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
        state = ManagerState(appState: .unattended, source: authorizationSource)
        replay = Replay(track: track, speed: speed)
    }

    deinit {
        state.stop()
    }

    // MARK: - Authorization

    /// Tells the manager whether the program is in use now (a desktop app: its window came to
    /// the front or went away), as iOS learns it from the app's scene; `nil` goes back to the
    /// terminal rule. Requests and running streams take it within a tick (200 ms): a
    /// when-in-use stream pauses in the background and resumes in the foreground.
    public nonisolated func setAppState(_ appState: AppState?) {
        state.setAppState(appState)
    }

    /// The authorization for this process now: the source's decision, whether the program is
    /// in use and an "Allow once" answer. Check ``Authorization/isAuthorized`` before asking for
    /// a position; ``Authorization/denial`` says why not.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the decision cannot be known.
    public nonisolated func authorization() throws(GPSLocationError) -> Authorization {
        state.authorization(try authorizationSource.currentDecision())
    }

    /// The authorization status now (`CLLocationManager.authorizationStatus`):
    /// ``AuthorizationStatus/authorizedWhenInUse`` after "Allow once", and
    /// ``AuthorizationStatus/denied`` when the decision cannot be known (``authorization()`` says
    /// why). Services switched off show in ``locationServicesEnabled``, and a when-in-use status
    /// out of use in ``Authorization/denial``.
    public nonisolated var authorizationStatus: AuthorizationStatus {
        (try? authorization().status) ?? .denied
    }

    /// How precise positions may be now (`CLLocationManager.accuracyAuthorization`);
    /// `.reducedAccuracy` when the decision cannot be known.
    public nonisolated var accuracyAuthorization: AccuracyAuthorization {
        (try? authorization().accuracy) ?? .reducedAccuracy
    }

    /// Whether location services are on (`CLLocationManager.locationServicesEnabled()`);
    /// `false` when the decision cannot be known.
    public nonisolated var locationServicesEnabled: Bool {
        (try? authorization().locationServicesEnabled) ?? false
    }

    /// Asks the user for permission to use location while the program is in use
    /// (`requestWhenInUseAuthorization()`), through `prompter`, when they have to be asked:
    /// while nothing is decided. The answer is kept by the source ("Allow once" by this manager,
    /// for its life).
    ///
    /// One prompt at a time: a request made while another is asking waits for that answer
    /// instead of asking again. Nothing is asked while services are off or the policy decides.
    /// - Parameters:
    ///   - purpose: why the program needs location, shown to the user.
    ///   - prompter: how the user is asked; it may be main-actor isolated, and may take its time.
    /// - Returns: the authorization afterwards: check ``Authorization/isAuthorized``.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)`` when the decision cannot be known or
    ///   the answer cannot be kept.
    @discardableResult
    public func requestWhenInUseAuthorization(
        purpose: String? = nil, prompter: some AuthorizationPrompter
    ) async throws(GPSLocationError) -> Authorization {
        try await requestAuthorization(always: false, purpose: purpose, prompter: prompter)
    }

    /// Asks the user for permission to use location also when the program is not in use
    /// (`requestAlwaysAuthorization()`), through `prompter`: while nothing is decided, or once
    /// per manager to change when-in-use to always (iOS's "Change to Always Allow"), where an
    /// answer other than always or deny leaves it as it was.
    /// - Parameters:
    ///   - purpose: why the program needs location, shown to the user.
    ///   - prompter: how the user is asked.
    /// - Returns: the authorization afterwards.
    /// - Throws: ``GPSLocationError/invalidSettings(_:)``, as
    ///   ``requestWhenInUseAuthorization(purpose:prompter:)``.
    @discardableResult
    public func requestAlwaysAuthorization(
        purpose: String? = nil, prompter: some AuthorizationPrompter
    ) async throws(GPSLocationError) -> Authorization {
        try await requestAuthorization(always: true, purpose: purpose, prompter: prompter)
    }

    private func requestAuthorization(
        always: Bool, purpose: String?, prompter: some AuthorizationPrompter
    ) async throws(GPSLocationError) -> Authorization {
        if let promptInFlight { return try await promptInFlight.value.get() }
        let current = try authorization()
        guard current.locationServicesEnabled else { return current }
        let isUpgrade: Bool
        switch current.status {
        case .notDetermined:
            isUpgrade = false
        case .authorizedWhenInUse where always && !current.isAllowedOnce && !askedForAlwaysUpgrade:
            isUpgrade = true
            askedForAlwaysUpgrade = true
        default:
            return current
        }
        let question = AuthorizationQuestion(
            app: authorizationSource.appName, purpose: purpose, asksForAlways: always, isUpgrade: isUpgrade)
        let source = authorizationSource
        let state = state
        let task = Task { () -> Result<Authorization, GPSLocationError> in
            let answer = await prompter.ask(question)
            // The answer is kept on a thread of its own: the source may take a lock and sync a file.
            return await DedicatedThread.run(
                unavailable: .failure(.invalidSettings(SettingsProblem(file: "locate.conf", message: "cannot start a thread")))
            ) {
                _, _ in
                Result { () throws(GPSLocationError) in
                    if try source.keep(answer, to: question) { state.allowOnce() }
                    return state.authorization(try source.currentDecision())
                }
            }
        }
        promptInFlight = task
        let result = await task.value
        promptInFlight = nil
        return try result.get()
    }

    /// The authorization now, and again whenever it changes (the source's decision changes, or
    /// the program comes into or goes out of use), until the consumer stops iterating.
    /// CoreLocation's `locationManagerDidChangeAuthorization(_:)`. While the source cannot
    /// decide (a settings file malformed for a moment), the authorization says so
    /// (``DenialReason/settingsInvalid``) and the updates go on.
    /// - Note: the sequence ends with an error only when the source can never decide again.
    public nonisolated func authorizationUpdates() -> AsyncUpdates<Authorization> {
        AuthorizationUpdatesTask.start(source: authorizationSource, state: state)
    }

    // MARK: - Positions

    /// The last location this manager delivered, by an async request or a live stream's `next()`, as
    /// the authorization lets it out now (`CLLocationManager.location`): `nil` when there is
    /// none, when location is not authorized now, or when the authorization has changed in any
    /// way since it was delivered (it is forgotten then, even if the change was undone).
    public nonisolated var location: Location? {
        guard let authorization = try? authorization() else { return nil }
        return state.lastLocation(under: authorization)
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
    /// horizontal error known and at most that; a fix that does not say is taken as exact), and
    /// no older than `maxAge` if given. Under reduced accuracy every fix is its grid cell, and
    /// `accuracy` is not waited for: the cell comes at once, as iOS hands out the approximate
    /// location. gpsd without a receiver yet is waited for like a fix. The authorization is
    /// resolved again when the fix is handed out, and what is handed out is given to the
    /// source to keep, after this returns, off Swift's cooperative pool.
    ///
    /// - Parameters:
    ///   - accuracy: the largest acceptable horizontal error in metres, or `nil` for any fix.
    ///   - minimumFix: the least fix type acceptable (``Location/FixType/rank``: `dgps` for a
    ///     corrected fix, `rtkFixed` for centimetres), or `nil` for any; not waited for under
    ///     reduced accuracy, as `accuracy` is not.
    ///   - timeout: how long to wait for a good enough fix; above zero.
    ///   - maxAge: the oldest acceptable fix (by its receiver time), or `nil` for any age.
    ///   - statusHandler: told, from the request's thread, what the wait waits for
    ///     (``LocationStatusEvent/noDevice`` once, when gpsd has no receiver yet).
    /// - Returns: the first good enough fix, released (its grid cell under reduced accuracy).
    /// - Throws: ``GPSLocationError``: `invalidArgument` (an accuracy, a timeout or an age out of
    ///   range), `notAuthorized`, `invalidSettings`, `gpsdUnreachable`, `connectTimedOut`,
    ///   `noDevice` (none by the deadline), `gpsdRefused`, `gpsdClosedConnection`, `noFix`,
    ///   `fixTooOld` (fixes came, all older than `maxAge`), `accuracyNotReached` with the most
    ///   accurate fix seen when fixes came but none was good enough in time, or `cancelled`.
    public func requestLocation(
        accuracy: Double? = nil, minimumFix: Location.FixType? = nil, timeout: Duration = defaultTimeout, maxAge: Duration? = nil,
        statusHandler: (@Sendable (LocationStatusEvent) -> Void)? = nil
    ) async throws(GPSLocationError) -> Location {
        if replay != nil { return try await firstReplayedLocation(accuracy: accuracy, minimumFix: minimumFix, timeout: timeout) }
        return try await SingleFixRequest(
            source: authorizationSource, configuration: configuration, state: state, accuracy: accuracy, minimumFix: minimumFix,
            timeout: timeout, maxAge: maxAge, statusHandler: statusHandler
        ).run()
    }

    /// ``requestLocation(accuracy:minimumFix:timeout:maxAge:statusHandler:)`` for a program whose thread
    /// is its own, such as a command-line tool's main thread: the request runs on the calling
    /// thread, which blocks until it has the answer, with no Swift concurrency at all (the
    /// shortest way from a start to a fix: `locate --once`). Never call it from async code.
    /// A replaying manager answers only through the async request, and the answer does not
    /// become ``location`` (following the authorization for it would start the concurrency
    /// runtime this call is there to avoid).
    /// - Parameters:
    ///   - accuracy: the largest acceptable horizontal error in metres, or `nil` for any fix.
    ///   - minimumFix: the least fix type acceptable, or `nil` for any.
    ///   - timeout: how long to wait for a good enough fix; above zero.
    ///   - maxAge: the oldest acceptable fix (by its receiver time), or `nil` for any age.
    ///   - statusHandler: told, on this thread, what the wait waits for.
    ///   - delivered: given the fix on this thread before the source keeps it, so that keeping
    ///     it never delays a program that shows it at once.
    /// - Returns: the first good enough fix, released.
    /// - Throws: what ``requestLocation(accuracy:minimumFix:timeout:maxAge:statusHandler:)`` throws, and
    ///   ``GPSLocationError/invalidArgument(name:reason:)`` for a replaying manager.
    @available(*, noasync, message: "blocks the calling thread; use requestLocation in async code")
    @discardableResult
    public nonisolated func requestLocationBlocking(
        accuracy: Double? = nil, minimumFix: Location.FixType? = nil, timeout: Duration = defaultTimeout, maxAge: Duration? = nil,
        statusHandler: (@Sendable (LocationStatusEvent) -> Void)? = nil, delivered: (Location) -> Void = { _ in }
    ) throws(GPSLocationError) -> Location {
        guard replay == nil else { throw .invalidArgument(name: "replay", reason: "a replaying manager answers through requestLocation") }
        return try SingleFixRequest(
            source: authorizationSource, configuration: configuration, state: state, accuracy: accuracy, minimumFix: minimumFix,
            timeout: timeout, maxAge: maxAge, statusHandler: statusHandler
        ).runHere(delivered: delivered)
    }

    /// A live stream of fixes and status events until the consumer stops iterating.
    ///
    /// The stream starts with gpsd's current fix when it has one, then follows the receiver.
    /// Fixes pass the gate when they are handed out, then `options` (distance filter, minimum
    /// interval, heartbeat, each counted in the fixes' receiver time, so a replay at any speed
    /// gives what a live run would), judged on the released fix. gpsd may report one epoch
    /// (receiver time) several times; a report of the same time is delivered when it changes
    /// what the fix says (a higher mode, or a position that moved) and dropped only when it
    /// repeats the fix before it. Status events report a missing fix or device once per change,
    /// gpsd going away and coming back (the stream reconnects with capped exponential
    /// back-off), and authorization changes: when location stops being authorized the stream
    /// stops reading gpsd, holds back every fix still queued, and reports
    /// `authorizationChanged` (or `paused` for a when-in-use program in the background); when it
    /// is authorized again, gpsd is read again. Updates wait in a buffer of a few thousand; only
    /// a consumer that stops taking them loses the oldest, told by a `dropped(count:)` event.
    public func liveUpdates(_ options: LiveUpdateOptions = .everyFix) -> LiveUpdates {
        LiveUpdates(
            configuration: configuration, options: options, source: authorizationSource, state: state, replay: replay, manager: self)
    }

    /// The events `detector` finds in a live stream (`options` as for ``liveUpdates(_:)``),
    /// with the stream's status events, until the consumer stops iterating: region events with
    /// a ``RegionMonitor`` (CoreLocation's `CLMonitor`), arrivals and departures with a
    /// ``VisitDetector`` (`CLVisit`). The authorization is that of ``liveUpdates(_:)`` (positions
    /// as a stream, when-in-use only in the foreground), and full accuracy besides: under
    /// reduced accuracy the sequence ends with ``GPSLocationError/preciseLocationRequired``.
    public func events<Detector: LocationEventDetector>(
        from detector: Detector, options: LiveUpdateOptions = .everyFix
    ) -> LocationEventUpdates<Detector> {
        LocationEventUpdates(updates: liveUpdates(options), detector: detector)
    }

    /// A replaying manager's ``requestLocation(accuracy:minimumFix:timeout:maxAge:statusHandler:)``: the
    /// track's first fix within `accuracy`, waiting for it as the track's pace says, at most
    /// `timeout` (a track's age means nothing now, so there is no `maxAge`). The replay's own
    /// thread keeps the deadline, as a request's thread keeps gpsd's.
    private func firstReplayedLocation(
        accuracy: Double?, minimumFix: Location.FixType?, timeout: Duration
    ) async throws(GPSLocationError) -> Location {
        try SingleFixRequest.check(accuracy: accuracy, timeout: timeout, maxAge: nil)
        var stream = liveUpdates()
        stream.deadline = ContinuousClock.now.advanced(by: timeout.boundedForWaiting)
        var best: Location?
        var iterator = stream.makeAsyncIterator()
        while let update = try await iterator.next() {
            guard case .location(let location) = update else { continue }
            if SingleFixQuestion.isAcceptable(location, accuracy: accuracy, minimumFix: minimumFix, maxAge: nil) { return location }
            let error = location.horizontalAccuracy ?? 0
            if best == nil || error < best?.horizontalAccuracy ?? .infinity { best = location }
        }
        guard let best else { throw .noFix(timeout: timeout) }
        throw .accuracyNotReached(timeout: timeout, bestSeen: best)
    }

    /// gpsd's devices and the quality of its current fix, without waiting for the receiver
    /// (`?POLL;`), for diagnostics; a gpsd with no device yet is waited for until the timeout.
    /// Needs the same authorization as a position (and tells no more than its gate lets out).
    /// - Throws: ``GPSLocationError``: `invalidSettings`, `notAuthorized`, `gpsdUnreachable`,
    ///   `connectTimedOut`, `noDevice`, `gpsdRefused`, `gpsdClosedConnection` or `cancelled`.
    public func receiverStatus(timeout: Duration = .seconds(3)) async throws(GPSLocationError) -> ReceiverStatus {
        let before = try authorization()
        if let reason = before.denial { throw .notAuthorized(reason: reason) }
        let answer = try await ReceiverStatusQuestion(endpoint: configuration.endpoint).ask(
            configuration: configuration, timeout: timeout.boundedForWaiting)
        var status = ReceiverStatus(devices: answer.devices)
        if let fix = answer.fix {
            let now = try authorization()
            guard let released = PositionGate.releaseOnce(fix, under: now) else { throw .notAuthorized(reason: now.denial ?? .denied) }
            status.mode = released.mode
            status.satellitesUsed = released.satellitesUsed
            status.horizontalAccuracy = released.horizontalAccuracy
            status.fixType = released.details.fix
            status.clockOffset = released.time.map { Date().timeIntervalSince($0) }
        }
        return status
    }

    /// A track played instead of gpsd.
    struct Replay: Sendable {
        let track: ReplayTrack
        let speed: Double
    }

    // MARK: - What streams tell

    func liveUpdatesStarted() {
        iterations += 1
    }

    func liveUpdatesEnded() {
        iterations -= 1
    }
}
