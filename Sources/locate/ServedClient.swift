import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import LocateSupport

/// Who a served connection is, as the kernel told it: the user, the process and its
/// executable, and the app whose permission applies (the executable's name; `nil` for
/// `[location]` when the name is no app name, or no process of this user's holds the socket).
/// What a served connection speaks: gpsd's JSON protocol (`--listen`), or plain NMEA 0183
/// sentences with nothing to ask (`--nmea`, as GeoClue's NMEA source and chart plotters read it).
enum ServedProtocol: Sendable, Equatable {
    case gpsd
    case nmea
}

struct ClientIdentity: Sendable, Equatable {
    let uid: UInt32
    let pid: Int32?
    let program: String?
    let app: String?
    /// Why the client is refused whatever the settings say, when it is: a connection whose
    /// program cannot be told, or that processes of different programs hold, could be any
    /// app's, and is served as none (fail closed).
    var refusal: String?

    /// The program's name as messages show it.
    var name: String { app ?? program.map { String($0.split(separator: "/").last ?? "") } ?? "unknown program" }

    /// Whether the client is in use now: the terminal rule, applied to its process.
    var appState: AppState {
        guard let pid, let state = PeerProcess.terminalState(pid) else { return .unattended }
        return state.hasTerminal ? (state.isForeground ? .foreground : .background) : .unattended
    }
}

/// One client of `locate serve`, served on the serve loop's thread only: its requests, its
/// watch policy, its bounded queue of fixes still to be released, and what is written to it.
///
/// Every fix is released through the client's own gate when it is about to be written, and each
/// piece of output made of one is checked again (the generation rule) before its first byte goes
/// out: a revoke holds back everything queued. Nothing is written while the bytes the client has
/// not read (in the kernel, on both ends of the connection) are `inFlightLimit` or more, so that
/// what a revoke cannot take back is a few records; a client that does not read fills only its
/// own queue, which drops the oldest fix (counted); its socket is never waited for.
final class ServedClient {
    let descriptor: Int32
    let identity: ClientIdentity
    let speaks: ServedProtocol
    private let gate: DeliveryGate
    private let explainer: AuthorizationMessages
    private let diagnostics: SocketDiagnostics
    private let pace: ReducedAccuracyPace
    /// The connection's two ends, to find the peer's receive queue (`nil`: a Unix socket).
    private let key: PeerProcess.TCPKey?
    /// Set while the client has `inFlightLimit` unread bytes or more: nothing is written to it.
    private var isHeldBack = false
    /// The sky view of the last SKY report made for the client (one goes out when it changes,
    /// and again after a new watch); empty when none was or the last said the view was gone.
    private var lastSky: (satellites: [Satellite], hdop: Double?) = ([], nil)
    private(set) var policy = WatchPolicy()
    /// Set when the connection is to be closed (the client left, failed or sent a line too long).
    private(set) var isClosed = false
    /// Fixes dropped because the client did not take them in time.
    private(set) var dropped = 0
    /// What the access log says of the client: who, and what it was given.
    private(set) var session: AccessSession

    /// Fixes waiting for their turn, oldest first (at most `queueLimit`).
    private var queue: [Location] = []
    /// A piece of output: its bytes, the release it was made of (`nil` for reports that hold no
    /// position), and whether it was released in the turn that is writing it (then the gate was
    /// asked a moment ago, and is not asked again before its first byte).
    private struct Piece {
        let bytes: [UInt8]
        let release: DeliveryGate.Release?
        var isFresh: Bool
    }

    /// Output not yet sent, and how much of the first piece went out.
    private var pending: [Piece] = []
    private var pendingBytes = 0
    private var sentOfFirst = 0
    private var input: [UInt8] = []
    /// Requests of a line received and not answered yet (their answers would pass `outputLimit`).
    private var unanswered: [GPSDRequest] = []
    /// The denial the client was last told of, so that it is told once per change.
    private var toldDenial: DenialReason?
    private var lastWrite = ContinuousClock.now
    /// When the client's authorization was last looked at, to tell it a new denial.
    private var lastLook: ContinuousClock.Instant?
    /// Until when a client whose request was too long has its input dropped; `nil` while served.
    private var closesAt: ContinuousClock.Instant?

    /// The kernel's send buffer for a client (it doubles this).
    static let socketBuffer: Int32 = 4096
    /// How many bytes the client may have not read before nothing more is written to it. What
    /// the kernel holds (this end's send queue, the peer's receive queue) is beyond the gate's
    /// reach, so it is kept below this: a piece starts only while less is unread, so at most
    /// this plus one piece reaches a client after a revoke (a TPV of about 250 bytes, with its
    /// SKY when the sky view changed: about 60 bytes a satellite); a piece the revoke finds half
    /// written ends the connection, so the rest of it never goes.
    static let inFlightLimit = 512
    /// How long the input of a client whose request was too long is read and dropped before
    /// its connection closes (so that it reads the ERROR before the end, not a reset).
    static let lingering = Duration.seconds(1)
    /// How many fixes wait for a client at most.
    static let queueLimit = 32
    /// How much output may wait for a client before its requests are no longer read or answered.
    static let outputLimit = 16 * 1024
    /// How long a watching client goes without a report before it gets a no-fix TPV (gpxlogger
    /// gives up after 5 s of silence).
    static let keepAlive = Duration.seconds(2)

