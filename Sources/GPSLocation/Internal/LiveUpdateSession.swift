import LocateSupport

/// The producer side of one live stream of `GPSLocationManager.liveUpdates(_:)`, run by one
/// dedicated thread: it follows the authorization, and reads gpsd only while positions are
/// authorized.
///
/// Everything the session depends on is a descriptor or a deadline in one `poll`: gpsd's socket
/// (through `GPSDLink`), a wake-up for the consumer (which stops the session or makes room in
/// the queue) and for the source's decisions (`DecisionFollower`), and the tick that rechecks the
/// process's terminal state. So a stop takes effect at once, whatever gpsd's port does.
///
/// Fixes go into the queue as gpsd reported them, tagged with the generation of the
/// authorization they were read under; the consumer's gate releases them, or not, when it takes
/// them (`LiveUpdates.Iterator`). Each change of the authorization is a new generation, so a fix
/// read before a revoke, a pause or a switch to reduced accuracy is never handed out.
final class LiveUpdateSession {
    private let configuration: GPSLocationConfiguration
    private let queue: LiveUpdateQueue
    private let wakeUp: WakeUp
    private let follower: DecisionFollower
    private let shared: AuthorizationGeneration
    private let source: any AuthorizationSource
    private let state: ManagerState
    private var decision: AuthorizationDecision
    private var appState: AppState
    private var authorization: Authorization
    private var generation = 0
    private var link: GPSDLink? {
        didSet { linkGeneration += 1 }
    }
    /// Counts changes to the link, so that events polled for a link that was since replaced are not given to the new one.
    private var linkGeneration = 0
    private var previousFix: Location?
    private var lastStatus: LocationStatusEvent?
    private var nextTick: ContinuousClock.Instant
    private var outbox: [QueuedUpdate] = []
    private var isFinished = false

    /// Starts a session on its own thread, with the authorization the consumer releases under
    /// in `shared`, and its updates in `queue`.
    /// - Parameters:
    ///   - decision: the source's decision when the stream was asked for; the session follows
    ///     its changes from there.
    static func start(
        configuration: GPSLocationConfiguration, source: any AuthorizationSource, decision: AuthorizationDecision,
        state: ManagerState, shared: AuthorizationGeneration, queue: LiveUpdateQueue, wakeUp: WakeUp
    ) {
        let started = DedicatedThread.start {
            LiveUpdateSession(
                configuration: configuration, source: source, decision: decision, state: state, shared: shared, queue: queue,
                wakeUp: wakeUp
            ).run()
        }
        if !started {
            queue.finish(throwing: .gpsdUnreachable(endpoint: configuration.endpoint, reason: "cannot start a thread"))
        }
    }

    private init(
        configuration: GPSLocationConfiguration, source: any AuthorizationSource, decision: AuthorizationDecision,
        state: ManagerState, shared: AuthorizationGeneration, queue: LiveUpdateQueue, wakeUp: WakeUp
    ) {
        self.configuration = configuration
        self.queue = queue
        self.wakeUp = wakeUp
        self.shared = shared
        self.source = source
        self.state = state
        follower = DecisionFollower(source, wakeUp: wakeUp)
        self.decision = decision
        authorization = shared.current.authorization
        appState = authorization.appState
        generation = shared.current.generation
        nextTick = ContinuousClock.now.advanced(by: EventWait.tick)
    }

