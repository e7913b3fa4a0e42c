import FoundationEssentials
import LocateFormats
import LocateSupport

/// The producer side of a live stream over a ``ReplayTrack``, run by one dedicated thread: it
/// reads the track as it plays it, hands its fixes to the queue at `speed` times the pace of
/// their receiver times (as fast as the consumer takes them at speed 0, or between fixes
/// without a time), and ends the stream after the last one, or with the track's problem where
/// the reading found one. At speed 0 fixes go in batches, but none waits for more to come:
/// see `Handover`.
///
/// It waits in `poll` on its wake-up, like the gpsd session: for a fix's time to come, for the
/// consumer to make room in a full queue (a replay waits for its consumer, it never drops), for
/// a pipe's next bytes, or for the consumer to go away, which ends the reading at once.
final class ReplaySession: Sendable {
    private let track: ReplayTrack
    private let speed: Double
    private let queue: LiveUpdateQueue
    private let wakeUp: WakeUp
    private let generation: Int
    private let deadline: ContinuousClock.Instant?

    /// Starts a session on its own thread; its fixes are tagged with `generation`, and it ends
    /// at `deadline` (`nil`: at the end of the track).
    static func start(
        track: ReplayTrack, speed: Double, deadline: ContinuousClock.Instant?, queue: LiveUpdateQueue, wakeUp: WakeUp, generation: Int
    ) {
        let session = ReplaySession(track: track, speed: speed, deadline: deadline, queue: queue, wakeUp: wakeUp, generation: generation)
        if !DedicatedThread.start({ session.run() }) {
            queue.finish(throwing: .cancelled)
        }
    }

    private init(
        track: ReplayTrack, speed: Double, deadline: ContinuousClock.Instant?, queue: LiveUpdateQueue, wakeUp: WakeUp, generation: Int
    ) {
        self.track = track
        self.speed = speed.isFinite && speed > 0 ? speed : 0
        self.deadline = deadline
        self.queue = queue
        self.wakeUp = wakeUp
        self.generation = generation
    }

    /// Whether the session is to end now: its consumer went away, or its deadline passed.
    private var isOver: Bool {
        queue.isCancelled || deadline.map { ContinuousClock.now >= $0 } ?? false
    }

    /// The most fixes handed over in one go when nothing paces them.
    private static let batch = 256

    private func run() {
        let queue = queue
        let deadline = deadline
        // A request (the only session with a deadline) wants its first acceptable fix as soon
        // as it is read; a paced stream hands each fix over when it is due anyway.
        let handover = Handover(queue: queue, eachFix: deadline != nil || speed > 0)
        var reader: TrackReader
        do throws(GPSLocationError) {
            reader = try track.makeReader(
                wakeUp: wakeUp, shouldStop: { queue.isCancelled || deadline.map { ContinuousClock.now >= $0 } ?? false },
                willRead: { mayWait in handover.flush(ifWaiting: mayWait) })
        } catch {
            // A pipe stopped before it said its format (a deadline, a signal) has no problem: it ended.
            queue.finish(throwing: isOver ? nil : error)
            return
        }
        var wait = EventWait(wakeUp: wakeUp)
        let started = ContinuousClock.now
        var firstTime: Date?
        var played = 0
        var integrity = IntegrityCheck()
        while !isOver {
            let next: Location?
            do throws(TrackProblem) {
                next = try reader.next()
            } catch {
                handover.flush()
                // A reading cut short by a stop ends where it was: what it found there is no problem of the track.
                queue.finish(throwing: isOver ? nil : .invalidTrack(file: track.name, line: error.line, reason: error.reason))
                return
            }
            // A fix read after a stop (the end of a cut-short input) is not played.
            guard var location = next, !isOver else { break }
            if speed > 0, let time = location.time {
                let first = firstTime ?? time
                firstTime = first
                let offset = max(0, time.timeIntervalSince(first)) / speed
                let due = started.advanced(by: .milliseconds(Int64(min(offset, 1e12) * 1000)))
                while ContinuousClock.now < due, !isOver {
                    handover.flush()
                    wait.wait(for: nil, until: min(due, deadline ?? due, .now.advanced(by: EventWait.tick)))
                }
                if isOver { break }
            }
            while queue.isFull, !isOver {
                handover.flush()
                wait.wait(for: nil, until: .now.advanced(by: EventWait.tick))
            }
            location.source = .replay
            location.integrity = integrity.check(location)
            handover.add(.fix(location, generation: generation))
            played += 1
        }
        handover.flush()
        if played == 0, !isOver {
            queue.finish(throwing: .invalidTrack(file: track.name, line: nil, reason: "has no fix"))
        } else {
            queue.finish(throwing: nil)
        }
    }

    /// The fixes read and not handed over yet, on the session's thread alone. Unpaced, they go
    /// in batches (one push, one wake-up of the consumer, for up to ``ReplaySession/batch``
    /// fixes), but never wait long: they go before a read that may wait for a pipe, and once
    /// the oldest has waited a tick (``EventWait/tick``), so a slow stretch of input (a pipe
    /// that stays open, a file of blank lines) never holds back what was read before it.
    private final class Handover {
        private let queue: LiveUpdateQueue
        private let eachFix: Bool
        private var batch: [QueuedUpdate] = []
        /// When the oldest fix of the batch was read.
        private var oldest: ContinuousClock.Instant?

        init(queue: LiveUpdateQueue, eachFix: Bool) {
            self.queue = queue
            self.eachFix = eachFix
        }

        func add(_ update: QueuedUpdate) {
            batch.append(update)
            if eachFix || batch.count >= ReplaySession.batch {
                flush()
            } else {
                flush(ifWaiting: false)
            }
        }

        /// Hands the batch over when a read is about to wait, or its oldest fix waited a tick.
        func flush(ifWaiting mayWait: Bool) {
            guard !batch.isEmpty else { return }
            let now = ContinuousClock.now
            guard let oldest else {
                self.oldest = now
                if mayWait { flush() }
                return
            }
            if mayWait || oldest.duration(to: now) >= EventWait.tick { flush() }
        }

        func flush() {
            queue.push(batch)
            batch.removeAll(keepingCapacity: true)
            oldest = nil
        }
    }
}
