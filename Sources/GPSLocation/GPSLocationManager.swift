
/// Gets positions from gpsd, with the user's permission: one fix on request (the weather-app
/// case) or a live stream of fixes and status events (the running-app case). CoreLocation's
/// `CLLocationManager` for gpsd.
///
/// Every position leaves through one check (`PositionGate`): with no authorization there is no
/// position, and with reduced accuracy only the reduced one. Authorization is read from the
/// settings files each time it matters, so a change applies to the next request and, within a
/// fraction of a second, to running streams.
///
/// Like `CLLocationManager`, a manager keeps state: the last location it delivered
/// (``location``), an "allow once" answer given through
/// ``requestAuthorization(_:purpose:prompter:)``, and the live streams it started
/// (``activeLiveUpdates``). That state sits behind a lock, so a manager is shared freely between
/// tasks and threads, and no call waits for an actor hop.
///
/// - Important: the manager never prints, exits or installs signal handlers. libgps runs on a
///   dedicated thread per request or stream, never on Swift's cooperative pool.
public final class GPSLocationManager: Sendable {
    /// How this manager reaches gpsd and whose permission applies, as it was created.
    public let configuration: GPSLocationConfiguration
    private let state: ManagerState

    /// The libgps release and API version, such as `3.22, API 11.0`. libgps has no stable ABI,
    /// so the binary must run with the libgps it was built with.
    public static let libgpsVersion = LibGPS.version

    /// Creates a manager; nothing connects until a location is requested.
    /// - Parameters:
    ///   - configuration: how to reach gpsd and whose permission applies.
    ///   - processContext: the process's situation (foreground of a terminal or not), for a
    ///     daemon or a test that knows it; `nil` reads it from the terminal at each check.
    public init(configuration: GPSLocationConfiguration = GPSLocationConfiguration(), processContext: ProcessContext? = nil) {
        var configuration = configuration
        if let processContext { configuration.permission.processContext = processContext }
        self.configuration = configuration
        state = ManagerState()
    }

    /// The configuration in force: as created, with an "allow once" answer given since.
    private var current: GPSLocationConfiguration {
        var current = configuration
        if state.isAllowedOnce { current.permission.isAllowedOnce = true }
        return current
    }

    /// The permission for this process now, read from the settings files.
    /// - Throws: `ConfigurationError` when a settings file is unreadable or malformed.
    public func authorization() throws(ConfigurationError) -> Permission {
        try current.permission.resolve()
    }

    /// The authorization status now (`CLLocationManager.authorizationStatus`); `.denied` when a
    /// settings file is malformed (``authorization()`` says why). Services switched off show in
    /// ``locationServicesEnabled``, not here.
    public var authorizationStatus: AuthorizationStatus {
        (try? authorization().status) ?? .denied
    }

    /// How precise positions may be now (`CLLocationManager.accuracyAuthorization`);
    /// `.reducedAccuracy` when a settings file is malformed.
    public var accuracyAuthorization: AccuracyAuthorization {
        (try? authorization().accuracy) ?? .reducedAccuracy
    }

    /// Whether location services are on (`CLLocationManager.locationServicesEnabled()`);
    /// `false` when a settings file is malformed.
    public var locationServicesEnabled: Bool {
        (try? authorization().locationServicesEnabled) ?? false
    }

    /// The last location this manager delivered, by a request or a live stream, as the
    /// permission lets it out now (`CLLocationManager.location`): `nil` when there is none or
    /// location is not authorized now, and its grid cell when only reduced accuracy is.
    public var location: Location? {
        guard let last = state.lastLocation, let permission = try? authorization() else { return nil }
        var gate = PositionGate()
        return gate.release(last, under: permission, at: nil)
    }

    /// How many live streams started by ``liveUpdates(_:)`` are being iterated now.
    public var activeLiveUpdates: Int { state.activeLiveUpdates }

    /// Asks the user for permission when they have not chosen yet
    /// (`requestWhenInUseAuthorization()` / `requestAlwaysAuthorization()`), through `prompter`,
    /// and saves the answer in the user's settings file ("allow once" is kept by this manager
    /// only). When the user has already chosen (or the policy decides), nothing is asked.
    /// - Parameters:
    ///   - level: the authorization asked for.
    ///   - purpose: why the program needs location, shown to the user.
    ///   - prompter: how the user is asked; called on this thread, and may block.
    /// - Returns: the permission afterwards.
    /// - Throws: `ConfigurationError` when a settings file is malformed or cannot be written.
    @discardableResult
    public func requestAuthorization(
        _ level: AuthorizationLevel = .whenInUse, purpose: String? = nil, prompter: some AuthorizationPrompter
    ) throws(ConfigurationError) -> Permission {
        let permission = try authorization()
        guard permission.locationServicesEnabled, permission.status == .notDetermined, !permission.isAllowedOnce,
              let answer = prompter.ask(app: configuration.permission.app, purpose: purpose, level: level) else { return permission }
        let choice: AuthorizationChoice
        switch answer {
        case .allowOnce:
            state.allowOnce()
            return try authorization()
        case .allowWhileUsing: choice = .whenInUse
        case .allowAlways: choice = .always
        case .deny: choice = .denied
        }
        try UserSettingsEditor(file: configuration.permission.files.userFile)
            .update(app: configuration.permission.app, setting: [.authorization(choice)])
        return try authorization()
    }

    /// The permission now, and again whenever it changes (a settings file is edited, or the
    /// process moves between foreground and background), until the consumer stops iterating.
    /// - Throws (from the stream): `ConfigurationError` when a settings file becomes malformed.
    public func authorizationUpdates() -> AsyncThrowingStream<Permission, any Error> {
        AuthorizationWatch.updates(current.permission)
    }

