import Glibc

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
    ///   the configuration's connect timeout and the deadline), or `CancellationError`.
    static func ask<Question: GPSDQuestion>(
        _ question: Question, configuration: GPSLocationConfiguration, deadline: ContinuousClock.Instant
    ) async throws -> Question.Answer {
        guard let wakeUp = WakeUp() else {
            throw GPSLocationError.gpsdUnreachable(endpoint: configuration.endpoint, reason: "out of file descriptors")
        }
        let cancelled = Flag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Question.Answer, any Error>) in
                let started = DedicatedThread.start {
                    continuation.resume(with: run(question, configuration: configuration, deadline: deadline, wakeUp: wakeUp) {
                        cancelled.isSet
                    })
                }
                if !started {
                    continuation.resume(throwing: GPSLocationError.gpsdUnreachable(endpoint: configuration.endpoint, reason: "cannot start a thread"))
                }
            }
        } onCancel: {
            cancelled.set()
            wakeUp.signal()
        }
    }

    /// The question's answer, asked on the calling thread, which blocks until it is known: for
    /// callers whose thread is their own (never Swift's cooperative pool).
    /// - Throws: `GPSLocationError`.
    static func askHere<Question: GPSDQuestion>(
        _ question: Question, configuration: GPSLocationConfiguration, deadline: ContinuousClock.Instant
    ) throws -> Question.Answer {
        try run(question, configuration: configuration, deadline: deadline, wakeUp: nil) { false }.get()
    }

    /// The request's loop, on its thread; `wakeUp` (when there is one) ends a wait at once.
    private static func run<Question: GPSDQuestion>(
        _ question: Question, configuration: GPSLocationConfiguration, deadline: ContinuousClock.Instant,
        wakeUp: WakeUp?, isCancelled: () -> Bool
    ) -> Result<Question.Answer, any Error> {
        var question = question
        let start = ContinuousClock.now
        // The connection may take at most the configured time, and never past the deadline.
        let connectTimeout = min(configuration.connectTimeout.boundedForWaiting, max(.zero, start.duration(to: deadline)))
        var link = GPSDLink(configuration: configuration, poll: true, reconnects: false, connectTimeout: connectTimeout, now: start)
        defer { link.close() }
        var events: [GPSDLink.Event] = []
        while true {
            if isCancelled() { return .failure(CancellationError()) }
            // The link's descriptor first, the wake-up (if any) after it.
            var descriptors = [link.pollRequest ?? pollfd(fd: -1, events: 0, revents: 0)]
            if let wakeUp { descriptors.append(pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)) }
            let wakeAt = [deadline, link.nextDeadline].compactMap { $0 }.min() ?? deadline
            waitForEvents(&descriptors, timeout: ContinuousClock.now.duration(to: wakeAt))
            let now = ContinuousClock.now
            events.removeAll(keepingCapacity: true)
            link.advance(descriptors[0].revents, now: now, events: &events)
            do throws(GPSLocationError) {
                for event in events {
                    switch event {
                    case .report(let report):
                        if let answer = try question.answer(after: report) { return .success(answer) }
                    case .failed(let error):
                        throw error
                    case .lost, .reconnected:
                        continue
                    }
                }
                if now >= deadline { return .success(try question.answerAtDeadline()) }
            } catch {
                return .failure(error)
            }
        }
    }
}