    init(
        descriptor: Int32, identity: ClientIdentity, speaking speaks: ServedProtocol, gate: DeliveryGate, explainer: AuthorizationMessages,
        diagnostics: SocketDiagnostics, pace: ReducedAccuracyPace
    ) {
        self.descriptor = descriptor
        self.diagnostics = diagnostics
        self.pace = pace
        key = PeerProcess.tcpKey(descriptor)
        self.identity = identity
        self.speaks = speaks
        self.gate = gate
        self.explainer = explainer
        session = AccessSession(app: identity.app, program: identity.program, user: identity.uid, processID: identity.pid, via: "serve")
        switch speaks {
        case .gpsd:
            append(GPSDReports.version)
        case .nmea:
            // Sentences from the start, and nothing else ever: an NMEA reader cannot take a
            // report, and GeoClue gives up its source for good when the connection ends, so a
            // denied client gets silence, not an error or an end.
            policy = WatchPolicy(enabled: true, json: false, nmea: true, device: nil)
        }
    }

    /// Whether the loop should read the client's requests now.
    var wantsInput: Bool { !isClosed && pendingBytes < Self.outputLimit }
    /// Whether output waits for room in the socket.
    var wantsOutput: Bool { !isClosed && !pending.isEmpty && !isHeldBack }

