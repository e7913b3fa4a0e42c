import Dispatch
import Glibc

/// SIGINT, SIGTERM and SIGHUP, for the commands that end their output cleanly when interrupted
/// (`--follow` closes a GPX document). SIGHUP (a closed terminal, a session's logout) is a stop
/// like SIGTERM, not a crash: the document is closed and the status is the stream's own.
///
/// No code runs in a C signal handler: the signals are blocked in every thread from the start
/// of `main`, and one thread waits for them with `sigwait`. Only the first is trapped: a second
/// SIGINT, SIGTERM or SIGHUP ends the process at once with the signal's default action, however busy it
/// is (as service-lifecycle does; a command may take the second too, to cut its end short, and then
/// the third ends it), and so does the first one when stdout is or gets blocked
/// before the clean end is done (its reader stopped reading, and a clean end would have to write).
package enum SignalTrap {
    /// The signals trapped.
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// SIGHUP, which a service may take as nothing (see ``trap(ignoring:handler:)``).
    package static let hangUp = SIGHUP

    /// How long a write to stdout must have hung for a first signal to end the process at once.
    package static let blockedOutput = Duration.milliseconds(100)

    /// Blocks the signals in the calling thread, which every thread started later inherits.
    /// `main` calls this first, before any other thread exists.
    package static func blockSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Lets the signals take their default action (end the process) again: for the commands
    /// that have nothing to close, and for a parent that started us with them ignored.
    package static func restoreDefaultActions() {
        for number in signals { signal(number, SIG_DFL) }
        var set = signalSet()
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Waits for the signals on a thread of the trap's own; `handler` runs there for the first.
    /// - Parameters:
    ///   - ignored: signals that are taken and do nothing (a service's SIGHUP, which has
    ///     nothing to re-read).
    ///   - second: runs for a second signal instead of ending the process (a command that
    ///     must still say what it lost cuts its clean end short); a third one ends it.
    package static func trap(
        ignoring ignored: [Int32] = [], second: (@Sendable (Int32) -> Void)? = nil, handler: @escaping @Sendable (Int32) -> Void
    ) {
        for number in signals { signal(number, SIG_DFL) }
        DispatchQueue(label: "locate.signals").async {
            var set = signalSet()
            pthread_sigmask(SIG_BLOCK, &set, nil)
            var received: Int32 = 0
            repeat {
                guard sigwait(&set, &received) == 0 else { return }
            } while ignored.contains(received)
            handler(received)
            // Until the process ends cleanly: a second signal (a third, with `second`), or a blocked stdout, ends it now.
            var slice = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            var pardon = second
            while !StandardIO.isOutputBlocked(for: blockedOutput) {
                let next = sigtimedwait(&set, nil, &slice)
                guard next > 0, !ignored.contains(next) else { continue }
                received = next
                guard let cut = pardon else { break }
                pardon = nil
                cut(next)
            }
            // The default action, now: let the signal through to this thread.
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, received)
            pthread_sigmask(SIG_UNBLOCK, &one, nil)
            raise(received)
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
