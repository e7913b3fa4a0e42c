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

/// Asks gpsd one question on a dedicated thread (libgps and `poll` never run on Swift's
/// cooperative pool): connect, send WATCH and `?POLL;` in one write, then read reports until
/// the question has its answer, the deadline passes, or the task is cancelled. Cancellation
/// wakes the thread at once, whatever gpsd's port does, and the connection is closed with it.
enum GPSDRequest {
    /// The question's answer.
    /// - Throws: `GPSLocationError` (including a connection that fails or times out, bounded by
    ///   the configuration's connect timeout and the deadline, and `cancelled`).
    static func ask<Question: GPSDQuestion>(
        _ question: Question, configuration: GPSLocationConfiguration, deadline: ContinuousClock.Instant
    ) async throws(GPSLocationError) -> Question.Answer {
        guard let wakeUp = WakeUp() else {
            throw .gpsdUnreachable(endpoint: configuration.endpoint, reason: "out of file descriptors")
        }
        let cancelled = Flag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Question.Answer, GPSLocationError>, Never>) in
                let started = DedicatedThread.start {
                    continuation.resume(
                        returning: Result { () throws(GPSLocationError) in
                            try run(question, configuration: configuration, deadline: deadline, wakeUp: wakeUp) { cancelled.isSet }
                        })
                }
                if !started {
                    continuation.resume(
                        returning: .failure(.gpsdUnreachable(endpoint: configuration.endpoint, reason: "cannot start a thread")))
                }
            }
        } onCancel: {
            cancelled.set()
            wakeUp.signal()
        }
        return try result.get()
    }

    /// The question's answer, asked on the calling thread, which blocks until it is known: for
    /// callers whose thread is their own (never Swift's cooperative pool).
    /// - Throws: `GPSLocationError`.
    static func askHere<Question: GPSDQuestion>(
        _ question: Question, configuration: GPSLocationConfiguration, deadline: ContinuousClock.Instant
    ) throws(GPSLocationError) -> Question.Answer {
        try run(question, configuration: configuration, deadline: deadline, wakeUp: nil) { false }
    }

    /// The request's loop, on its thread; `wakeUp` (when there is one) ends a wait at once.
    private static func run<Question: GPSDQuestion>(
        _ question: Question, configuration: GPSLocationConfiguration, deadline: ContinuousClock.Instant,
        wakeUp: WakeUp?, isCancelled: () -> Bool
    ) throws(GPSLocationError) -> Question.Answer {
        var question = question
        let start = ContinuousClock.now
        // The connection may take at most the configured time, and never past the deadline.
        let connectTimeout = min(configuration.connectTimeout.boundedForWaiting, max(.zero, start.duration(to: deadline)))
        var link = GPSDLink(configuration: configuration, poll: true, reconnects: false, connectTimeout: connectTimeout, now: start)
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
                case .lost, .reconnected:
                    continue
                }
            }
            if now >= deadline { return try question.answerAtDeadline() }
        }
    }
}
