import GPSLocation
import GPSLocationConsent
import LocateSupport
import Synchronization

/// What the serve loop shares with the rest of `locate serve`: the fixes from gpsd not yet fanned
/// out, the connections identified and waiting to be served, a stop, and the wake-up that tells
/// the loop's thread about each. Everything else is the loop's own, on its thread.
final class ServeMailbox: Sendable {
    struct Contents {
        var fixes: [Location] = []
        var identified: [Connection] = []
        var clients = 0
    }

    let wakeUp: WakeUp
    let stopped = Flag()
    private let contents = Mutex(Contents())

    init(wakeUp: WakeUp) {
        self.wakeUp = wakeUp
    }

    /// A fix from gpsd, for every watching client.
    func post(_ fix: Location) {
        contents.withLock { contents in
            // The loop takes them at once; a loop that is behind keeps only the newest few.
            if contents.fixes.count >= ServedClient.queueLimit { contents.fixes.removeFirst() }
            contents.fixes.append(fix)
        }
        wakeUp.signal()
    }

    /// A connection, the protocol it speaks, and who it is (`nil`: none could be found).
    struct Connection: Sendable {
        let descriptor: Int32
        let speaks: ServedProtocol
        let identity: ClientIdentity?
    }

    /// A connection, named.
    func post(_ connection: Connection) {
        contents.withLock { $0.identified.append(connection) }
        wakeUp.signal()
    }

    /// Everything posted since the last take.
    func take() -> (fixes: [Location], identified: [Connection]) {
        contents.withLock { contents in
            defer {
                contents.fixes = []
                contents.identified = []
            }
            return (contents.fixes, contents.identified)
        }
    }

    /// How many clients are served now.
    var clientCount: Int {
        get { contents.withLock { $0.clients } }
        set { contents.withLock { $0.clients = newValue } }
    }

    /// Ends the loop: every client is closed.
    func stop() {
        stopped.set()
        wakeUp.signal()
    }
}

/// The thread of `locate serve` that owns every socket: it accepts connections (which the
/// identifier names before they are served), reads requests, fans fixes out and writes to every
/// client without ever blocking, in one `poll` over all of them. A tick (200 ms) bounds how late
/// a change of a client's authorization is acted on.
struct ServeLoop {
    let listeners: [(listener: ServerSocket.Listener, speaks: ServedProtocol)]
    let mailbox: ServeMailbox
    let identifier: PeerIdentifier
    let store: ConsentStore
    let recorder: ServeAccessRecorder
    let diagnostics: SocketDiagnostics

    /// Descriptors kept for what is not a client.
    static let reservedDescriptors = 32

