import LocateSupport

/// One request for a fix, the steps of `GPSLocationManager.requestLocation` and its blocking
/// twin: resolve the authorization, answer from the kept fix when `maxAge` allows, ask gpsd, and
/// release what it answered through the gate under the authorization as it is then; the
/// delivered fix is kept after the caller has it.
///
/// Every step runs on one thread: the caller's, for the blocking request, or a dedicated one (so
/// the settings' reads, gpsd's socket and the cache's lock and write never run on Swift's
/// cooperative pool).
struct SingleFixRequest: Sendable {
    let source: any AuthorizationSource
    let configuration: GPSLocationConfiguration
    let state: ManagerState
    let accuracy: Double?
    let minimumFix: Location.FixType?
    let maxAge: Duration?
    let timeout: Duration
    let statusHandler: (@Sendable (LocationStatusEvent) -> Void)?

    /// A request.
    /// - Parameter statusHandler: told what the wait is waiting for (`noDevice`, once), on the
    ///   request's thread; `nil` to hear nothing.
    /// - Throws: `invalidArgument` for an accuracy that is not a positive number, a timeout
    ///   that is not above zero, or a negative `maxAge`.
    init(
        source: any AuthorizationSource, configuration: GPSLocationConfiguration, state: ManagerState,
        accuracy: Double?, minimumFix: Location.FixType? = nil, timeout: Duration, maxAge: Duration?,
        statusHandler: (@Sendable (LocationStatusEvent) -> Void)?
    ) throws(GPSLocationError) {
        try Self.check(accuracy: accuracy, timeout: timeout, maxAge: maxAge)
        self.source = source
        self.configuration = configuration
        self.state = state
        self.accuracy = accuracy
        self.minimumFix = minimumFix
        self.maxAge = maxAge
        self.timeout = timeout.boundedForWaiting
        self.statusHandler = statusHandler
    }

    /// Checks a request's arguments.
    /// - Throws: `invalidArgument` for an accuracy that is not a positive number, a timeout
    ///   that is not above zero, or a negative `maxAge`.
    static func check(accuracy: Double?, timeout: Duration, maxAge: Duration?) throws(GPSLocationError) {
        if let accuracy, !(accuracy.isFinite && accuracy > 0) {
            throw .invalidArgument(name: "accuracy", reason: "\(accuracy) is not a number of metres above 0")
        }
        guard timeout > .zero else { throw .invalidArgument(name: "timeout", reason: "\(timeout) is not above zero") }
        if let maxAge, maxAge < .zero { throw .invalidArgument(name: "maxAge", reason: "\(maxAge) is below zero") }
    }

    /// The fix, asked on the calling thread, which blocks until it is known; `delivered` has it
    /// before it is kept.
    /// - Throws: `GPSLocationError`, as `GPSLocationManager.requestLocation` does.
    func runHere(delivered: (Location) -> Void) throws(GPSLocationError) -> Location {
        let result = answer(wakeUp: nil) { false }
        return try handOut(result, isBlocking: true, delivered: delivered)
    }

    /// The fix, asked on a dedicated thread, which keeps it after the caller has it.
    /// - Throws: `GPSLocationError`, as `GPSLocationManager.requestLocation` does.
    func run() async throws(GPSLocationError) -> Location {
        let unavailable = GPSLocationError.gpsdUnreachable(endpoint: configuration.endpoint, reason: "cannot start a thread")
        let result = await DedicatedThread.run(unavailable: Outcome.failure(unavailable)) { (wakeUp, isCancelled) in
            self.answer(wakeUp: wakeUp, isCancelled: isCancelled)
        } afterward: { result in
            // The caller has its answer; the cache's lock and write are this thread's.
            if case .answer(let answer) = result, answer.isGoodEnough { self.keep(answer) }
        }
        return try handOut(result) { _ in }
    }

    /// What a request hands out: the released fix, and the authorization it was released under
    /// (to keep it by, once it is delivered).
    struct Answer: Sendable {
        let location: Location
        let authorization: Authorization
        /// Whether it came from the kept fix (which is not kept again).
        var isKept = false
        /// Whether it is the answer; otherwise it is the most accurate fix seen, which the
        /// request throws with `accuracyNotReached`.
        var isGoodEnough = true
    }

    /// How a request ended. Not `Result<Answer, GPSLocationError>`: the first use of a `Result`
    /// with a new error type makes the runtime scan every protocol conformance of the binary
    /// (for `Failure: Error`, about 70,000 instructions), a tenth of `locate --once`'s own work.
    enum Outcome: Sendable {
        case answer(Answer)
        case failure(GPSLocationError)

        func get() throws(GPSLocationError) -> Answer {
            switch self {
            case .answer(let answer): return answer
            case .failure(let error): throw error
            }
        }
    }

