import Dispatch
import Glibc

/// Turns SIGINT and SIGTERM into a callback on a dispatch queue instead of killing the process,
/// so `--follow` can end its output cleanly. Nothing runs inside a C signal handler.
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]

    /// Starts trapping `signals`; `handler` runs once per delivery, on a global queue.
    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        // A parent may have started us with these signals blocked; then they would never arrive.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in signals { sigaddset(&unblocked, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &unblocked, nil)
        sources = signals.map { signalNumber in
            // The default action must be off, or the process dies before the source sees the signal.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
