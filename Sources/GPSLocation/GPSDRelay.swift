import LocateFormats
import LocateSupport
import Synchronization

/// One line gpsd sent, as it sent it (without its line end): a report of gpsd's JSON protocol or
/// a sentence of the receiver's, for a host that serves gpsd's own clients (``GPSDRelay``).
package struct GPSDMessage: Sendable, Hashable {
    /// What the line is.
    package enum Kind: Sendable, Hashable {
        /// VERSION: gpsd's banner.
        case version
        /// DEVICES: the receivers gpsd knows.
        case devices
        /// DEVICE: a receiver gpsd started or stopped using, or identified.
        case device
        /// WATCH: gpsd's answer to the relay's own watch.
        case watch
        /// ERROR: gpsd refused a request of the relay's.
        case error
        /// A TPV with a position, and the position.
        case fix(Location)
        /// A TPV without a position (the receiver has no fix).
        case noFix
        /// SKY: the satellites in view and the dilutions.
        case sky
        /// GST: the receiver's error estimates.
        case gst
        /// TOFF or PPS: the receiver's time against the system clock.
        case timing
        /// Any other report (ATT, AIS, ...).
        case other
        /// An NMEA sentence of the receiver's (or gpsd's NMEA of a binary receiver).
        case sentence
    }

    /// What the line is.
    package let kind: Kind
    /// The receiver the report names (`"device"`, gpsd's path), if it names one; a sentence names none.
    package let device: String?
    /// The line, without its line end.
    package let bytes: [UInt8]

    /// Whether the line tells anything of where the receiver is, or of its fix: everything but
    /// gpsd's banner, its lists of receivers, and its answers to the relay.
    package var isPositional: Bool {
        switch kind {
        case .version, .devices, .device, .watch, .error: false
        case .fix, .noFix, .sky, .gst, .timing, .other, .sentence: true
        }
    }

    /// A message as gpsd would send it (for a host's tests, or a relay of its own).
    package init(kind: Kind, device: String?, bytes: [UInt8]) {
        self.kind = kind
        self.device = device
        self.bytes = bytes
    }

    /// A JSON report gpsd sent, which libgps decoded as `report`; `nil` for one without a class.
    init?(json bytes: [UInt8], report: GPSDReport) {
        guard let head = GPSDReports.head(bytes) else { return nil }
        let kind: Kind
        switch head.name {
        case .version?: kind = .version
        case .devices?: kind = .devices
        case .device?: kind = .device
        case .watch?: kind = .watch
        case .error?: kind = .error
        case .tpv?:
            if case .fix(let location) = report { kind = .fix(location) } else { kind = .noFix }
        case .sky?: kind = .sky
        case .gst?: kind = .gst
        case .toff?, .pps?: kind = .timing
        case .poll?, .att?, nil: kind = .other
        }
        self.init(kind: kind, device: head.device, bytes: bytes)
    }
}

