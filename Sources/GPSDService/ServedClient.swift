import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import LocateFormats
import LocateSupport

/// One client of the service, on the service loop's thread: its requests, its watch policy,
/// and its output, over a `ClientTransport`.
///
/// Every record is judged twice, through the client's own `DeliveryGate`, whose authorization
/// the loop keeps current (`authorize(_:sequence:)`):
///
/// 1. When it is taken (``offer(_:)``, as gpsd's line arrives): it is queued only if the app may
///    have it now, at that accuracy (a grid cell's TPV and sentences under reduced accuracy,
///    the lines as gpsd wrote them under full accuracy, nothing otherwise).
/// 2. When it is written: it goes only while the authorization is still the one it was taken
///    under. A change drops everything queued before it; a record the change finds half written
///    ends the connection, so that no client gets half a line, nor the rest of one.
///
/// What the kernel holds (this end's send queue, the client's receive queue) is beyond the
/// gate's reach, so a record starts only while less than `inFlightLimit` bytes are unread: a
/// client that stops reading (stopped with Ctrl-Z, busy) fills only its own queue, which drops
/// its oldest records (counted), and after a revoke it can read at most that much more. A denied
/// client is told why in an ERROR after its first request, and again after each change that
/// denies it (one such ERROR waits at most).
final class ServedClient {
    let transport: any ClientTransport
    /// Who the client is; its app may change with the settings (a section pinned to its program).
    private(set) var identity: ClientIdentity
    let speaks: ServedProtocol
    let gate: DeliveryGate
    private let explain: (DenialReason) -> String
    private let pace: ReducedAccuracyPace

    private(set) var policy = WatchPolicy()
    /// What the access log says of the client: who, and what it was given.
    private(set) var session: AccessSession
    /// Records dropped because the client did not read them in time.
    private(set) var dropped = 0
    private(set) var state = State.open

    enum State: Equatable {
        case open
        /// Its last words are said; what it sends is read and dropped until it hangs up or `closesAt`.
        case ending(closesAt: ContinuousClock.Instant)
        case closed
    }

    /// A piece of output: its bytes, what it was taken under (`nil`: it holds nothing of a
    /// position), whether it is a streamed record (else an answer to a request), and the
    /// accuracy of the fix it delivers, if it delivers one.
    private struct Piece {
        var bytes: [UInt8]
        let admission: DeliveryGate.Admission?
        let isStreamed: Bool
        let delivers: AccuracyAuthorization?
        /// An ERROR that tells why the app is denied (only the latest one waits).
        var isDenial = false
    }

    private var pending: [Piece] = []
    /// How much of the first piece went out.
    private var sentOfFirst = 0
    private var answerBytes = 0
    private var streamedBytes = 0
    /// What a read got that is not answered yet: answers would pass `answerLimit` (at most a
    /// read's worth, since nothing more is read meanwhile).
    private var input: ArraySlice<UInt8> = []
    /// Whether `input` is what a read got from its start (a segment gpsd would ignore unless it
    /// starts with a request).
    private var startsSegment = false
    /// Whether the client asked anything yet (a denial is told only then).
    private var hasAsked = false
    /// The denial the client was last told of, so that it is told once per change.
    private var toldDenial: DenialReason?
    private var lastWrite: ContinuousClock.Instant
    private let started: ContinuousClock.Instant
    /// At least the bytes written that the client has not read: what the kernel said when last
    /// asked, and everything written since. The kernel is asked only when this reaches
    /// `inFlightLimit`, not at every write.
    private var unreadBound = 0
    /// The connection took nothing the last time (wait for room in it).
    private(set) var isBlocked = false
    /// When to look again at a client that had `inFlightLimit` unread bytes or more (sooner
    /// after a short pause, up to `heldBackLongest` after a long one); `nil` while it reads.
    private(set) var heldBackUntil: ContinuousClock.Instant?
    private var heldBackFor = ServedClient.heldBackShortest
    /// The first record taken under the current authorization (an earlier one, such as the
    /// fix a POLL would give, was taken under another, or before the client came).
    private var authorizedSince: UInt64

