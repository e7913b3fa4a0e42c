import LocateSupport
import Synchronization

/// What waits in a live session's queue: a fix as gpsd reported it, with the generation of the
/// authorization it was read under (the consumer's gate releases it, or not, when it is taken),
/// or a status event (boxed, as it is rare and larger than a fix, whose `Location` is one
/// reference: a queue that fills in a burst moves two words an update).
enum QueuedUpdate: Sendable {
    case fix(Location, generation: Int)
    indirect case status(LocationStatusEvent)
}

/// The updates of a live session on their way from the session's thread to the consumer.
///
/// Bounded, with back-pressure first: when `capacity` updates wait, the session stops reading
/// gpsd (`isFull`) until the consumer has taken half of them. Only when the consumer really
/// stalls (takes nothing for `stallTimeout` while the queue is full) are the oldest fixes
/// dropped (the status events among them stay), and a `dropped` status event says how many, so
/// memory stays bounded and the consumer gets the newest positions when it comes back.
final class LiveUpdateQueue: Sendable {
    /// Updates that may wait for the consumer.
    static let capacity = 4096
    /// How long a full queue waits for the consumer before its oldest updates are dropped.
    static let stallTimeout = Duration.seconds(2)
    /// How many of the status events among dropped updates stay.
    static let statusesKeptWhenDropping = 64

    private struct State {
        var updates: [QueuedUpdate] = []
        /// Index of the first update not yet taken (taken ones are removed in bulk).
        var head = 0
        var waiter: CheckedContinuation<Result<QueuedUpdate?, GPSLocationError>, Never>?
        var end: Result<Void, GPSLocationError>?
        var isCancelled = false
        /// When the queue last got full, or the consumer last took from it while full: what a
        /// stall is timed from (read only then, so a busy stream does not read the clock at
        /// every update).
        var stallStart = ContinuousClock.now
        /// The newest fix the consumer delivered, for the producer to keep.
        var toKeep: (location: Location, authorization: Authorization)?

        var count: Int { updates.count - head }

        mutating func take() -> QueuedUpdate? {
            guard head < updates.count else { return nil }
            if count >= LiveUpdateQueue.capacity { stallStart = .now }
            let update = updates[head]
            head += 1
            if head == updates.count {
                updates.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= updates.count {
                updates.removeFirst(head)
                head = 0
            }
            return update
        }
    }

    private let state = Mutex(State())
    /// Signalled when the consumer has made room in a full queue, or has gone away.
    private let producerWakeUp: WakeUp?

    /// A queue whose producer waits on `producerWakeUp` (`nil` for a queue that is over before it starts).
    init(producerWakeUp: WakeUp?) {
        self.producerWakeUp = producerWakeUp
    }

    // MARK: - Producer (the session's thread)

    /// Whether the session should stop reading gpsd until the consumer makes room.
    var isFull: Bool { state.withLock { $0.count >= Self.capacity } }

    /// Whether the consumer has gone away (ended its iteration or was cancelled).
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Hands `updates` to the consumer.
    func push(_ updates: [QueuedUpdate]) {
        guard !updates.isEmpty else { return }
        let resumed: (CheckedContinuation<Result<QueuedUpdate?, GPSLocationError>, Never>, QueuedUpdate)? = state.withLock { state in
            guard state.end == nil, !state.isCancelled else { return nil }
            if state.count < Self.capacity, state.count + updates.count >= Self.capacity { state.stallStart = .now }
            state.updates += updates
            guard let waiter = state.waiter, let first = state.take() else { return nil }
            state.waiter = nil
            return (waiter, first)
        }
        if let (waiter, first) = resumed { waiter.resume(returning: .success(first)) }
    }

