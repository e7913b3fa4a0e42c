import FoundationEssentials
import LocateSupport

/// The producer side of a live stream over a ``ReplayTrack``, run by one dedicated thread: it
/// reads the track as it plays it, hands its fixes to the queue at `speed` times the pace of
/// their receiver times (as fast as the consumer takes them at speed 0, or between fixes
/// without a time), and ends the stream after the last one, or with the track's problem where
/// the reading found one.
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
        var reader: TrackReader
        let deadline = deadline
        do throws(GPSLocationError) {
            reader = try track.makeReader(wakeUp: wakeUp) { queue.isCancelled || deadline.map { ContinuousClock.now >= $0 } ?? false }
        } catch {
            queue.finish(throwing: error)
            return
        }
        var wait = EventWait(wakeUp: wakeUp)
        let started = ContinuousClock.now
        var firstTime: Date?
        var batch: [QueuedUpdate] = []
        var played = 0
        func handOver() {
            queue.push(batch)
            batch.removeAll(keepingCapacity: true)
        }
        while !isOver {
            let next: Location?
            do throws(TrackProblem) {
                next = try reader.next()
            } catch {
                handOver()
                queue.finish(throwing: .invalidTrack(file: track.name, line: error.line, reason: error.reason))
                return
            }
            guard var location = next else { break }
            if speed > 0, let time = location.time {
                let first = firstTime ?? time
                firstTime = first
                let offset = max(0, time.timeIntervalSince(first)) / speed
                let due = started.advanced(by: .milliseconds(Int64(min(offset, 1e12) * 1000)))
                while ContinuousClock.now < due, !isOver {
                    handOver()
                    wait.wait(for: nil, until: min(due, deadline ?? due, .now.advanced(by: EventWait.tick)))
                }
                if isOver { break }
            }
            while queue.isFull, !isOver {
                handOver()
                wait.wait(for: nil, until: .now.advanced(by: EventWait.tick))
            }
            location.source = .replay
            batch.append(.fix(location, generation: generation))
            played += 1
            if batch.count >= Self.batch || speed > 0 { handOver() }
        }
        handOver()
        if played == 0, !isOver {
            queue.finish(throwing: .invalidTrack(file: track.name, line: nil, reason: "has no fix"))
        } else {
            queue.finish(throwing: nil)
        }
    }
}