    /// The kernel's send buffer for a client (it doubles this).
    static let socketBuffer: Int32 = 4096
    /// How many unread bytes a client may have before no record starts (an epoch or two of a
    /// receiver's reports): beyond the gate's reach after a revoke, so kept small.
    static let inFlightLimit = 4 * 1024
    /// How soon a client held back is looked at again, at first and at most.
    static let heldBackShortest = Duration.milliseconds(20)
    static let heldBackLongest = Duration.milliseconds(500)
    /// How much output a write takes at most.
    static let batchLimit = 16 * 1024
    /// How many bytes of streamed records wait for a client at most; beyond, the oldest go.
    static let streamLimit = 32 * 1024
    /// How many bytes of answers may wait before the client's requests are no longer read.
    static let answerLimit = 16 * 1024
    /// How long a client that is refused has to read its ERROR before the connection closes.
    static let lingering = Duration.seconds(1)
    /// How long a watching client goes without a report before it gets a no-fix TPV (gpxlogger
    /// gives up after 5 s of silence).
    static let keepAlive = Duration.seconds(2)

    /// - Parameters:
    ///   - authorization: the app's authorization now (a refused identity is denied whatever it says).
    ///   - authorizedSince: the first relayed record taken under `authorization` as it holds for
    ///     this client (a POLL gives nothing older).
    ///   - version: gpsd's banner, the first line a gpsd client reads.
    ///   - explain: the text of an ERROR that tells the client why it gets no positions.
    init(
        transport: any ClientTransport, identity: ClientIdentity, speaks: ServedProtocol, authorization: Authorization,
        authorizedSince: UInt64, version: [UInt8], explain: @escaping (DenialReason) -> String, pace: ReducedAccuracyPace,
        now: ContinuousClock.Instant
    ) {
        self.transport = transport
        self.identity = identity
        self.speaks = speaks
        self.explain = explain
        self.pace = pace
        var authorization = authorization
        if identity.refusal != nil { authorization.decision = AuthorizationDecision(status: .denied) }
        gate = DeliveryGate(authorization: authorization)
        self.authorizedSince = authorizedSince
        lastWrite = now
        started = now
        session = AccessSession(app: identity.app, program: identity.program, user: identity.uid, processID: identity.pid, via: "serve")
        session.refusal = identity.refusal
        // A client that never asks (GeoClue's NMEA source, a silent reader) is an attempt all the same.
        if identity.refusal == nil { session.denial = authorization.denial }
        switch speaks {
        case .gpsd:
            append(version, admission: nil)
        case .nmea:
            // Sentences from the start, and nothing else ever: an NMEA reader cannot take a
            // report, and GeoClue gives up its source for good when the connection ends, so a
            // denied client gets silence, not an error or an end.
            policy = .sentences
            if identity.refusal != nil { end(saying: nil, now: now) }
        }
    }

    /// Whether the loop should read the client now.
    var wantsInput: Bool { state != .closed && input.isEmpty && answerBytes < Self.answerLimit }
    /// Whether the loop should wait for room in the connection.
    var wantsOutput: Bool { state != .closed && !pending.isEmpty && isBlocked }
    /// Whether output waits that the loop should try again soon.
    var hasOutput: Bool { state != .closed && !pending.isEmpty }
    /// Whether requests wait for their answers.
    var hasUnanswered: Bool { state == .open && !input.isEmpty }

    // MARK: - Requests

    /// Reads what the client sent and answers its requests (a client being ended has its input
    /// dropped). The client's end closes the connection once what it asked is answered.
    func read(_ upstream: Upstream, sequence: UInt64, now: ContinuousClock.Instant) {
        guard state != .closed else { return }
        switch transport.receive(limit: GPSDRequest.segmentSize) {
        case .nothing:
            return
        case .ended:
            hangUp(now: now)
        case .bytes(let bytes):
            guard state == .open, speaks == .gpsd else { return }
            input = bytes[...]
            startsSegment = true
            answerWaiting(upstream, sequence: sequence, now: now)
        }
    }

    /// Answers the requests read, one at a time, while less than `answerLimit` of answers
    /// waits to be written.
    func answerWaiting(_ upstream: Upstream, sequence: UInt64, now: ContinuousClock.Instant) {
        while state == .open, !input.isEmpty, answerBytes < Self.answerLimit {
            guard case .request(let request, let rest) = GPSDRequest.next(input, startsSegment: startsSegment) else {
                input = []
                break
            }
            startsSegment = false
            input = rest
            answer(request, upstream, sequence: sequence, now: now)
        }
        flush(now: now)
    }

