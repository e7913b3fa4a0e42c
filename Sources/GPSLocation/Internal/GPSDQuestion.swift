import LocateSupport

/// A question put to gpsd: it sees each report until it has its answer.
protocol GPSDQuestion: Sendable {
    associatedtype Answer: Sendable

    /// The answer once `report` makes it known, or `nil` to read on.
    /// - Throws: `GPSLocationError` to end the request with that error.
    mutating func answer(after report: GPSDReport) throws(GPSLocationError) -> Answer?

    /// The answer when the deadline passes without one.
    /// - Throws: `GPSLocationError` when there is nothing to answer with.
    func answerAtDeadline() throws(GPSLocationError) -> Answer
}

extension GPSDQuestion {
    /// Asks gpsd this question: connect, send WATCH and `?POLL;` in one write, then read
    /// reports until the question has its answer, the deadline passes, or the asker gives up.
    /// On the caller's thread, which must be its own (never Swift's cooperative pool); `wakeUp`
    /// ends a wait at once, whatever gpsd's port does, and the connection is closed with it.
    /// - Returns: the answer, within `timeout` of `start` (when the asker began, which may be a
    ///   moment before this call).
    /// - Throws: `GPSLocationError` (including a connection that fails or times out, bounded by
    ///   the configuration's connect timeout and `timeout`, either of which its message names,
    ///   and `cancelled`).
    func ask(
        configuration: GPSLocationConfiguration, timeout: Duration, from start: ContinuousClock.Instant, wakeUp: WakeUp?,
        isCancelled: () -> Bool
    ) throws(GPSLocationError) -> Answer {
        var question = self
        let deadline = start.advanced(by: timeout)
        // The connection may take at most the configured time, and never past the deadline.
        let connectTimeout = min(configuration.connectTimeout.boundedForWaiting, timeout)
        var link = GPSDLink(
            configuration: configuration, watch: .positions(poll: true), reconnects: .never, connectTimeout: connectTimeout, now: start)
        defer { link.close() }
        var events: [GPSDLink.Event] = []
        var wait = EventWait(wakeUp: wakeUp)
        while true {
            if isCancelled() { throw .cancelled }
            let revents = wait.wait(for: link.pollRequest, until: link.nextDeadline.map { min($0, deadline) } ?? deadline)
            let now = ContinuousClock.now
            events.removeAll(keepingCapacity: true)
            link.advance(revents, now: now, events: &events)
            for event in events {
                switch event {
                case .report(let report):
                    if let answer = try question.answer(after: report) { return answer }
                case .failed(let error):
                    throw error
                case .lost, .reconnected, .message:
                    continue
                }
            }
            if now >= deadline { return try question.answerAtDeadline() }
        }
    }

    /// `ask` on a dedicated thread, for async callers: cancelling the task ends it at once.
    func ask(configuration: GPSLocationConfiguration, timeout: Duration) async throws(GPSLocationError) -> Answer {
        let start = ContinuousClock.now
        let unavailable = GPSLocationError.gpsdUnreachable(endpoint: configuration.endpoint, reason: "cannot start a thread")
        return try await DedicatedThread.run(unavailable: Result<Answer, GPSLocationError>.failure(unavailable)) {
            [self] wakeUp, isCancelled in
            Result { () throws(GPSLocationError) in
                try ask(configuration: configuration, timeout: timeout, from: start, wakeUp: wakeUp, isCancelled: isCancelled)
            }
        }.get()
    }
}
