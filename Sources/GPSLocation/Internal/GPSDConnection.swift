import LocateFormats
import LocateSupport

/// One connection to gpsd, on a socket of the library's own: the name lookup, a connect that
/// never blocks, `?WATCH` (and `?POLL;`) in one write, then lines read as they arrive and
/// decoded by libgps. Nothing here waits: the owner's poll loop asks `pollRequest` what to wait
/// for, and calls `advance` when it came, so a stop or a deadline is never stuck behind a
/// `connect()` or a resolver. Closing is closing the socket: gpsd ends the watch with it, and
/// nothing is ever written to a connection that may be dead (no SIGPIPE, no `EPIPE`).
///
/// - Important: not thread-safe and deliberately not `Sendable`: created, used and closed on
///   its owner's thread.
final class GPSDConnection {
    /// Where the connection is after `advance`.
    enum Progress: Equatable {
        /// Still looking up the name or connecting.
        case connecting
        /// Connected just now, and the WATCH is sent.
        case connected
        /// Connected and watching.
        case open
        /// The connection could not be made.
        case failed(GPSLocationError)
        /// gpsd closed the connection, or reading it failed.
        case closed
    }

    private enum State {
        case lookingUp(NameLookup)
        case connecting(socket: Int32, remaining: ArraySlice<TCPSocket.Address>)
        case open(socket: Int32)
        case closed
    }

    /// gpsd caps one message at 10,240 bytes (`GPS_JSON_RESPONSE_MAX`); a line longer than the
    /// buffer is not gpsd's, and is skipped whole.
    static let bufferSize = 64 * 1024
    /// The buffer's first size: a single request's replies fit, and the buffer doubles (up to
    /// `bufferSize`) each time a read fills it, so a busy stream soon reads 64 KiB at a time
    /// while a `--once` never touches (and keeps resident) the rest.
    static let initialBufferSize = 4 * 1024

    /// What the connection asks gpsd for.
    enum Watch: Equatable {
        /// Positions, as JSON; `poll` asks gpsd for its current fix right after the WATCH.
        case positions(poll: Bool)
        /// Everything gpsd tells its watchers, for a relay (`GPSDRelay`): JSON with the timing
        /// keys, the receiver's sentences, and the PPS reports; each line is kept as it came.
        case relay
    }

    let endpoint: GPSDEndpoint
    private let relays: Bool
    private let command: [UInt8]
    private var state: State
    private let decoder = GPSDMessageDecoder()
    /// What was read and not yet decoded, with a byte to spare beyond its capacity.
    private var buffer = [UInt8](repeating: 0, count: initialBufferSize + 1)
    private var filled = 0
    private var skippingLongLine = false
    /// Whether a relay asked gpsd for its receivers again since the list last changed: the
    /// answer to the WATCH lists them before their first fix (without the flags a fix sets), so
    /// the first fix after it asks again, and so does the first after a receiver came or went.
    private var hasAskedForDevices = false

    /// Starts connecting to `endpoint`, to watch as `watch` says.
    init(endpoint: GPSDEndpoint, watch: Watch) {
        self.endpoint = endpoint
        var change = WatchChange(json: true, device: endpoint.device)
        if watch == .relay { (change.nmea, change.timing, change.pps) = (true, true, true) }
        relays = watch == .relay
        let poll = watch == .positions(poll: true) ? GPSDRequest.text(.poll) : ""
        command = Array((GPSDRequest.text(watch: change) + poll + "\n").utf8)
        state = .closed
        if endpoint.host == "localhost" || TCPSocket.isNumeric(endpoint.host) {
            // No resolver involved (localhost is in /etc/hosts), so no thread for it.
            state = start(TCPSocket.addresses(host: endpoint.host, port: endpoint.port))
        } else if let lookup = NameLookup(host: endpoint.host, port: endpoint.port) {
            state = .lookingUp(lookup)
        } else {
            state = start(.failure(LookupError(reason: "out of descriptors or threads")))
        }
    }

    deinit {
        close()
    }

    /// The descriptor to poll and the events to wait for, or `nil` when the connection has failed or closed.
    var pollRequest: PollRequest? {
        switch state {
        case .lookingUp(let lookup): .reading(lookup.descriptor)
        case .connecting(let socket, _): .writing(socket)
        case .open(let socket): .reading(socket)
        case .closed: nil
        }
    }

    /// Whether the first failure is already known (a name that does not resolve, a refused
    /// local port), so the owner need not wait for a poll to learn it.
    private(set) var immediateFailure: GPSLocationError?