    private func answer(_ request: GPSDRequest, _ upstream: Upstream, sequence: UInt64, now: ContinuousClock.Instant) {
        guard state == .open else { return }
        hasAsked = true
        if let refusal = identity.refusal {
            end(saying: "\(identity.name): refused: " + refusal, now: now)
            return
        }
        switch request {
        case .watch(let change):
            if let change {
                if change.enable, let device = change.device, !upstream.devices.contains(where: { $0.path == device }) {
                    append(GPSDReports.error("No such device as \(device)"), admission: nil)
                    return
                }
                policy.apply(change)
            }
            append(upstream.devicesReport + GPSDReports.watch(policy), admission: nil)
        case .poll:
            answerPoll(upstream, now: now)
        case .devices:
            append(upstream.devicesReport, admission: nil)
        case .device(let path):
            append(upstream.deviceReport(path), admission: nil)
        case .configure:
            append(GPSDReports.error("locate serve does not pass a receiver's configuration on; ask gpsd itself"), admission: nil)
        case .version:
            append(upstream.version, admission: nil)
        case .unrecognized(let message):
            append(GPSDReports.error(message), admission: nil)
        }
        tellDenial()
    }

    /// POLL: the watched receivers' latest reports that were taken under the client's current
    /// authorization (its fix's grid cell under reduced accuracy), as gpsd lists them; the
    /// lists are empty for a client that does not watch, as from gpsd.
    private func answerPoll(_ upstream: Upstream, now: ContinuousClock.Instant) {
        let watched = policy.enabled ? upstream.devices.filter { policy.watches($0.path) } : []
        let admission = gate.admission()
        var tpv: [[UInt8]] = []
        var gst: [[UInt8]] = []
        var sky: [[UInt8]] = []
        var delivers: AccuracyAuthorization?
        for device in watched {
            guard let admission, let latest = upstream.latest[device.path] else { continue }
            func current(_ record: RelayedRecord?) -> RelayedRecord? {
                record.flatMap { $0.sequence >= authorizedSince ? $0 : nil }
            }
            switch admission.authorization.accuracy {
            case .fullAccuracy:
                if let record = current(latest.tpv) {
                    tpv.append(record.object(timing: policy.timing))
                    if case .fix = record.message.kind { delivers = .fullAccuracy }
                }
                if let record = current(latest.gst) { gst.append(record.object(timing: false)) }
                if let record = current(latest.sky) { sky.append(record.object(timing: false)) }
            case .reducedAccuracy:
                if let record = current(latest.tpv), case .fix(let location) = record.message.kind,
                    let release = gate.release(location, takenUnder: admission), pace.admits(release, app: identity.app)
                {
                    tpv.append(Self.cellReport(release.location, device: device.path))
                    delivers = .reducedAccuracy
                }
            }
        }
        let positional = !(tpv.isEmpty && gst.isEmpty && sky.isEmpty)
        append(
            GPSDReports.poll(now: Date(), active: watched.count, tpv: tpv, gst: gst, sky: sky), admission: positional ? admission : nil,
            delivers: delivers)
    }

    // MARK: - Records

    /// Takes `record` for the client when it watches such records and its app may have it now.
    func offer(_ record: RelayedRecord) {
        guard state == .open, policy.enabled else { return }
        let message = record.message
        guard message.isPositional else {
            // A receiver coming or going, as gpsd tells its watchers.
            if case .device = message.kind, policy.json { append(record.line, admission: nil, isStreamed: true) }
            return
        }
        guard policy.watches(record.device) else { return }
        guard let admission = gate.admission() else { return }
        switch admission.authorization.accuracy {
        case .fullAccuracy:
            switch message.kind {
            case .sentence:
                if policy.wantsSentences { append(record.line, admission: admission, isStreamed: true) }
            case .timing:
                // To a watch of PPS, JSON or not, as gpsd sends it.
                if policy.pps { append(record.line, admission: admission, isStreamed: true) }
            case .fix:
                if policy.json {
                    append(policy.timing ? record.line : record.plainLine, admission: admission, isStreamed: true, delivers: .fullAccuracy)
                }
            case .noFix:
                if policy.json { append(policy.timing ? record.line : record.plainLine, admission: admission, isStreamed: true) }
            case .sky, .gst, .other:
                if policy.json { append(record.line, admission: admission, isStreamed: true) }
            case .version, .devices, .device, .watch, .error:
                break
            }
        case .reducedAccuracy:
            // The cell of a fix, at the app's pace, and nothing else: no sky, no sentence.
            guard case .fix(let location) = message.kind, policy.json || policy.nmea,
                let release = gate.release(location, takenUnder: admission), pace.admits(release, app: identity.app)
            else { return }
            var bytes: [UInt8] = []
            if policy.json { bytes += GPSDReports.line(Self.cellReport(release.location, device: message.device)) }
            if policy.nmea { bytes += NMEASentences.sentences(ofCell: release.location) }
            append(bytes, admission: admission, isStreamed: true, delivers: .reducedAccuracy)
        }
    }

