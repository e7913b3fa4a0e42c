import LocateSupport

/// One request for a fix, the steps shared by `GPSLocationManager.requestLocation` and the
/// `locate` command's `--once` (which runs them on its main thread, without the manager and
/// without Swift's concurrency runtime): resolve the authorization, answer from the kept fix
/// when `maxAge` allows, ask gpsd, and release what it answered through the gate under the
/// authorization as it is then.
package struct SingleFixRequest: Sendable {
    /// What a request hands out: the released fix, and the authorization it was released under
    /// (to keep it by, once it is delivered).
    package struct Answer: Sendable {
        package let location: Location
        package let authorization: Authorization
        /// Whether it came from the kept fix (which is not kept again).
        let isKept: Bool
    }

    let source: any AuthorizationSource
    let configuration: GPSLocationConfiguration
    let context: ProcessContext?
    let isAllowedOnce: Bool
    let accuracy: Double?
    let maxAge: Duration?
    let timeout: Duration
    let statusHandler: (@Sendable (LocationStatusEvent) -> Void)?

    /// A request.
    /// - Parameters:
    ///   - context: the process's situation as the host knows it; `nil` reads the terminal.
    ///   - isAllowedOnce: "Allow once" was answered for this process.
    ///   - statusHandler: told what the wait is waiting for (`noDevice`, once), on the
    ///     request's thread; `nil` to hear nothing.
    package init(
        source: any AuthorizationSource, configuration: GPSLocationConfiguration, context: ProcessContext?, isAllowedOnce: Bool,
        accuracy: Double?, timeout: Duration, maxAge: Duration?, statusHandler: (@Sendable (LocationStatusEvent) -> Void)? = nil
    ) {
        self.source = source
        self.configuration = configuration
        self.context = context
        self.isAllowedOnce = isAllowedOnce
        self.accuracy = accuracy
        self.maxAge = maxAge
        self.timeout = timeout.boundedForWaiting
        self.statusHandler = statusHandler
    }

    /// The fix, asked on the calling thread, which blocks until it is known: for a caller whose
    /// thread is its own (never Swift's cooperative pool).
    /// - Throws: `GPSLocationError`, as `GPSLocationManager.requestLocation` does.
    @available(*, noasync, message: "blocks the calling thread; use run() in async code")
    package func runHere() throws(GPSLocationError) -> Answer {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let authorization = try resolve()
        if let kept = try keptAnswer(under: authorization) { return kept }
        return try release(GPSDRequest.askHere(question(under: authorization), configuration: configuration, deadline: deadline))
    }

    /// The fix, asked on a dedicated thread.
    /// - Throws: `GPSLocationError`, as `GPSLocationManager.requestLocation` does.
    package func run() async throws(GPSLocationError) -> Answer {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let authorization = try resolve()
        if let kept = try keptAnswer(under: authorization) { return kept }
        return try release(await GPSDRequest.ask(question(under: authorization), configuration: configuration, deadline: deadline))
    }

    /// Gives the delivered answer to the source to keep (a fix from the kept one is not kept again).
    package func keep(_ answer: Answer) {
        if !answer.isKept { source.keep(answer.location, releasedUnder: answer.authorization) }
    }

    /// The authorization now.
    /// - Throws: `invalidSettings`, or `notAuthorized` when positions may not be delivered.
    private func resolve() throws(GPSLocationError) -> Authorization {
        let authorization = Authorization(
            decision: try source.currentDecision(), context: context ?? .current(), isAllowedOnce: isAllowedOnce)
        if let reason = authorization.denial { throw .notAuthorized(reason: reason) }
        return authorization
    }

    private func question(under authorization: Authorization) -> SingleFixQuestion {
        SingleFixQuestion(
            endpoint: configuration.endpoint, accuracy: accuracy, maxAge: maxAge, timeout: timeout,
            accuracyAuthorization: authorization.accuracy, statusHandler: statusHandler)
    }

    /// The kept fix, released, when `maxAge` asks for one and it is good enough as released.
    private func keptAnswer(under authorization: Authorization) throws(GPSLocationError) -> Answer? {
        guard let maxAge, let kept = source.keptLocation(), let released = PositionGate.releaseOnce(kept, under: authorization),
            SingleFixQuestion.isAcceptable(released, accuracy: accuracy, maxAge: maxAge)
        else { return nil }
        return Answer(location: released, authorization: authorization, isKept: true)
    }

    /// What gpsd answered, released under the authorization now.
    /// - Throws: `accuracyNotReached` with the released fix when only the best fix seen is
    ///   there (or the released fix is no longer good enough); `notAuthorized`; `invalidSettings`.
    private func release(_ answer: SingleFixAnswer) throws(GPSLocationError) -> Answer {
        let authorization = try resolve()
        switch answer {
        case .acceptable(let location):
            guard let released = PositionGate.releaseOnce(location, under: authorization) else {
                throw .notAuthorized(reason: authorization.denial ?? .denied)
            }
            guard SingleFixQuestion.isAcceptable(released, accuracy: accuracy, maxAge: maxAge) else {
                throw .accuracyNotReached(timeout: timeout, bestSeen: released)
            }
            return Answer(location: released, authorization: authorization, isKept: false)
        case .bestSeen(let location):
            guard let released = PositionGate.releaseOnce(location, under: authorization) else {
                throw .notAuthorized(reason: authorization.denial ?? .denied)
            }
            throw .accuracyNotReached(timeout: timeout, bestSeen: released)
        }
    }
}