    /// Runs until the mailbox is stopped, then closes every client.
    func run() {
        var clients: [ServedClient] = []
        var device: String?
        var latest: Location?
        var waiting = PollSet(wakeUp: mailbox.wakeUp)
        var lastRecord = ContinuousClock.now
        let pace = ReducedAccuracyPace()
        // Connections are taken while descriptors are left for them and a reserve besides
        // (gpsd, the socket diagnostics, the identifier's and the log's files). Else, or when
        // an accept finds none left, the listeners are not polled (they would stay readable: a
        // busy loop) for a tick; said once until a connection is taken again.
        let capacity = max(1, ServerSocket.raiseDescriptorLimit() - Self.reservedDescriptors)
        var identifying = 0
        var acceptsAgain: ContinuousClock.Instant?
        var toldOutOfDescriptors = false
        func outOfDescriptors() {
            if !toldOutOfDescriptors {
                StandardStreams.diagnose(
                    "serve: too many open files (at most \(capacity) clients); new connections wait until clients leave")
            }
            toldOutOfDescriptors = true
            acceptsAgain = .now.advanced(by: EventWait.tick)
        }
        while !mailbox.stopped.isSet {
            if let resume = acceptsAgain, resume <= .now { acceptsAgain = nil }
            if acceptsAgain == nil, clients.count + identifying >= capacity { outOfDescriptors() }
            // (A negative descriptor is one poll passes over.)
            var requests = listeners.map { PollRequest.reading(acceptsAgain == nil ? $0.listener.descriptor : -1) }
            for client in clients {
                if client.wantsInput { requests.append(.reading(client.descriptor)) }
                if client.wantsOutput { requests.append(.writing(client.descriptor)) }
            }
            let events = waiting.wait(for: requests, until: .now.advanced(by: EventWait.tick))
            for ((listener, speaks), event) in zip(listeners, events) where event.isReadable {
                accepting: while clients.count + identifying < capacity {
                    switch ServerSocket.accept(listener.descriptor, sendBuffer: ServedClient.socketBuffer) {
                    case .connection(let connection):
                        toldOutOfDescriptors = false
                        identifying += 1
                        identifier.identify(connection, isUnix: listener.address.isUnix, speaking: speaks)
                    case .none:
                        break accepting
                    case .outOfDescriptors:
                        outOfDescriptors()
                        break accepting
                    }
                }
            }
            let taken = mailbox.take()
            identifying -= taken.identified.count
            for connection in taken.identified {
                let descriptor = connection.descriptor
                guard let identity = connection.identity, let client = serve(descriptor, identity, speaking: connection.speaks, pace: pace)
                else {
                    StandardStreams.diagnose(
                        "serve: refused a connection " + (connection.identity.map { "of user \($0.uid)" } ?? "whose user cannot be found"))
                    TCPSocket.close(descriptor)
                    continue
                }
                clients.append(client)
                // Its first requests may be waiting already (sent on connect, while it was named).
                client.readRequests(device: device, latest: latest)
            }
            for fix in taken.fixes {
                device = fix.device ?? device
                latest = fix
                for client in clients { client.offer(fix) }
            }
            for (request, event) in zip(requests, events).dropFirst(listeners.count) where !event.isEmpty && !request.writing {
                clients.first { $0.descriptor == request.descriptor }?.readRequests(device: device, latest: latest)
            }
            for client in clients { client.serve(device: device, latest: latest) }
            clients.removeAll { client in
                guard client.isClosed else { return false }
                client.close()
                recorder.ended(client.session)
                return true
            }
            mailbox.clientCount = clients.count
            if lastRecord.duration(to: .now) >= EventWait.tick {
                recorder.receivers(clients.map(\.session))
                lastRecord = .now
            }
        }
        for client in clients {
            client.close()
            recorder.ended(client.session)
        }
        mailbox.clientCount = 0
    }

    /// A client for an identified connection of this user's, with the gate of its app.
    /// One whose program cannot be told is refused (an ERROR, and an attempt in the access log).
    private func serve(
        _ descriptor: Int32, _ identity: ClientIdentity, speaking speaks: ServedProtocol, pace: ReducedAccuracyPace
    )
        -> ServedClient?
    {
        guard identity.uid == PeerProcess.currentUser, let appStore = try? store.forApp(identity.app) else { return nil }
        let refusal = identity.refusal
        let gate =
            refusal == nil
            ? DeliveryGate(authorizationSource: appStore) { identity.appState }
            : DeliveryGate(authorizationSource: StaticAuthorization(AuthorizationDecision(status: .denied))) { .unattended }
        let client = ServedClient(
            descriptor: descriptor, identity: identity, speaking: speaks, gate: gate,
            explainer: AuthorizationMessages(store: appStore, app: identity.app, client: (identity.name, identity.appState == .unattended)),
            diagnostics: diagnostics, pace: pace)
        if let refusal {
            StandardStreams.diagnose(
                "serve: refused a connection of \(identity.name)" + (identity.pid.map { " (pid \($0))" } ?? "") + ": " + refusal)
            client.refuse(refusal)
        }
        return client
    }
}

extension ServerSocket.Address {
    var isUnix: Bool {
        if case .unix = self { return true }
        return false
    }
}