    /// The TPV of a grid cell (a location released under reduced accuracy): its centre, time
    /// and mode only.
    private static func cellReport(_ cell: Location, device: String?) -> [UInt8] {
        GPSDReports.cell(
            latitude: cell.latitude, longitude: cell.longitude, time: cell.time, threeDimensional: cell.mode == .threeDimensional,
            device: device)
    }

    // MARK: - Authorization

    /// The app's authorization now, from the loop (the settings changed, or the client's
    /// process came to the foreground or left it); `sequence` is the next record's. A change
    /// drops everything taken before it; a record it finds half written ends the connection.
    func authorize(_ authorization: Authorization, sequence: UInt64) {
        guard identity.refusal == nil, state != .closed, gate.update(authorization) else { return }
        authorizationChanged(sequence: sequence)
    }

    /// After a new generation of the gate: everything taken before it goes.
    private func authorizationChanged(sequence: UInt64) {
        authorizedSince = sequence
        if sentOfFirst > 0, pending.first?.admission != nil {
            close()
            return
        }
        removeUnbegun { $0.admission != nil }
        tellDenial()
    }

    /// The client's program is now another app's (the settings pinned a section to it, or took
    /// the pin away): judged by that app's `authorization` from now on, with nothing taken
    /// before reaching it, as after any change.
    func reassign(to app: String?, authorization: Authorization, sequence: UInt64) {
        guard identity.refusal == nil, state != .closed, app != identity.app else { return }
        identity = ClientIdentity(uid: identity.uid, pid: identity.pid, program: identity.program, app: app)
        session.app = app
        gate.renew(authorization)
        authorizationChanged(sequence: sequence)
    }

    /// An ERROR when the app's authorization denies it now and the client, which asked
    /// something, was not told why.
    private func tellDenial() {
        let denial = gate.authorization.denial
        if let denial { session.denial = denial }
        defer { toldDenial = denial }
        guard let denial, denial != toldDenial, hasAsked, speaks == .gpsd, state == .open else { return }
        // One such ERROR waits at most: a client that does not read, with its app flipped over
        // and over (or its terminal's foreground), gets the latest, not a pile.
        removeUnbegun(where: \.isDenial)
        append(GPSDReports.error("\(identity.name): " + explain(denial)), admission: nil, isDenial: true)
    }

    // MARK: - Output

    private func append(
        _ bytes: [UInt8], admission: DeliveryGate.Admission?, isStreamed: Bool = false, delivers: AccuracyAuthorization? = nil,
        isDenial: Bool = false
    ) {
        guard !bytes.isEmpty else { return }
        if isStreamed {
            streamedBytes += bytes.count
            // A client that does not read loses its oldest records (those not begun), never memory.
            while streamedBytes > Self.streamLimit, let index = pending.indices.first(where: { isDroppable($0) }) {
                dropped += 1
                remove(at: index)
            }
        } else {
            answerBytes += bytes.count
            // Answers that hold no position go out together: one buffer, not one per answer.
            if admission == nil, !isDenial, let last = pending.indices.last, !pending[last].isStreamed, pending[last].admission == nil,
                !pending[last].isDenial, last > 0 || sentOfFirst == 0
            {
                pending[last].bytes += bytes
                return
            }
        }
        pending.append(Piece(bytes: bytes, admission: admission, isStreamed: isStreamed, delivers: delivers, isDenial: isDenial))
    }

    private func isDroppable(_ index: Int) -> Bool {
        pending[index].isStreamed && (index > 0 || sentOfFirst == 0)
    }