    private func run() {
        defer { link?.close() }
        if authorization.isAuthorized {
            link = startLink()
        } else {
            report(stopEvent(for: authorization))
        }
        flush()
        var events: [GPSDLink.Event] = []
        var wait = EventWait(wakeUp: wakeUp)
        while !isFinished, !queue.isCancelled {
            let stallDeadline = queue.dropIfStalled(now: .now)
            // Back-pressure: while the consumer's queue is full, gpsd waits in the socket.
            let request = stallDeadline == nil ? link?.pollRequest : nil
            let polledGeneration = linkGeneration
            var wakeAt = nextTick
            if let linkDeadline = link?.nextDeadline { wakeAt = min(wakeAt, linkDeadline) }
            if let stallDeadline { wakeAt = min(wakeAt, stallDeadline) }
            let polled = wait.wait(for: request, until: wakeAt)
            let now = ContinuousClock.now
            if queue.isCancelled { break }
            var mayHaveChanged = false
            switch follower.take() {
            case .success(let newDecision)?:
                decision = newDecision
                mayHaveChanged = true
            case .failure(let error)?:
                // Fail closed: a decision that cannot be known any more ends the stream.
                finish(throwing: error)
            case nil:
                break
            }
            if now >= nextTick {
                nextTick = now.advanced(by: EventWait.tick)
                appState = state.appState
                mayHaveChanged = true
            }
            if mayHaveChanged, !isFinished { authorizationMayHaveChanged() }
            if link != nil, !isFinished {
                let revents = polledGeneration == linkGeneration ? polled : .none
                events.removeAll(keepingCapacity: true)
                link?.advance(revents, now: now, events: &events)
                for event in events { handle(event) }
            }
            // What the consumer delivered is kept here, off its task.
            if let kept = queue.takeToKeep() { source.keep(kept.location, releasedUnder: kept.authorization) }
            flush()
        }
    }

    private func startLink() -> GPSDLink {
        previousFix = nil
        return GPSDLink(configuration: configuration, watch: .positions(poll: true), reconnects: .afterConnecting, now: .now)
    }

    // MARK: - Authorization

    /// Resolves the authorization from the newest decision and the process's situation; a
    /// change makes a new generation, and stops or starts reading gpsd.
    private func authorizationMayHaveChanged() {
        let new = state.authorization(decision, appState: appState)
        guard new != authorization else { return }
        let old = authorization
        authorization = new
        generation = shared.change(to: new)
        switch (old.isAuthorized, new.isAuthorized) {
        case (false, true):
            report(old.isPausedInBackground ? .resumed : .authorizationChanged(status: new.status, denial: nil))
            link = startLink()
        case (true, false):
            link?.close()
            link = nil
            report(stopEvent(for: new))
        case (false, false)
        where (old.denial != new.denial || old.decision.invalidSettings != new.decision.invalidSettings) && !new.isPausedInBackground:
            report(stopEvent(for: new))
        case (true, true) where old.accuracy != new.accuracy:
            report(.accuracyChanged(new.accuracy))
        default:
            break
        }
    }

    /// The event that says why positions stop (or do not start) under `authorization`.
    private func stopEvent(for authorization: Authorization) -> LocationStatusEvent {
        if let problem = authorization.decision.invalidSettings { return .settingsInvalid(problem) }
        if authorization.isPausedInBackground { return .paused }
        return .authorizationChanged(status: authorization.status, denial: authorization.denial)
    }

    // MARK: - gpsd

    private func handle(_ event: GPSDLink.Event) {
        let endpoint = configuration.endpoint
        switch event {
        case .report(.fix(let location)):
            lastStatus = nil
            defer { previousFix = location }
            if let previousFix, location.repeatsEpoch(of: previousFix) { return }
            outbox.append(.fix(location, generation: generation))
        case .report(.noFix):
            report(.noFix)
        case .report(.devices(let paths)):
            if !endpoint.isServed(by: paths) { report(.noDevice) }
        case .report(.deviceAdded):
            break
        case .report(.error(let message)):
            finish(throwing: .gpsdRefused(endpoint: endpoint, message: message))
        case .report(.other):
            break
        case .lost(let retryIn):
            report(.gpsdLost(retryIn: retryIn))
        case .reconnected:
            report(.reconnected)
        case .failed(let error):
            finish(throwing: error)
        case .message:
            break
        }
    }

    // MARK: - Output

    /// Emits a status event, unless it repeats the last one.
    private func report(_ event: LocationStatusEvent) {
        guard event != lastStatus else { return }
        lastStatus = event
        outbox.append(.status(event))
    }

    /// Hands what this turn of the loop produced to the consumer, in one go.
    private func flush() {
        queue.push(outbox)
        outbox.removeAll(keepingCapacity: true)
    }

    private func finish(throwing error: GPSLocationError?) {
        guard !isFinished else { return }
        isFinished = true
        link?.close()
        link = nil
        flush()
        queue.finish(throwing: error)
    }
}
