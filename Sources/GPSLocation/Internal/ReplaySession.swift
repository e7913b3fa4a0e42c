/// The producer side of a live stream over a ``ReplayTrack``, run by one dedicated thread: it
/// hands the track's fixes to the queue at `speed` times the pace of their receiver times (as
/// fast as the consumer takes them at speed 0, or between fixes without a time), and ends the
/// stream after the last one.
///
/// It waits in `poll` on its wake-up, like the gpsd session: for a fix's time to come, or for
/// the consumer to make room in a full queue (a replay waits for its consumer, it never drops),
/// or to go away.
final class ReplaySession: Sendable {
    private let locations: [Location]
    private let speed: Double
    private let queue: LiveUpdateQueue
    private let wakeUp: WakeUp
    private let generation: Int

    /// Starts a session on its own thread; its fixes are tagged with `generation`.
    static func start(track: ReplayTrack, speed: Double, queue: LiveUpdateQueue, wakeUp: WakeUp, generation: Int) {
        let session = ReplaySession(locations: track.locations, speed: speed, queue: queue, wakeUp: wakeUp, generation: generation)
        if !DedicatedThread.start({ session.run() }) {
            queue.finish(throwing: .cancelled)
        }
    }

    private init(locations: [Location], speed: Double, queue: LiveUpdateQueue, wakeUp: WakeUp, generation: Int) {
        self.locations = locations
        self.speed = speed.isFinite && speed > 0 ? speed : 0
        self.queue = queue
        self.wakeUp = wakeUp
        self.generation = generation
    }

    /// How often a waiting session looks at its queue even without a wake-up.
    private static let tick = Duration.milliseconds(200)
    /// The most fixes handed over in one go when nothing paces them.
    private static let batch = 256

    private func run() {
        var wait = EventWait(wakeUp: wakeUp)
        let started = ContinuousClock.now
        let firstTime = locations.lazy.compactMap(\.time).first
        var batch: [QueuedUpdate] = []
        var index = 0
        while index < locations.count, !queue.isCancelled {
            let location = locations[index]
            if speed > 0, let firstTime, let time = location.time {
                let offset = max(0, time.timeIntervalSince(firstTime)) / speed
                let due = started.advanced(by: .milliseconds(Int64(min(offset, 1e12) * 1000)))
                if ContinuousClock.now < due {
                    queue.push(batch)
                    batch.removeAll(keepingCapacity: true)
                    wait.wait(for: nil, until: min(due, .now.advanced(by: Self.tick)))
                    continue
                }
            }
            if queue.isFull {
                queue.push(batch)
                batch.removeAll(keepingCapacity: true)
                wait.wait(for: nil, until: .now.advanced(by: Self.tick))
                continue
            }
            var replayed = location
            replayed.source = .replay
            batch.append(.fix(replayed, generation: generation))
            if batch.count >= Self.batch || speed > 0 {
                queue.push(batch)
                batch.removeAll(keepingCapacity: true)
            }
            index += 1
        }
        queue.push(batch)
        queue.finish(throwing: nil)
    }
}
