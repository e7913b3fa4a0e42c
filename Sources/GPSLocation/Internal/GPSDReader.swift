import Dispatch
import Synchronization
import Glibc

/// Runs a gpsd session on a dedicated thread and delivers what it reads as an async stream.
///
/// libgps blocks (in `connect()` and in `gps_waiting`), so the session never runs on Swift's
/// cooperative pool: each stream gets its own serial dispatch queue, whose work item keeps one
/// thread for the stream's whole life. The session is created, used and closed on that thread;
/// only `Sendable` values cross to the consumer. Ending the stream (the consumer stops iterating
/// or is cancelled) sets a flag the thread checks between waits of at most `waitSlice`.
enum GPSDReader {
    /// One element of the reader's stream.
    enum Event: Sendable, Hashable {
        /// A message from gpsd.
        case report(GPSDReport)
        /// gpsd went away; the reader reconnects, first after `retryIn`.
        case lost(retryIn: Duration)
        /// The reader is connected and watching again after a loss.
        case reconnected
        /// The plan's deadline passed; the stream ends after this event.
        case deadlineReached
    }

    /// What the reader is asked to do.
    struct Plan: Sendable {
        var configuration: GPSLocationConfiguration
        /// Ask gpsd for its current fix (`?POLL;`) right after WATCH.
        var poll: Bool
        /// Reconnect when gpsd goes away (a live stream) instead of ending with an error (a single fix).
        var reconnect: Bool
        /// When to stop waiting, with a final `deadlineReached`.
        var deadline: ContinuousClock.Instant?
        /// How the stream buffers when its consumer is slower than gpsd.
        var buffering: AsyncThrowingStream<Event, any Error>.Continuation.BufferingPolicy
    }

    /// The longest the thread waits in one `gps_waiting` call: the bound on cancellation latency.
    static let waitSlice = Duration.milliseconds(100)

    /// Starts the reader thread and returns its events. The first connection attempt must succeed
    /// within the configuration's connect timeout, or the stream ends with that error.
    static func events(_ plan: Plan) -> AsyncThrowingStream<Event, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Event.self, bufferingPolicy: plan.buffering)
        let stopped = Flag()
        let connected = Flag()
        continuation.onTermination = { _ in stopped.set() }
        let configuration = plan.configuration
        let connectTimeout = plan.deadline.map {
            min(configuration.connectTimeout, max(.zero, ContinuousClock.now.duration(to: $0)))
        } ?? configuration.connectTimeout
        DispatchQueue.global().asyncAfter(deadline: .now() + connectTimeout.dispatchInterval) {
            guard !connected.isSet else { return }
            stopped.set()
            continuation.finish(throwing: GPSLocationError.connectTimedOut(configuration.endpoint, connectTimeout.seconds))
        }
        DispatchQueue(label: "locate.gpsd-reader").async {
            run(plan, continuation: continuation, stopped: stopped, connected: connected)
        }
        return stream
    }

    private static func run(
        _ plan: Plan,
        continuation: AsyncThrowingStream<Event, any Error>.Continuation,
        stopped: Flag,
        connected: Flag
    ) {
        var session: GPSDSession
        do {
            session = try connect(plan)
        } catch {
            continuation.finish(throwing: error)
            return
        }
        connected.set()
        while !stopped.isSet {
            var slice = waitSlice
            if let deadline = plan.deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                if remaining <= .zero {
                    continuation.yield(.deadlineReached)
                    break
                }
                slice = min(slice, remaining)
            }
            guard session.waitForData(timeout: slice) else { continue }
            switch session.read() {
            case .report(let report):
                continuation.yield(.report(report))
            case .nothing:
                continue
            case .closed, .failed:
                session.close()
                guard plan.reconnect else {
                    continuation.finish(throwing: GPSLocationError.gpsdClosedConnection(plan.configuration.endpoint))
                    return
                }
                guard let replacement = reconnect(plan, continuation: continuation, stopped: stopped) else { break }
                session = replacement
                continuation.yield(.reconnected)
            }
        }
        session.close()
        continuation.finish()
    }

    private static func connect(_ plan: Plan) throws(GPSLocationError) -> GPSDSession {
        let session = try GPSDSession(endpoint: plan.configuration.endpoint)
        try session.watch(poll: plan.poll)
        return session
    }

    /// Reopens the connection with capped exponential back-off until it works or the stream ends.
    private static func reconnect(
        _ plan: Plan,
        continuation: AsyncThrowingStream<Event, any Error>.Continuation,
        stopped: Flag
    ) -> GPSDSession? {
        var delay = plan.configuration.reconnectDelay
        continuation.yield(.lost(retryIn: delay))
        while !stopped.isSet {
            let wakeUp = ContinuousClock.now.advanced(by: delay)
            while !stopped.isSet, ContinuousClock.now < wakeUp {
                usleep(UInt32(min(waitSlice, ContinuousClock.now.duration(to: wakeUp)).microseconds))
            }
            if stopped.isSet { return nil }
            if let session = try? connect(plan) { return session }
            delay = min(delay * 2, plan.configuration.maximumReconnectDelay)
        }
        return nil
    }
}

/// A flag that one thread sets and others read.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}

extension Duration {
    /// Whole microseconds, never negative.
    var microseconds: Int64 {
        max(0, components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000)
    }

    var dispatchInterval: DispatchTimeInterval {
        .microseconds(Int(clamping: microseconds))
    }
}
