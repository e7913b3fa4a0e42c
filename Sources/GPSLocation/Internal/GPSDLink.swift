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
        /// A line as gpsd sent it, on a relay's link.
        case message(GPSDMessage)
    }

    private enum State {
        case connecting(GPSDConnection, deadline: ContinuousClock.Instant)
        case open(GPSDConnection)
        case waiting(until: ContinuousClock.Instant)
        case failed
    }

    private let configuration: GPSLocationConfiguration
    private let watch: GPSDConnection.Watch
    private let reconnects: Reconnection
    private let connectTimeout: Duration
    private var state: State
    private var hasConnected = false
    /// Whether a first connection failed (with `.always`, said once).
    private var hasFailed = false
    /// The next wait before connecting again. It grows across losses until gpsd reports a fix
    /// state again, so a gpsd that accepts and hangs up at once is not hammered.
    private var delay: Duration

    /// When the link connects again.
    enum Reconnection {
        /// Never: gpsd going away ends the link (a single request).
        case never
        /// Once it has connected: a first connection that fails ends the link (a live stream,
        /// whose caller is told gpsd cannot be reached).
        case afterConnecting
        /// Always, the first connection too (a relay, which serves its clients whether or not
        /// gpsd is there yet).
        case always
    }

    /// Starts connecting.
    /// - Parameters:
    ///   - watch: what each connection asks gpsd for.
    ///   - reconnects: when to connect again after gpsd went away or could not be reached.
    ///   - connectTimeout: the bound on each attempt; the configuration's when `nil`.
    init(
        configuration: GPSLocationConfiguration, watch: GPSDConnection.Watch, reconnects: Reconnection, connectTimeout: Duration? = nil,
        now: ContinuousClock.Instant
    ) {
        self.configuration = configuration
        self.watch = watch
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
            var messages: [GPSDMessage] = []
            switch connection.advance(revents, reports: &reports, messages: &messages) {
            case .connected:
                state = .open(connection)
                if hasConnected || hasFailed { events.append(.reconnected) }
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
            var messages: [GPSDMessage] = []
            let progress = connection.advance(revents, reports: &reports, messages: &messages)
            for report in reports {
                if report.isFixState { delay = configuration.reconnectDelay.boundedForWaiting }
                if watch != .relay { events.append(.report(report)) }
            }
            for message in messages { events.append(.message(message)) }
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
        .connecting(GPSDConnection(endpoint: configuration.endpoint, watch: watch), deadline: now.advanced(by: connectTimeout))
    }

    private mutating func attemptFailed(_ error: GPSLocationError, now: ContinuousClock.Instant, events: inout [Event]) {
        switch reconnects {
        case .never:
            state = .failed
            events.append(.failed(error))
            return
        case .afterConnecting where !hasConnected:
            state = .failed
            events.append(.failed(error))
            return
        case .always where !hasConnected && !hasFailed:
            // Said once, as a loss: the relay's host tells its user gpsd is not there (yet).
            hasFailed = true
            lost(now: now, events: &events)
            return
        case .afterConnecting, .always:
            break
        }
        // Already reported lost: wait longer, silently, and try again.
        state = .waiting(until: now.advanced(by: delay))
        delay = min(delay * 2, configuration.maximumReconnectDelay.boundedForWaiting)
    }

    private mutating func lost(now: ContinuousClock.Instant, events: inout [Event]) {
        guard reconnects != .never else {
            state = .failed
            events.append(.failed(.gpsdClosedConnection(endpoint: configuration.endpoint)))
            return
        }
        events.append(.lost(retryIn: delay))
        state = .waiting(until: now.advanced(by: delay))
        delay = min(delay * 2, configuration.maximumReconnectDelay.boundedForWaiting)
    }
}
