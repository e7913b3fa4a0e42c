import Dispatch
import Glibc

/// Runs a gpsd session on a dedicated thread and delivers what it reads.
///
/// libgps blocks (in `connect()` and in `gps_waiting`), so the session never runs on Swift's
/// cooperative pool: each reader gets its own serial dispatch queue, whose work item keeps one
/// thread for the reader's whole life. The session is created, used and closed on that thread;
/// only `Sendable` values leave it. `stop()` sets a flag the thread checks between waits of at
/// most `waitSlice`.
final class GPSDReader: Sendable {
    /// What the reader delivers.
    enum Event: Sendable, Hashable {
        /// A message from gpsd.
        case report(GPSDReport)
        /// gpsd went away; the reader reconnects, first after `retryIn`.
        case lost(retryIn: Duration)
        /// The reader is connected and watching again after a loss.
        case reconnected
        /// The plan's deadline passed; the reader ends after this event.
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
    }

    /// The longest the thread waits in one `gps_waiting` call: the bound on stop latency.
    static let waitSlice = Duration.milliseconds(100)

    private let stopped = Flag()

    /// Starts the reader thread. `deliver` gets each event and `finish` is called once at the
    /// end, with the error that ended the reader or `nil`; both run on the reader's thread (or a
    /// timer's). The first connection must succeed within the configuration's connect timeout.
    init(_ plan: Plan, deliver: @escaping @Sendable (Event) -> Void, finish: @escaping @Sendable ((any Error)?) -> Void) {
        let stopped = self.stopped
        let connected = Flag()
        let finished = Flag()
        let finishOnce: @Sendable ((any Error)?) -> Void = { error in
            guard !finished.isSet else { return }
            finished.set()
            finish(error)
        }
        let configuration = plan.configuration
        let connectTimeout = plan.deadline.map {
            min(configuration.connectTimeout, max(.zero, ContinuousClock.now.duration(to: $0)))
        } ?? configuration.connectTimeout
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(clamping: connectTimeout.milliseconds))) {
            guard !connected.isSet, !stopped.isSet else { return }
            stopped.set()
            finishOnce(GPSLocationError.connectTimedOut(configuration.endpoint, connectTimeout.seconds))
        }
        DispatchQueue(label: "locate.gpsd-reader").async {
            Self.run(plan, stopped: stopped, connected: connected, deliver: { event in
                if !finished.isSet { deliver(event) }
            }, finish: finishOnce)
        }
    }

    /// Stops the reader; it closes its connection within `waitSlice`.
    func stop() {
        stopped.set()
    }

    /// A reader whose events come as an async stream; ending the iteration stops the reader.
    static func events(_ plan: Plan) -> AsyncThrowingStream<Event, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Event.self)
        let reader = GPSDReader(plan, deliver: { continuation.yield($0) }, finish: { continuation.finish(throwing: $0) })
        continuation.onTermination = { _ in reader.stop() }
        return stream
    }

    private static func run(
        _ plan: Plan, stopped: Flag, connected: Flag,
        deliver: @Sendable (Event) -> Void, finish: @Sendable ((any Error)?) -> Void
    ) {
        var session: GPSDSession
        do {
            session = try connect(plan)
        } catch {
            finish(error)
            return
        }
        connected.set()
        // The back-off grows across losses until gpsd reports a fix state again, so a gpsd that
        // accepts and hangs up at once is not hammered every quarter second.
        var delay = plan.configuration.reconnectDelay
        while !stopped.isSet {
            var slice = waitSlice
            if let deadline = plan.deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                if remaining <= .zero {
                    deliver(.deadlineReached)
                    break
                }
                slice = min(slice, remaining)
            }
            guard session.waitForData(timeout: slice) else { continue }
            switch session.read() {
            case .report(let report):
                if report.isFixState { delay = plan.configuration.reconnectDelay }
                deliver(.report(report))
            case .nothing:
                continue
            case .closed, .failed:
                session.close()
                guard plan.reconnect else {
                    finish(GPSLocationError.gpsdClosedConnection(plan.configuration.endpoint))
                    return
                }
                guard let replacement = reconnect(plan, delay: &delay, stopped: stopped, deliver: deliver) else { break }
                session = replacement
                deliver(.reconnected)
            }
        }
        session.close()
        finish(nil)
    }

    private static func connect(_ plan: Plan) throws(GPSLocationError) -> GPSDSession {
        let session = try GPSDSession(endpoint: plan.configuration.endpoint)
        try session.watch(poll: plan.poll)
        return session
    }

    /// Reopens the connection with capped exponential back-off until it works or the reader stops;
    /// `delay` is the first wait, and is left at the next one.
    private static func reconnect(_ plan: Plan, delay: inout Duration, stopped: Flag, deliver: @Sendable (Event) -> Void) -> GPSDSession? {
        deliver(.lost(retryIn: delay))
        defer { delay = min(delay * 2, plan.configuration.maximumReconnectDelay) }
        while !stopped.isSet {
            let wakeUp = ContinuousClock.now.advanced(by: delay)
            while !stopped.isSet, ContinuousClock.now < wakeUp {
                usleep(UInt32(min(waitSlice, ContinuousClock.now.duration(to: wakeUp)).milliseconds * 1000))
            }
            if stopped.isSet { return nil }
            if let session = try? connect(plan) { return session }
            delay = min(delay * 2, plan.configuration.maximumReconnectDelay)
        }
        return nil
    }
}
