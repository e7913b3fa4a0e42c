import GPSLocation
import GPSLocationConsent
import LocateSupport
import Synchronization

/// Keeps the service's part of the access log, on a thread of its own (the service loop never
/// waits for a file): the sessions of the clients served now, written when they changed (at most
/// once a tick), and each client's session when it ends. A log that cannot be written is said
/// once on stderr; serving goes on, and the ended sessions wait (the newest `unwrittenLimit`)
/// to be written when it can be again, tried every second.
///
/// So that a flood of connections cannot push the sessions that had positions out of the log,
/// a connection that got nothing and was neither refused nor denied is not a session, and of the
/// attempts (nothing delivered, refused or denied) one a minute is kept per app, program and reason.
final class AccessRecorder: Sendable {
    private struct Pending {
        var receivers: [AccessSession]?
        var ended: [AccessSession] = []
        /// When an attempt of each app, program and reason was last kept.
        var attempts: [Attempt: ContinuousClock.Instant] = [:]
    }

    private struct Attempt: Hashable {
        let app: String?
        let program: String?
        let reason: String?
    }

    /// How many ended sessions wait at most while the log cannot be written.
    static let unwrittenLimit = 1000

    /// How long attempts of one app, program and reason after a kept one are not kept.
    static let attemptInterval = Duration.seconds(60)

    private let log: AccessLog
    private let diagnose: @Sendable (String) -> Void
    private let pending = Mutex(Pending())
    private let loop: LoopThread

    /// Starts the recorder's thread; `nil` when no thread can be had.
    /// - Parameter diagnose: told what becomes of the log (it cannot be written, or can again).
    init?(log: AccessLog, diagnose: @escaping @Sendable (String) -> Void) {
        guard let loop = LoopThread() else { return nil }
        self.loop = loop
        self.log = log
        self.diagnose = diagnose
        guard loop.start({ [self] wait in run(waiting: &wait) }) else { return nil }
    }

    /// The sessions of the clients served now.
    func receivers(_ sessions: [AccessSession]) {
        pending.withLock { $0.receivers = sessions }
    }

    /// A client's session that ended.
    func ended(_ session: AccessSession, at now: ContinuousClock.Instant = .now) {
        guard session.deliveries > 0 || session.refusal != nil || session.denial != nil else { return }
        let kept = pending.withLock { pending in
            if session.deliveries == 0 {
                let attempt = Attempt(app: session.app, program: session.program, reason: session.refusal ?? session.denial?.rawValue)
                if let last = pending.attempts[attempt], last.duration(to: now) < Self.attemptInterval { return false }
                pending.attempts = pending.attempts.filter { $0.value.duration(to: now) < Self.attemptInterval }
                pending.attempts[attempt] = now
            }
            pending.ended.append(session)
            return true
        }
        if kept { loop.wakeUp.signal() }
    }

    /// Writes what waits, removes the receivers' entry, and ends the thread; returns when done
    /// (at most a few seconds), on the caller's thread, which it blocks: the service loop's.
    func stop() {
        loop.stop()
        loop.waitForEnd(until: .now.advanced(by: .seconds(5)))
    }

    private func run(waiting wait: inout EventWait) {
        var wanted: [AccessSession]?
        var written: [AccessSession]?
        var unwritten: [AccessSession] = []
        var lost = 0
        var failing = false
        while true {
            // Read before what waits is taken: a session that ended before the stop is in it.
            let isStopped = loop.isStopped
            let now = pending.withLock { pending in
                defer {
                    pending.receivers = nil
                    pending.ended = []
                }
                return pending
            }
            unwritten += now.ended
            wanted = now.receivers ?? wanted
            if unwritten.count > Self.unwrittenLimit {
                lost += unwritten.count - Self.unwrittenLimit
                unwritten.removeFirst(unwritten.count - Self.unwrittenLimit)
            }
            do throws(GPSLocationError) {
                while let session = unwritten.first {
                    try log.record(session)
                    unwritten.removeFirst()
                }
                if isStopped {
                    try log.setReceivers([])
                } else if let wanted, wanted != written {
                    try log.setReceivers(wanted)
                    written = wanted
                }
                if failing {
                    diagnose("serve: the access log is kept again" + (lost > 0 ? " (\(lost) sessions were lost)" : ""))
                }
                failing = false
                lost = 0
            } catch {
                if !failing {
                    diagnose(
                        "serve: the access log cannot be kept (sessions wait, tried every second): \(error.description)")
                }
                failing = true
            }
            if isStopped {
                if !unwritten.isEmpty || lost > 0 { diagnose("serve: \(unwritten.count + lost) sessions were not logged") }
                break
            }
            wait.wait(for: nil, until: .now.advanced(by: .seconds(1)))
        }
    }
}