    /// The whole request, on this thread.
    private func answer(wakeUp: WakeUp?, isCancelled: @escaping () -> Bool) -> Outcome {
        do throws(GPSLocationError) {
            let started = ContinuousClock.now
            let appState = state.appState
            let authorization = try resolve(appState: appState)
            if let kept = try keptAnswer(under: authorization) { return .answer(kept) }
            let answer = try question(under: authorization).ask(
                configuration: configuration, timeout: timeout, from: started, wakeUp: wakeUp, isCancelled: isCancelled)
            // The gate, when the fix is handed out: the decision as it is now, and the app state
            // read again unless the answer came within a tick of the first reading.
            let now = try resolve(appState: started.duration(to: .now) < EventWait.tick ? appState : state.appState)
            return .answer(try release(answer, under: now))
        } catch {
            return .failure(error)
        }
    }

    /// Hands the answer out: `delivered` first (a program that shows it at once is never kept
    /// waiting); then, for the blocking request, the cache, on this thread; otherwise the
    /// manager's last location (the cache is the request thread's, afterwards). The most
    /// accurate fix seen is thrown with `accuracyNotReached`.
    ///
    /// The blocking request leaves the last location as it was: following the authorization
    /// for it, as the gate's second rule asks, would start Swift's concurrency in a process that
    /// asks once and ends (`locate --once`), at twice the cost of the whole request.
    private func handOut(
        _ result: Outcome, isBlocking: Bool = false, delivered: (Location) -> Void
    ) throws(GPSLocationError) -> Location {
        let answer = try result.get()
        if answer.isGoodEnough { delivered(answer.location) }
        if !isBlocking { state.delivered(answer.location, releasedUnder: answer.authorization) }
        guard answer.isGoodEnough else { throw .accuracyNotReached(timeout: timeout, bestSeen: answer.location) }
        if isBlocking { keep(answer) }
        return answer.location
    }

    /// Gives the delivered answer to the source to keep (a fix from the kept one is not kept again).
    private func keep(_ answer: Answer) {
        if !answer.isKept { source.keep(answer.location, releasedUnder: answer.authorization) }
    }

    /// The authorization now, in `appState`.
    /// - Throws: `invalidSettings`, or `notAuthorized` when positions may not be delivered.
    private func resolve(appState: AppState) throws(GPSLocationError) -> Authorization {
        let authorization = state.authorization(try source.currentDecision(), appState: appState)
        if let reason = authorization.denial { throw .notAuthorized(reason: reason) }
        return authorization
    }

    /// The accuracy to wait for under `authorization`: none under reduced accuracy, where every
    /// fix is its grid cell (iOS answers with the approximate location at once).
    private func desiredAccuracy(under authorization: Authorization) -> Double? {
        authorization.accuracy == .reducedAccuracy ? nil : accuracy
    }

    /// The fix type to wait for under `authorization`: none under reduced accuracy, whose cells
    /// have no type (waiting for one would tell the precise fix's type by the timeout).
    private func desiredFix(under authorization: Authorization) -> Location.FixType? {
        authorization.accuracy == .reducedAccuracy ? nil : minimumFix
    }

    private func question(under authorization: Authorization) -> SingleFixQuestion {
        SingleFixQuestion(
            endpoint: configuration.endpoint, accuracy: desiredAccuracy(under: authorization), minimumFix: desiredFix(under: authorization),
            maxAge: maxAge, timeout: timeout,
            accuracyAuthorization: authorization.accuracy, statusHandler: statusHandler)
    }

    /// The kept fix, released, when `maxAge` asks for one and it is good enough as released.
    private func keptAnswer(under authorization: Authorization) throws(GPSLocationError) -> Answer? {
        guard let maxAge, var kept = source.keptLocation() else { return nil }
        kept.source = .cache
        guard let released = PositionGate.releaseOnce(kept, under: authorization),
            SingleFixQuestion.isAcceptable(
                released, accuracy: desiredAccuracy(under: authorization), minimumFix: desiredFix(under: authorization), maxAge: maxAge)
        else { return nil }
        return Answer(location: released, authorization: authorization, isKept: true)
    }

    /// What gpsd answered, released under `authorization`: the answer, or the most accurate fix
    /// seen when only that is there (or the released fix is no longer good enough).
    /// - Throws: `notAuthorized`.
    private func release(_ answer: SingleFixAnswer, under authorization: Authorization) throws(GPSLocationError) -> Answer {
        switch answer {
        case .acceptable(let location):
            guard let released = PositionGate.releaseOnce(location, under: authorization) else {
                throw .notAuthorized(reason: authorization.denial ?? .denied)
            }
            let isGoodEnough = SingleFixQuestion.isAcceptable(
                released, accuracy: desiredAccuracy(under: authorization), minimumFix: desiredFix(under: authorization), maxAge: maxAge)
            return Answer(location: released, authorization: authorization, isGoodEnough: isGoodEnough)
        case .bestSeen(let location):
            guard let released = PositionGate.releaseOnce(location, under: authorization) else {
                throw .notAuthorized(reason: authorization.denial ?? .denied)
            }
            return Answer(location: released, authorization: authorization, isGoodEnough: false)
        }
    }
}
