import Synchronization

/// A loop on a thread of its own, the kit's one shape of a background loop (gpsd's relay, a bus
/// connection, a watch of the settings files, serve's loop and its helpers). It owns the thread
/// (started by ``DedicatedThread``: SIGPIPE is blocked on it, and it never runs on Swift's
/// cooperative pool), the wake-up that cuts the loop's wait short (any thread signals
/// ``wakeUp``: work for the loop, a change it follows), the stop (``stop()``: ``isStopped`` says
/// so, and the loop's wait ends at once), and the end, which a caller can await with the loop's
/// value (``run(unavailable:_:)``, which a cancellation of the task stops) or block on until a
/// deadline (``waitForEnd(until:)``).
///
/// The loop's body gets an ``EventWait`` on the wake-up and has ended when it returns; it looks
/// at ``isStopped`` where its work needs (before a wait, after one, or after a last pass).
package final class LoopThread: Sendable {
    /// Whether the loop has ended, and the wake-ups of those blocked until it has.
    private struct End {
        var hasEnded = false
        var waiting: [WakeUp] = []
    }

    /// The loop's wake-up: a signal from any thread ends the loop's current wait.
    package let wakeUp: WakeUp
    private let stopped = Flag()
    private let end = Mutex(End())

    /// A loop not started yet; `nil` when the process is out of descriptors.
    package init?() {
        guard let wakeUp = WakeUp() else { return nil }
        self.wakeUp = wakeUp
    }

    /// Whether ``stop()`` was called.
    package var isStopped: Bool { stopped.isSet }

    /// Asks the loop to end: ``isStopped`` says so from now on, and its wait ends at once.
    package func stop() {
        stopped.set()
        wakeUp.signal()
    }

    /// Runs `body` on the loop's thread with a wait on ``wakeUp``; the loop has ended when it
    /// returns.
    /// - Returns: `false` when the system cannot start a thread.
    package func start(_ body: @escaping @Sendable (_ wait: inout EventWait) -> Void) -> Bool {
        DedicatedThread.start { [self] in
            var wait = EventWait(wakeUp: wakeUp)
            body(&wait)
            let waiting = end.withLock { end in
                end.hasEnded = true
                defer { end.waiting = [] }
                return end.waiting
            }
            for waiter in waiting { waiter.signal() }
        }
    }

    /// Runs `body` as ``start(_:)`` does and returns its value once it has returned, without
    /// holding a thread of Swift's cooperative pool; a cancellation of the task stops the loop.
    /// - Parameter unavailable: the value when no thread can be had.
    package func run<Value: Sendable>(
        unavailable: @autoclosure () -> Value, _ body: @escaping @Sendable (_ wait: inout EventWait) -> Value
    ) async -> Value {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Value, Never>) in
                let started = start { wait in done.resume(returning: body(&wait)) }
                if !started { done.resume(returning: unavailable()) }
            }
        } onCancel: {
            stop()
        }
    }

    /// Blocks the caller's thread until the loop has ended or `deadline` passes.
    /// - Returns: whether the loop has ended.
    @discardableResult
    package func waitForEnd(until deadline: ContinuousClock.Instant) -> Bool {
        // A wake-up of the caller's, which the end signals; with none to be had (no descriptors
        // left), the wait looks again every tick.
        let ended = WakeUp()
        var hasEnded = end.withLock { end in
            if !end.hasEnded, let ended { end.waiting.append(ended) }
            return end.hasEnded
        }
        var wait = EventWait(wakeUp: ended)
        while !hasEnded, ContinuousClock.now < deadline {
            wait.wait(for: nil, until: ended == nil ? min(deadline, .now.advanced(by: EventWait.tick)) : deadline)
            hasEnded = end.withLock { $0.hasEnded }
        }
        return hasEnded
    }
}
