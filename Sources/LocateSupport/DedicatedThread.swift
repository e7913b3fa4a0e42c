import Glibc

/// Threads of the library's own, for work that blocks (in `poll`), so that it never runs on
/// Swift's cooperative pool; a loop that runs until it is stopped is a ``LoopThread``.
package enum DedicatedThread {
    /// Runs `body` on a new detached thread, with SIGPIPE blocked on it: a write to a connection
    /// that gpsd closed must be an `EPIPE`, never a signal that kills the host program.
    /// - Returns: `false` when the system cannot start a thread.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                // pthread_create passes the context given below, which is never nil.
                guard let context else { return nil }
                Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Runs `body` on a new thread and waits for its value without holding a thread of Swift's
    /// cooperative pool; then `afterward` runs on the same thread with the value, after the
    /// caller has it (work the caller need not wait for, such as keeping what it got).
    ///
    /// `body` gets a wake-up and a question that says whether the waiting task was cancelled:
    /// a cancellation sets it and signals the wake-up, so a `poll` on it ends at once.
    /// - Parameter unavailable: the value when no thread (or no wake-up) can be had.
    package static func run<Value: Sendable>(
        unavailable: @escaping @autoclosure @Sendable () -> Value,
        _ body: @escaping @Sendable (_ wakeUp: WakeUp, _ isCancelled: @escaping @Sendable () -> Bool) -> Value,
        afterward: @escaping @Sendable (Value) -> Void = { _ in }
    ) async -> Value {
        guard let wakeUp = WakeUp() else { return unavailable() }
        let cancelled = Flag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                let started = start {
                    let value = body(wakeUp) { cancelled.isSet }
                    continuation.resume(returning: value)
                    afterward(value)
                }
                if !started { continuation.resume(returning: unavailable()) }
            }
        } onCancel: {
            cancelled.set()
            wakeUp.signal()
        }
    }
}
