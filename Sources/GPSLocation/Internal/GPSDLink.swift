import LocateSupport

/// gpsd as a reader needs it, over `GPSDConnection`s: every connection attempt has a deadline,
/// and when gpsd goes away a live stream connects again with capped exponential back-off, while
/// a single request ends. Driven by its owner's poll loop, like a connection.
///
/// - Important: not thread-safe: used on its owner's thread.
struct GPSDLink {
    /// What the link has to say after `advance`.
    enum Event: Equatable {
        /// A message from gpsd.
        case report(GPSDReport)
        /// gpsd went away; the link connects again after `retryIn`.
        case lost(retryIn: Duration)
        /// Connected and watching again after a loss.
        case reconnected
        /// The link is over: the first connection failed, or (without reconnecting) gpsd went away.
        case failed(GPSLocationError)
    }

    private enum State {
        case connecting(GPSDConnection, deadline: ContinuousClock.Instant)
        case open(GPSDConnection)
        case waiting(until: ContinuousClock.Instant)
        case failed
    }

    private let configuration: GPSLocationConfiguration
    private let poll: Bool
    private let reconnects: Bool
    private let connectTimeout: Duration
    private var state: State
    private var hasConnected = false
    /// The next wait before connecting again. It grows across losses until gpsd reports a fix
    /// state again, so a gpsd that accepts and hangs up at once is not hammered.
    private var delay: Duration

    /// Starts connecting.
    /// - Parameters:
    ///   - poll: ask gpsd for its current fix (`?POLL;`) with every WATCH.
    ///   - reconnects: connect again when gpsd goes away (a live stream) instead of failing.
    ///   - connectTimeout: the bound on each attempt; the configuration's when `nil`.
    init(
        configuration: GPSLocationConfiguration, poll: Bool, reconnects: Bool, connectTimeout: Duration? = nil, now: ContinuousClock.Instant
    ) {
        self.configuration = configuration
        self.poll = poll
        self.reconnects = reconnects
        self.connectTimeout = (connectTimeout ?? configuration.connectTimeout).boundedForWaiting
        delay = configuration.reconnectDelay.boundedForWaiting
        state = .failed
        state = attempt(now: now)
    }

    /// The descriptor to poll and the events to wait for, if any.
    var pollRequest: PollRequest? {
        switch state {
        case .connecting(let connection, _), .open(let connection): connection.pollRequest
        case .waiting, .failed: nil
        }
    }

    /// When the link next needs `advance` even if nothing arrives: a connect deadline or a retry time.
    var nextDeadline: ContinuousClock.Instant? {
        switch state {
        case .connecting(_, let deadline): deadline
        case .waiting(let until): until
        case .open, .failed: nil
        }
    }

    /// Whether the link is connected and watching.
    var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// Moves on after `revents` arrived on `pollRequest`'s descriptor (`.none` when nothing did) at `now`.
    mutating func advance(_ revents: PollEvents, now: ContinuousClock.Instant, events: inout [Event]) {
        switch state {
        case .connecting(let connection, let deadline):
            var reports: [GPSDReport] = []
            switch connection.advance(revents, reports: &reports) {
            case .connected:
                state = .open(connection)
                if hasConnected { events.append(.reconnected) }
                hasConnected = true
            case .failed(let error):
                attemptFailed(error, now: now, events: &events)
            case .connecting where now >= deadline:
                connection.close()
                attemptFailed(.connectTimedOut(endpoint: configuration.endpoint, timeout: connectTimeout), now: now, events: &events)
            case .connecting, .open, .closed:
                break
            }
        case .open(let connection):
            var reports: [GPSDReport] = []
            let progress = connection.advance(revents, reports: &reports)
            for report in reports {
                if report.isFixState { delay = configuration.reconnectDelay.boundedForWaiting }
                events.append(.report(report))
            }
            if progress == .closed { lost(now: now, events: &events) }
        case .waiting(let until):
            if now >= until { state = attempt(now: now) }
        case .failed:
            break
        }
    }

    /// Closes the connection, if there is one.
    mutating func close() {
        switch state {
        case .connecting(let connection, _), .open(let connection): connection.close()
        case .waiting, .failed: break
        }
        state = .failed
    }

    private func attempt(now: ContinuousClock.Instant) -> State {
        .connecting(GPSDConnection(endpoint: configuration.endpoint, poll: poll), deadline: now.advanced(by: connectTimeout))
    }

    private mutating func attemptFailed(_ error: GPSLocationError, now: ContinuousClock.Instant, events: inout [Event]) {
        guard hasConnected, reconnects else {
            state = .failed
            events.append(.failed(error))
            return
        }
        // Already reported lost: wait longer, silently, and try again.
        state = .waiting(until: now.advanced(by: delay))
        delay = min(delay * 2, configuration.maximumReconnectDelay.boundedForWaiting)
    }

    private mutating func lost(now: ContinuousClock.Instant, events: inout [Event]) {
        guard reconnects else {
            state = .failed
            events.append(.failed(.gpsdClosedConnection(endpoint: configuration.endpoint)))
            return
        }
        events.append(.lost(retryIn: delay))
        state = .waiting(until: now.advanced(by: delay))
        delay = min(delay * 2, configuration.maximumReconnectDelay.boundedForWaiting)
    }
}