    /// Returns one fix.
    ///
    /// Checks the permission; with `maxAge`, answers from the last-fix cache when it holds a fix
    /// that young. Otherwise connects, sends WATCH and `?POLL;` in one write, and answers at once
    /// when gpsd's current fix is good enough; otherwise waits for streamed fixes. A fix is good
    /// enough when it is 2D or 3D, within `accuracy` if given (its horizontal error known and at
    /// most that), and no older than `maxAge` if given. gpsd without a receiver yet (just
    /// started, or hot-plugging one) is waited for like a fix. The permission is checked again
    /// when the fix is handed out, and what is handed out becomes the cached fix.
    ///
    /// - Parameters:
    ///   - accuracy: the largest acceptable horizontal error in metres, or `nil` for any fix.
    ///   - timeout: how long to wait for a good enough fix.
    ///   - maxAge: the oldest acceptable fix (by its receiver time), or `nil` for any age.
    ///   - statusHandler: told what the wait is waiting for (`noDevice`, once), on the
    ///     request's thread; `nil` to hear nothing.
    /// - Returns: the first good enough fix (snapped to its grid cell under reduced accuracy).
    /// - Throws: `ConfigurationError` for a malformed settings file; `GPSLocationError`:
    ///   `notAuthorized`, `gpsdUnreachable`, `connectTimedOut`, `noDevice` (none by the deadline),
    ///   `gpsdRefused`, `gpsdClosedConnection`, `noFix`, or `accuracyNotReached` with the most
    ///   accurate fix seen when fixes came but none was good enough in time; `CancellationError`
    ///   when the task is cancelled.
    public func requestLocation(
        accuracy: Double? = nil, timeout: Duration = .seconds(30), maxAge: Duration? = nil,
        statusHandler: (@Sendable (LocationStatusEvent) -> Void)? = nil
    ) async throws -> Location {
        let configuration = current
        let request = SingleFixRequest(configuration: configuration, accuracy: accuracy, timeout: timeout, maxAge: maxAge,
                                       statusHandler: statusHandler)
        if let cached = try request.answerBeforeAsking(delivered: state.record) { return cached }
        return try request.release(await GPSDRequest.ask(request.question, configuration: configuration, deadline: request.deadline),
                                   delivered: state.record)
    }

    /// `requestLocation`, blocking the calling thread instead of starting one (and with it Swift's
    /// concurrency runtime): for the command's `--once`, whose main thread has nothing else to do.
    /// The `statusHandler` is called on the calling thread.
    @available(*, noasync, message: "blocks the calling thread; use requestLocation in async code")
    package func requestLocationBlocking(
        accuracy: Double?, timeout: Duration, maxAge: Duration?, statusHandler: (@Sendable (LocationStatusEvent) -> Void)?
    ) throws -> Location {
        let configuration = current
        let request = SingleFixRequest(configuration: configuration, accuracy: accuracy, timeout: timeout, maxAge: maxAge,
                                       statusHandler: statusHandler)
        if let cached = try request.answerBeforeAsking(delivered: state.record) { return cached }
        return try request.release(GPSDRequest.askHere(request.question, configuration: configuration, deadline: request.deadline),
                                   delivered: state.record)
    }

    /// A live stream of fixes and status events until the consumer stops iterating.
    ///
    /// The stream starts with gpsd's current fix when it has one, then follows the receiver.
    /// Fixes pass through `options` (distance filter, minimum interval, heartbeat). gpsd may report
    /// one epoch (receiver time) several times; a report of the same time is delivered when it
    /// changes what the fix says (a higher mode, or a position that moved) and dropped only when
    /// it repeats the fix before it.
    /// Status events report a missing fix or device once per change, gpsd going away and coming
    /// back (the stream reconnects with capped exponential back-off), and authorization changes:
    /// when location stops being authorized the stream stops reading gpsd and reports
    /// `authorizationChanged` (or `paused` for a when-in-use process sent to the background);
    /// when it is authorized again, gpsd is read again. Updates wait in a buffer of a few
    /// thousand; only a consumer that stops taking them loses the oldest, told by a
    /// `dropped(count:)` event.
    ///
    /// - Throws (from the stream): `ConfigurationError` when a settings file is or becomes
    ///   malformed; `GPSLocationError` when the first connection fails or gpsd refuses the WATCH.
    public func liveUpdates(_ options: LiveUpdateOptions = LiveUpdateOptions()) -> LiveUpdates {
        LiveUpdates(configuration: current, options: options, state: state)
    }

    /// gpsd's devices and the quality of its current fix, without waiting for the receiver
    /// (`?POLL;`), for diagnostics; a gpsd with no device yet is waited for until the timeout.
    /// Needs the same authorization as a position.
    /// - Throws: `ConfigurationError`; `GPSLocationError` `notAuthorized`, `gpsdUnreachable`,
    ///   `connectTimedOut`, `noDevice`, `gpsdRefused` or `gpsdClosedConnection`.
    public func receiverStatus(timeout: Duration = .seconds(3)) async throws -> ReceiverStatus {
        let configuration = current
        if let reason = try authorization().denial { throw GPSLocationError.notAuthorized(reason: reason) }
        let answer = try await GPSDRequest.ask(ReceiverStatusQuestion(endpoint: configuration.endpoint), configuration: configuration,
                                               deadline: .now.advanced(by: timeout.boundedForWaiting))
        var status = ReceiverStatus(devices: answer.devices)
        if let fix = answer.fix {
            let released = try SingleFixRequest.release(fix, configuration: configuration)
            status.mode = released.mode
            status.satellitesUsed = released.satellitesUsed
            status.horizontalAccuracy = released.horizontalAccuracy
        }
        return status
    }
}