    /// Reads what the client sent and answers its complete requests.
    func readRequests(device: String?, latest: Location?) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        switch TCPSocket.receive(descriptor, into: &buffer, from: 0, limit: buffer.count) {
        case .nothing: return
        case .closed:
            isClosed = true
            return
        case .bytes(let count):
            guard closesAt == nil, speaks == .gpsd else { return }
            input += buffer[..<count]
        }
        answerWaiting(device: device, latest: latest)
    }

    /// Answers the requests received, while less than `outputLimit` waits to be sent: the rest
    /// wait (at most a line's worth, and what was read with it, since nothing more is read meanwhile).
    private func answerWaiting(device: String?, latest: Location?) {
        while pendingBytes < Self.outputLimit, !isClosed, closesAt == nil {
            if !unanswered.isEmpty {
                answer(unanswered.removeFirst(), device: device, latest: latest)
                continue
            }
            // A line, or what came ending in `;` without one (`printf '?POLL;' | nc`), as gpsd
            // takes a segment that ends a request.
            if let end = input.firstIndex(of: UInt8(ascii: "\n")) {
                unanswered = GPSDRequest.parse(line: input[..<end])
                input.removeSubrange(...end)
            } else if input.last == UInt8(ascii: ";") {
                unanswered = GPSDRequest.parse(line: input[...])
                input.removeAll()
            } else {
                break
            }
        }
        if unanswered.isEmpty, !input.contains(UInt8(ascii: "\n")), input.count > GPSDRequest.maximumLine {
            end(saying: "request too long (more than \(GPSDRequest.maximumLine) bytes without a line end)")
        }
    }

    /// Refuses the client before anything is decided for it: the reason (an ERROR, to a gpsd
    /// client) and the end, recorded in its session.
    func refuse(_ reason: String) {
        session.refusal = reason
        end(saying: "\(identity.name): refused: " + reason)
    }

    /// The reason, then the end; what else comes is dropped until the client hangs up or
    /// lingering is over. (The rest of a piece already under way goes out first: no half line
    /// before it.)
    private func end(saying reason: String) {
        queue = []
        pending = sentOfFirst > 0 ? Array(pending.prefix(1)) : []
        pendingBytes = pending.first?.bytes.count ?? 0
        if speaks == .gpsd { append(GPSDReports.error(reason)) }
        input = []
        flush()
        ServerSocket.shutdownSending(descriptor)
        closesAt = .now.advanced(by: Self.lingering)
    }

    private func answer(_ request: GPSDRequest, device: String?, latest: Location?) {
        let now = Date()
        switch request {
        case .watch(let enable, let json, let nmea, let asked):
            if let asked, let device, asked != device {
                append(GPSDReports.error("No such device as \(asked)"))
                return
            }
            if let enable { policy.enabled = enable }
            if let json { policy.json = json }
            if let nmea { policy.nmea = nmea }
            policy.device = enable == true ? asked : nil
            if !policy.streams { queue = [] }
            // A new watch gets the sky view with its first fix, as from gpsd.
            if enable == true { lastSky = ([], nil) }
            append(GPSDReports.devices(device, now: now) + GPSDReports.watch(policy))
            tellDenial()
        case .poll:
            let released = latest.flatMap { release($0) }
            append(GPSDReports.poll(released?.location, device: device, active: device != nil, now: now), release: released)
            tellDenial()
        case .devices:
            append(GPSDReports.devices(device, now: now))
        case .device:
            append(GPSDReports.device(device, now: now))
        case .version:
            append(GPSDReports.version)
        case .unrecognized(let message):
            append(GPSDReports.error(message))
        }
    }

    /// Queues `fix` for the client when it watches; the oldest waiting fix gives way when full.
    func offer(_ fix: Location) {
        guard policy.streams, !isClosed else { return }
        if queue.count >= Self.queueLimit {
            queue.removeFirst()
            dropped += 1
        }
        queue.append(fix)
    }

    /// What the loop does for the client at each turn: answers requests that waited for room,
    /// releases queued fixes while the socket takes them, tells a new denial, keeps a silent watch alive, and writes what waits.
    func serve(device: String?, latest: Location?) {
        if let closesAt {
            if closesAt <= .now { isClosed = true }
            return
        }
        guard !isClosed else { return }
        answerWaiting(device: device, latest: latest)
        let now = ContinuousClock.now
        if lastLook.map({ $0.duration(to: now) >= EventWait.tick }) ?? true {
            tellDenial()
            lastLook = now
        }
        while pending.isEmpty, !queue.isEmpty {
            let fix = queue.removeFirst()
            guard let released = release(fix) else { continue }
            var bytes: [UInt8] = []
            if policy.json {
                bytes += GPSDReports.tpv(released.location, device: device)
                // The sky view, when it is new to the client (gpsd's SKY comes once an epoch; the
                // library's fixes carry the latest): a view that went away is said once, empty.
                let sky = (satellites: released.location.satellites, hdop: released.location.hdop)
                if sky.satellites != lastSky.satellites || (!sky.satellites.isEmpty && sky.hdop != lastSky.hdop) {
                    bytes += GPSDReports.sky(released.location, device: device)
                    lastSky = sky.satellites.isEmpty ? ([], nil) : sky
                }
            }
            if policy.nmea { bytes += NMEASentences.sentences(for: released.location) }
            append(bytes, release: released, isFresh: true)
            flush()
        }
        if policy.enabled, policy.json, pending.isEmpty, lastWrite.duration(to: now) >= Self.keepAlive {
            append(GPSDReports.tpv(nil, device: device))
        }
        flush()
        // What did not go out now waits: the gate is asked again before it does.
        for index in pending.indices { pending[index].isFresh = false }
    }

    /// What the client may have of `fix` now: its gate's release, within its app's pace.
    private func release(_ fix: Location) -> DeliveryGate.Release? {
        gate.release(fix).flatMap { pace.admits($0, app: identity.app) ? $0 : nil }
    }

    /// An ERROR report when the client's authorization now denies it and it was not told why.
    private func tellDenial() {
        let denial = gate.authorization.denial
        if let denial { session.denial = denial }
        defer { toldDenial = denial }
        guard let denial, denial != toldDenial, speaks == .gpsd, policy.enabled || !pending.isEmpty else { return }
        append(GPSDReports.error("\(identity.name): " + explainer.explain(denial)))
    }

    private func append(_ bytes: [UInt8], release: DeliveryGate.Release? = nil, isFresh: Bool = false) {
        guard !bytes.isEmpty else { return }
        pending.append(Piece(bytes: bytes, release: release, isFresh: isFresh))
        pendingBytes += bytes.count
    }

    /// Writes what the socket takes now. A piece made of a fix whose authorization has changed
    /// since it was released is dropped before its first byte; if part of it is out already,
    /// the connection is closed (no client gets half a line, nor the rest of one). Nothing is
    /// written while the client has `inFlightLimit` unread bytes or more (or they cannot be
    /// counted); the loop's next turn looks again.
    func flush() {
        isHeldBack = false
        while !isClosed, let first = pending.first {
            if let release = first.release, !first.isFresh, !gate.admits(release) {
                if sentOfFirst > 0 {
                    isClosed = true
                    return
                }
                // The sky view it held did not go out: the next fix's goes.
                lastSky = ([], nil)
                dropFirst()
                continue
            }
            guard let unread = diagnostics.unsent(descriptor, key: key), unread < Self.inFlightLimit else {
                isHeldBack = true
                return
            }
            switch ServerSocket.sendSome(descriptor, first.bytes, from: sentOfFirst) {
            case .bytes(let count):
                sentOfFirst += count
                lastWrite = .now
                guard sentOfFirst == first.bytes.count else { continue }
                if let release = first.release, release.location.mode != nil { session.noteDelivery(accuracy: release.location.accuracy) }
                dropFirst()
            case .full:
                return
            case .failed:
                isClosed = true
            }
        }
    }

    private func dropFirst() {
        pendingBytes -= pending.removeFirst().bytes.count
        sentOfFirst = 0
    }

    /// Closes the connection.
    func close() {
        isClosed = true
        TCPSocket.close(descriptor)
    }
}