/// gpsd's messages as gpsd writes them, for a host that serves gpsd's own clients (`locate
/// serve`): every report and every sentence of the receiver's, each line as it came, with the
/// fix of each TPV decoded, so that the host gives each of its clients what that client's own
/// ``DeliveryGate`` lets out and nothing is lost in a translation.
///
/// A thread of the relay's own keeps one connection to gpsd, watching everything gpsd tells a
/// watcher (JSON with the timing keys, the receiver's sentences, the PPS reports), and connects
/// again with back-off when gpsd goes away. The host polls ``descriptor`` in its own loop and
/// takes what arrived with ``take()``; a host that falls behind loses the oldest messages
/// (counted), never memory without bound.
///
/// The relay follows its own authorization source as a daemon (without a terminal): positional
/// messages (``GPSDMessage/isPositional``) pass only while it authorizes `always` at full
/// accuracy, for the relay applies no reduction of its own.
package final class GPSDRelay: Sendable {
    /// What the relay has to say.
    package enum Event: Sendable, Hashable {
        /// A line from gpsd.
        case message(GPSDMessage)
        /// gpsd went away; the relay connects again after `retryIn`.
        case lost(retryIn: Duration)
        /// Connected and watching again after a loss.
        case reconnected
        /// The relay is over: its source's decision can no longer be known.
        case failed(GPSLocationError)
    }

    /// How many events wait for the host at most; beyond, the oldest are dropped.
    package static let queueLimit = 1024

    private struct Queue {
        var events: [Event] = []
        var dropped = 0
    }

    private let queue = Mutex(Queue())
    private let consumerWakeUp: WakeUp
    private let loop: LoopThread

    /// Starts relaying from gpsd at `configuration`'s endpoint.
    /// - Throws: ``GPSLocationError/gpsdUnreachable(endpoint:reason:)`` when the relay's thread or
    ///   its wake-ups cannot be had (no descriptors or threads left).
    package init(configuration: GPSLocationConfiguration, authorizationSource source: any AuthorizationSource) throws(GPSLocationError) {
        guard let consumerWakeUp = WakeUp(), let loop = LoopThread() else {
            throw .gpsdUnreachable(endpoint: configuration.endpoint, reason: "out of file descriptors")
        }
        self.consumerWakeUp = consumerWakeUp
        self.loop = loop
        let started = loop.start { [self] wait in
            RelaySession(configuration: configuration, source: source, wakeUp: loop.wakeUp).run(self, waiting: &wait)
        }
        guard started else { throw .gpsdUnreachable(endpoint: configuration.endpoint, reason: "cannot start a thread") }
    }

    deinit {
        stop()
    }

    /// A descriptor that is readable while events wait: poll it for `POLLIN`.
    package var descriptor: Int32 { consumerWakeUp.descriptor }

    /// The events that arrived since the last take, oldest first, and how many older ones were
    /// dropped because the host did not take them in time.
    package func take() -> (events: [Event], dropped: Int) {
        consumerWakeUp.clear()
        return queue.withLock { queue in
            defer { queue = Queue() }
            return (queue.events, queue.dropped)
        }
    }

    /// Stops relaying and closes the connection to gpsd; safe to call more than once.
    package func stop() {
        loop.stop()
    }

    var isStopped: Bool { loop.isStopped }

    /// Hands `events` to the host (the relay's thread).
    func push(_ events: [Event]) {
        guard !events.isEmpty else { return }
        queue.withLock { queue in
            queue.events += events
            let excess = queue.events.count - Self.queueLimit
            if excess > 0 {
                queue.events.removeFirst(excess)
                queue.dropped += excess
            }
        }
        consumerWakeUp.signal()
    }
}

/// The relay's thread: one `GPSDLink` watching everything, and the source's decisions.
private struct RelaySession {
    let configuration: GPSLocationConfiguration
    let source: any AuthorizationSource
    let wakeUp: WakeUp

    /// Relays until `relay` is stopped, waiting on the relay's wake-up (which the source's
    /// decisions signal too).
    func run(_ relay: GPSDRelay, waiting wait: inout EventWait) {
        let follower = DecisionFollower(source, wakeUp: wakeUp)
        var link = GPSDLink(configuration: configuration, watch: .relay, reconnects: .always, now: .now)
        defer { link.close() }
        var decision = (try? source.currentDecision()) ?? AuthorizationDecision(status: .denied)
        var events: [GPSDLink.Event] = []
        var out: [GPSDRelay.Event] = []
        while !relay.isStopped {
            let revents = wait.wait(for: link.pollRequest, until: link.nextDeadline ?? .now.advanced(by: EventWait.tick))
            if relay.isStopped { break }
            switch follower.take() {
            case .success(let newDecision)?:
                decision = newDecision
            case .failure(let error)?:
                relay.push([.failed(error)])
                return
            case nil:
                break
            }
            let authorization = Authorization(decision: decision, appState: .unattended)
            let passesPositions = authorization.isAuthorized && authorization.accuracy == .fullAccuracy
            events.removeAll(keepingCapacity: true)
            link.advance(revents, now: .now, events: &events)
            out.removeAll(keepingCapacity: true)
            for event in events {
                switch event {
                case .message(let message):
                    if passesPositions || !message.isPositional { out.append(.message(message)) }
                case .lost(let retryIn): out.append(.lost(retryIn: retryIn))
                case .reconnected: out.append(.reconnected)
                case .failed, .report: break
                }
            }
            relay.push(out)
        }
    }
}