    /// When a full queue has waited `stallTimeout` for the consumer, drops the oldest updates
    /// down to half the capacity and puts a `dropped` event first; otherwise the time to call again.
    /// - Returns: when to check again (the stall deadline), or `nil` when the queue is not full.
    func dropIfStalled(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        state.withLock { state in
            guard state.count >= Self.capacity else { return nil }
            let deadline = state.stallStart.advanced(by: Self.stallTimeout)
            guard now >= deadline else { return deadline }
            // The oldest fixes go; the status events among them stay (the newest few of them,
            // so memory stays bounded), since they say what became of the stream meanwhile.
            let oldest = state.updates[state.head..<(state.head + state.count - Self.capacity / 2)]
            let statuses = oldest.filter {
                guard case .status(let event) = $0 else { return false }
                if case .dropped = event { return false }
                return true
            }.suffix(Self.statusesKeptWhenDropping)
            let dropped = oldest.count { if case .fix = $0 { true } else { false } }
            state.updates = [.status(.dropped(count: dropped))] + statuses + state.updates[oldest.endIndex...]
            state.head = 0
            state.stallStart = now
            return nil
        }
    }

    /// Ends the stream after the updates already queued: normally, or with `error`.
    func finish(throwing error: GPSLocationError?) {
        let waiter: CheckedContinuation<Result<QueuedUpdate?, GPSLocationError>, Never>? = state.withLock { state in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            guard state.count == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    // MARK: - Consumer

    /// What `next()` finds.
    private enum Outcome {
        case update(QueuedUpdate?)
        case failure(GPSLocationError)
        case empty
    }

    /// The next update; `nil` when the stream has ended or the task was cancelled.
    /// - Throws: the error the stream ended with, after every update queued before it.
    func next() async throws(GPSLocationError) -> QueuedUpdate? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        // The common case in a busy stream: an update is waiting, and no suspension is needed.
        switch takeNow(orWait: nil) {
        case .update(let update): return update
        case .failure(let error): throw error
        case .empty: break
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<QueuedUpdate?, GPSLocationError>, Never>) in
                switch takeNow(orWait: continuation) {
                case .update(let update): continuation.resume(returning: .success(update))
                case .failure(let error): continuation.resume(returning: .failure(error))
                case .empty: break
                }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// The next update if one is waiting, without suspending.
    func nextIfAvailable() -> QueuedUpdate? {
        var wakesProducer = false
        let update: QueuedUpdate? = state.withLock { state in
            let update = state.take()
            wakesProducer = update != nil && state.count == Self.capacity / 2
            return update
        }
        if wakesProducer { producerWakeUp?.signal() }
        return update
    }

    /// Takes the next update or the end, or (with `waiter`) leaves the waiter for `push` or `finish`.
    private func takeNow(orWait waiter: CheckedContinuation<Result<QueuedUpdate?, GPSLocationError>, Never>?) -> Outcome {
        var wakesProducer = false
        let outcome: Outcome = state.withLock { state in
            if let update = state.take() {
                wakesProducer = state.count == Self.capacity / 2
                return .update(update)
            }
            if state.isCancelled { return .update(nil) }
            switch state.end {
            case .failure(let error)?:
                state.end = .success(())
                return .failure(error)
            case .success?:
                return .update(nil)
            case nil:
                if let waiter { state.waiter = waiter }
                return .empty
            }
        }
        if wakesProducer { producerWakeUp?.signal() }
        return outcome
    }

    /// Asks the producer to keep `location`, which the consumer delivered under `authorization`
    /// (the producer's thread takes the source's lock and writes its file, not the consumer's).
    func keep(_ location: Location, releasedUnder authorization: Authorization) {
        state.withLock { $0.toKeep = (location, authorization) }
        producerWakeUp?.signal()
    }

    /// The fix the consumer asked to keep, once.
    func takeToKeep() -> (location: Location, authorization: Authorization)? {
        state.withLock { state in
            defer { state.toKeep = nil }
            return state.toKeep
        }
    }

    /// The consumer goes away: a waiting `next()` returns `nil`, and the session stops.
    func cancel() {
        let waiter: CheckedContinuation<Result<QueuedUpdate?, GPSLocationError>, Never>? = state.withLock { state in
            state.isCancelled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .success(nil))
        producerWakeUp?.signal()
    }
}