    /// Moves on after `revents` arrived on `pollRequest`'s descriptor, appending what gpsd
    /// sent (decoded) to `reports`, and, for a relay, every line as it came to `messages`.
    func advance(_ revents: PollEvents, reports: inout [GPSDReport], messages: inout [GPSDMessage]) -> Progress {
        if let immediateFailure { return .failed(immediateFailure) }
        guard !revents.isEmpty else {
            if case .open = state { return .open }
            if case .closed = state { return .closed }
            return .connecting
        }
        switch state {
        case .lookingUp(let lookup):
            guard let addresses = lookup.addresses else { return .connecting }
            state = start(addresses)
            if let immediateFailure { return .failed(immediateFailure) }
            return .connecting
        case .connecting(let socket, let remaining):
            let error = TCPSocket.pendingError(socket)
            guard error == 0 else {
                TCPSocket.close(socket)
                state = connect(remaining, lastError: SystemError(code: error))
                if let immediateFailure { return .failed(immediateFailure) }
                return .connecting
            }
            if let sendError = TCPSocket.send(socket, command) {
                TCPSocket.close(socket)
                state = .closed
                return .failed(.gpsdUnreachable(endpoint: endpoint, reason: "cannot send WATCH: " + SystemError(code: sendError).reason))
            }
            state = .open(socket: socket)
            return .connected
        case .open(let socket):
            return read(socket, reports: &reports, messages: &messages)
        case .closed:
            return .closed
        }
    }

    /// Closes the socket; safe to call more than once.
    func close() {
        switch state {
        case .connecting(let socket, _), .open(let socket): TCPSocket.close(socket)
        case .lookingUp, .closed: break
        }
        state = .closed
    }

    // MARK: - Connecting

    private func start(_ lookup: Result<[TCPSocket.Address], LookupError>) -> State {
        switch lookup {
        case .success(let addresses):
            return connect(addresses[...], lastError: .connectionRefused)
        case .failure(let error):
            immediateFailure = .gpsdUnreachable(
                endpoint: endpoint, reason: "cannot look up \(endpoint.host), taken as gpsd's host name: \(error.reason)")
            return .closed
        }
    }

    /// Starts connecting to the first address that takes a connection attempt.
    private func connect(_ addresses: ArraySlice<TCPSocket.Address>, lastError: SystemError) -> State {
        var lastError = lastError
        for (index, address) in zip(addresses.indices, addresses) {
            switch TCPSocket.startConnect(address) {
            case .success(let socket): return .connecting(socket: socket, remaining: addresses[(index + 1)...])
            case .failure(let error): lastError = error
            }
        }
        immediateFailure = .gpsdUnreachable(endpoint: endpoint, reason: lastError.reason)
        return .closed
    }

    // MARK: - Reading

    /// Reads what has arrived and decodes every complete line.
    private func read(_ socket: Int32, reports: inout [GPSDReport], messages: inout [GPSDMessage]) -> Progress {
        let capacity = buffer.count - 1
        let count: Int
        switch TCPSocket.receive(socket, into: &buffer, from: filled, limit: capacity) {
        case .bytes(let received): count = received
        case .nothing: return .open
        case .closed:
            close()
            return .closed
        }
        let scanFrom = filled
        filled += count
        let filledTheBuffer = filled == capacity
        var lineStart = 0
        var index = scanFrom
        while index < filled {
            if buffer[index] == UInt8(ascii: "\n") {
                if skippingLongLine {
                    skippingLongLine = false
                } else {
                    let end = index > lineStart && buffer[index - 1] == UInt8(ascii: "\r") ? index - 1 : index
                    if end > lineStart {
                        if relays {
                            relay(lineStart..<end, reports: &reports, messages: &messages)
                        } else {
                            reports.append(decoder.decode(&buffer, lineStart..<end))
                        }
                    }
                }
                lineStart = index + 1
            }
            index += 1
        }
        if lineStart > 0 {
            let rest = filled - lineStart
            // In place: a slice of the buffer as the source would share its storage, and so
            // copy all 64 KiB of it at every read.
            for offset in 0..<rest { buffer[offset] = buffer[lineStart + offset] }
            filled = rest
        } else if filled == Self.bufferSize {
            // No line end in a full buffer: not a message of gpsd's. Skip it to its end.
            skippingLongLine = true
            filled = 0
        }
        if filledTheBuffer, capacity < Self.bufferSize {
            // More may be waiting, or a line is longer than the buffer so far.
            buffer += repeatElement(0, count: min(capacity, Self.bufferSize - capacity))
        }
        return .open
    }

    /// A relay's line: a JSON report (decoded, so that the link sees fixes and errors and the
    /// relay has the fix) or a sentence of the receiver's, kept as it came.
    private func relay(_ range: Range<Int>, reports: inout [GPSDReport], messages: inout [GPSDMessage]) {
        let bytes = Array(buffer[range])
        guard buffer[range.lowerBound] == UInt8(ascii: "{") else {
            if let first = bytes.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!") {
                messages.append(GPSDMessage(kind: .sentence, device: nil, bytes: bytes))
            }
            return
        }
        let report = decoder.decode(&buffer, range)
        reports.append(report)
        guard let message = GPSDMessage(json: bytes, report: report) else { return }
        messages.append(message)
        switch message.kind {
        case .device:
            hasAskedForDevices = false
        case .fix where !hasAskedForDevices:
            hasAskedForDevices = true
            // A request of a few bytes on a connection that reads: it goes at once, or not at all.
            if case .open(let socket) = state {
                _ = ServerSocket.sendSome(socket, Array((GPSDRequest.text(.devices) + "\n").utf8), from: 0)
            }
        default:
            break
        }
    }
}