    /// Writes what the connection takes now, while the client has less than `inFlightLimit`
    /// unread; a record whose authorization changed since it was taken is dropped unwritten.
    func flush(now: ContinuousClock.Instant) {
        isBlocked = false
        if let heldBackUntil, now < heldBackUntil { return }
        heldBackUntil = nil
        while state != .closed, !pending.isEmpty {
            removeUnbegun { piece in piece.admission.map { !gate.admits($0) } ?? false }
            guard !pending.isEmpty else { return }
            // A record starts only while less than `inFlightLimit` is unread (the kernel holds
            // it beyond a revoke's reach); answers, which hold no position, go as the socket takes them.
            if pending[0].admission != nil, sentOfFirst == 0, unreadBound >= Self.inFlightLimit {
                guard let unread = transport.unread(), unread < Self.inFlightLimit else {
                    // Looked at again later and later while it does not read (a stopped client
                    // costs a look a while, not one a turn).
                    heldBackUntil = now.advanced(by: heldBackFor)
                    heldBackFor = min(heldBackFor * 2, Self.heldBackLongest)
                    return
                }
                unreadBound = unread
                heldBackFor = Self.heldBackShortest
            }
            // One write of the pieces that may start now.
            var batch: [UInt8] = []
            var count = 0
            while count < pending.count, batch.count < Self.batchLimit {
                if count > 0, pending[count].admission != nil, unreadBound + batch.count >= Self.inFlightLimit { break }
                batch += count == 0 ? pending[0].bytes[sentOfFirst...] : pending[count].bytes[...]
                count += 1
            }
            switch transport.send(batch) {
            case .sent(let sent):
                unreadBound += sent
                lastWrite = now
                consume(sent)
                if sent < batch.count {
                    isBlocked = true
                    return
                }
            case .full:
                isBlocked = true
                return
            case .failed:
                close()
            }
        }
    }

    /// Takes `count` written bytes off the pending pieces.
    private func consume(_ count: Int) {
        var left = count
        while left > 0, let first = pending.first {
            let rest = first.bytes.count - sentOfFirst
            guard left >= rest else {
                sentOfFirst += left
                return
            }
            left -= rest
            if let accuracy = first.delivers { session.noteDelivery(accuracy: accuracy) }
            remove(at: 0)
        }
    }

    private func remove(at index: Int) {
        let piece = pending.remove(at: index)
        if piece.isStreamed { streamedBytes -= piece.bytes.count } else { answerBytes -= piece.bytes.count }
        if index == 0 { sentOfFirst = 0 }
    }

    /// Removes the pieces that are not under way and `shouldRemove` says so of.
    private func removeUnbegun(where shouldRemove: (Piece) -> Bool) {
        var index = 0
        while index < pending.count {
            if (index > 0 || sentOfFirst == 0) && shouldRemove(pending[index]) { remove(at: index) } else { index += 1 }
        }
    }

    // MARK: - Time and ends

    /// What the loop does for the client on each tick: ends a lingering client, and keeps a
    /// silent watch alive.
    func tick(now: ContinuousClock.Instant) {
        switch state {
        case .ending(let closesAt) where closesAt <= now:
            close()
        case .open where identity.refusal != nil && started.duration(to: now) >= Self.lingering:
            // A refused client that asks nothing is told all the same.
            end(saying: "\(identity.name): refused: " + (identity.refusal ?? ""), now: now)
        case .open
        where speaks == .gpsd && policy.enabled && policy.json && pending.isEmpty && lastWrite.duration(to: now) >= Self.keepAlive:
            append(GPSDReports.noFix(device: policy.device), admission: nil)
            flush(now: now)
        default:
            break
        }
    }

    /// The client hung up, or its connection failed: what it asked is answered if the
    /// connection takes it now, then it is closed (as gpsd does when a read finds the end).
    func hangUp(now: ContinuousClock.Instant) {
        guard state != .closed else { return }
        flush(now: now)
        close()
    }

    /// Says `reason` (an ERROR, to a gpsd client), then the end; what else comes is dropped
    /// until the client hangs up or lingering is over.
    private func end(saying reason: String?, now: ContinuousClock.Instant) {
        removeUnbegun { $0.admission != nil }
        if let reason, speaks == .gpsd { append(GPSDReports.error(reason), admission: nil) }
        flush(now: now)
        transport.shutdownSending()
        state = .ending(closesAt: now.advanced(by: Self.lingering))
    }

    /// Closes the connection.
    func close() {
        guard state != .closed else { return }
        state = .closed
        pending = []
        transport.close()
    }
}

/// Who a served connection is, as the kernel told it: the user, the process and its
/// executable, and the app whose permission applies (the executable's name; `nil` for
/// `[location]` when the name is no app name, or no process of this user's holds the socket).
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
}
