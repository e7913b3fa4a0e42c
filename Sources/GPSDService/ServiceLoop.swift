import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import LocateSupport

/// The thread of the service that owns every socket, in one `poll` over the listeners, the
/// clients (their requests, room to write, and their hang-up, whether they are read or not),
/// gpsd's relay, the settings' watcher and the inbox: it accepts connections (which the
/// identifier names before they are served), keeps each client's authorization current, takes
/// gpsd's lines and fans them out, and writes to every client without ever blocking.
///
/// Each client's authorization is looked at when what decides it may have changed, never per
/// record: the app's decision when the settings change (one read per app), and the client's
/// process's place at its terminal every tick for a when-in-use app only. A change reaches the
/// client before any record of the same turn is taken.
final class ServiceLoop {
    /// A listening socket and what its clients speak.
    struct Listening: Sendable {
        let listener: ServerSocket.Listener
        let speaks: ServedProtocol
    }

    /// A client and what its authorization rests on besides its app's decision.
    private struct Served {
        let client: ServedClient
        let socket: SocketTransport
        /// Whether its process is in use (sampled for a when-in-use app only).
        var appState: AppState = .unattended
    }

    private let listeners: [Listening]
    private let relay: GPSDRelay
    private let inbox: ServiceInbox
    private let identifier: PeerIdentifier
    private let recorder: AccessRecorder
    private let store: ConsentStore
    private let diagnostics: SocketDiagnostics
    private let explain: ExplainDenial
    private let diagnose: @Sendable (String) -> Void
    /// The settings and the policy, and the directories they rest on.
    private let watcher: FileWatcher

    private var clients: [Served] = []
    private var upstream = Upstream()
    private var sequence: UInt64 = 0
    private let pace = ReducedAccuracyPace()
    private let buffer = ReadBuffer()
    /// Each app's store (`nil`: `[location]`) and its decision now.
    private var apps: [String?: (store: ConsentStore, decision: AuthorizationDecision)] = [:]
    private var refusals = RefusalNotices()
    /// Clients closed since the allocator last gave free memory back.
    private var closedSinceTrim = 0
    /// The first record taken since the settings last changed: every app's decision has been
    /// what it is now since then.
    private var settingsChangedAt: UInt64 = 0
    /// Whether gpsd went away, and its receivers are to be told again when it is back.
    private var isReconnecting = false

    /// Descriptors kept for what is not a client.
    static let reservedDescriptors = 32
    /// How many connections are named at once at most: beyond, they wait in the listener's
    /// backlog (a flood of another user's connections costs a bounded batch of work at a time).
    static let identifyingLimit = 256
    /// How many clients close between two returns of free memory to the system, at most.
    static let trimAfterClosed = 256

    init(
        listeners: [Listening], relay: GPSDRelay, inbox: ServiceInbox, identifier: PeerIdentifier, recorder: AccessRecorder,
        store: ConsentStore, diagnostics: SocketDiagnostics, explain: @escaping ExplainDenial,
        diagnose: @escaping @Sendable (String) -> Void
    ) {
        self.listeners = listeners
        self.relay = relay
        self.inbox = inbox
        self.identifier = identifier
        self.recorder = recorder
        self.store = store
        self.diagnostics = diagnostics
        self.explain = explain
        self.diagnose = diagnose
        watcher = FileWatcher((store.paths.userFile.map { [$0] } ?? []) + store.paths.policyCandidates)
    }

    /// Runs until the inbox is stopped, waiting on its loop's wake-up, then closes every client.
    func run(waiting: inout EventWait) {
        var nextTick = ContinuousClock.now.advanced(by: EventWait.tick)
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
                diagnose("serve: too many open files (at most \(capacity) clients); new connections wait until clients leave")
            }
            toldOutOfDescriptors = true
            acceptsAgain = .now.advanced(by: EventWait.tick)
        }
        var requests: [PollRequest] = []
        while !inbox.isStopped {
            if let resume = acceptsAgain, resume <= .now { acceptsAgain = nil }
            if acceptsAgain == nil, clients.count + identifying >= capacity { outOfDescriptors() }
            // (A negative descriptor is one poll passes over.)
            requests.removeAll(keepingCapacity: true)
            for listening in listeners { requests.append(.reading(acceptsAgain == nil ? listening.listener.descriptor : -1)) }
            requests.append(.reading(relay.descriptor))
            requests.append(.reading(watcher.descriptor ?? -1))
            let firstClient = requests.count
            for served in clients {
                let client = served.client
                requests.append(.peer(served.socket.descriptor, reading: client.wantsInput, writing: client.wantsOutput))
            }
            let deadline = clients.compactMap(\.client.heldBackUntil).reduce(nextTick, min)
            let events = waiting.wait(for: requests, until: deadline)
            let now = ContinuousClock.now

            for (listening, event) in zip(listeners, events) where event.isReadable {
                accepting: while clients.count + identifying < capacity, identifying < Self.identifyingLimit {
                    switch ServerSocket.accept(listening.listener.descriptor, sendBuffer: ServedClient.socketBuffer) {
                    case .connection(let connection):
                        toldOutOfDescriptors = false
                        identifying += 1
                        identifier.identify(connection, isUnix: listening.listener.address.isUnix, speaking: listening.speaks)
                    case .none:
                        break accepting
                    case .outOfDescriptors:
                        outOfDescriptors()
                        break accepting
                    }
                }
            }

            // What decides comes first: the settings, and each when-in-use client's place at its
            // terminal, before any record of this turn is taken.
            let isTick = now >= nextTick
            if isTick { nextTick = now.advanced(by: EventWait.tick) }
            if (isTick || events[listeners.count + 1].isReadable) && watcher.filesChanged() { settingsChanged() }
            if isTick { sampleAppStates() }

            let identified = inbox.take()
            identifying -= identified.count
            for connection in identified { admit(connection, now: now) }

            if events[listeners.count].isReadable { relayed(relay.take(), now: now) }

            for (index, event) in events.dropFirst(firstClient).enumerated() where index < clients.count && !event.isEmpty {
                let client = clients[index].client
                if event.isReadable { client.read(upstream, sequence: sequence, now: now) }
                if event.isWritable { client.flush(now: now) }
                if event.isPeerGone { client.hangUp(now: now) }
            }
            for served in clients {
                let client = served.client
                if isTick { client.tick(now: now) }
                if client.hasOutput, !client.isBlocked { client.flush(now: now) }
                if client.hasUnanswered { client.answerWaiting(upstream, sequence: sequence, now: now) }
            }
            clients.removeAll { served in
                guard served.client.state == .closed else { return false }
                recorder.ended(served.client.session)
                closedSinceTrim += 1
                return true
            }
            if isTick {
                // A crowd that left: what it took goes back to the system, not only to the
                // allocator (once a tick at most, when clients are fewer than those that left).
                if closedSinceTrim >= Self.trimAfterClosed || (closedSinceTrim > 0 && clients.isEmpty) {
                    if closedSinceTrim > clients.count { HeapTrim.releaseFreeMemory() }
                    closedSinceTrim = 0
                }
                recorder.receivers(clients.map(\.client.session))
                for notice in refusals.due(now: now) { diagnose(notice) }
                forgetUnusedApps()
            }
        }
        for served in clients {
            served.client.close()
            recorder.ended(served.client.session)
        }
        clients = []
    }

    // MARK: - Clients

    /// A connection the identifier named: served as its app's client when it is this user's,
    /// refused (its user said once a minute) when it is another's or nobody's.
    private func admit(_ connection: IdentifiedConnection, now: ContinuousClock.Instant) {
        guard var identity = connection.identity, identity.uid == PeerProcess.currentUser else {
            TCPSocket.close(connection.descriptor)
            closedSinceTrim += 1
            // One that left before it was named (a port scan, `nc -z`) was no one to refuse.
            guard !connection.isGone else { return }
            let whose = connection.identity.map { "of user \($0.uid)" } ?? "whose user cannot be found"
            if let notice = refusals.refused(whose, key: whose, now: now) { diagnose(notice) }
            return
        }
        if let refusal = identity.refusal {
            let whose = "of \(identity.name)" + (identity.pid.map { " (pid \($0))" } ?? "") + ": " + refusal
            if let notice = refusals.refused(whose, key: "\(identity.uid) \(identity.program ?? "") \(refusal.prefix(24))", now: now) {
                diagnose(notice)
            }
        }
        var appState = AppState.unattended
        var authorization = Authorization(decision: AuthorizationDecision(status: .denied), appState: .unattended)
        // What the client's app could have had before it came: what was taken since the settings
        // last changed, when only the settings decide (a when-in-use app's process could have been
        // anywhere: nothing from before it came).
        var authorizedSince = sequence
        if identity.refusal == nil {
            // The settings as they are now, read here: a change the watcher has not reported yet
            // is taken before the client is judged, so that nothing taken before it counts.
            if watcher.filesChanged() { settingsChanged() }
            identity = ClientIdentity(uid: identity.uid, pid: identity.pid, program: identity.program, app: app(of: identity))
            let decision = decision(of: identity.app)
            appState = self.appState(of: identity, under: decision)
            authorization = Authorization(decision: decision, appState: appState)
            if decision.status != .authorizedWhenInUse { authorizedSince = settingsChangedAt }
        }
        let socket = SocketTransport(descriptor: connection.descriptor, diagnostics: diagnostics, buffer: buffer)
        let served = Served(
            client: ServedClient(
                transport: socket, identity: identity, speaks: connection.speaks, authorization: authorization,
                authorizedSince: authorizedSince,
                version: upstream.version, explain: { [explain] denial in explain(denial, identity) }, pace: pace, now: now),
            socket: socket, appState: appState)
        clients.append(served)
        // Its first requests may be waiting already (sent on connect, while it was named).
        served.client.read(upstream, sequence: sequence, now: now)
    }

    /// The app's decision now, read once per change of the settings.
    private func decision(of app: String?) -> AuthorizationDecision {
        if let known = apps[app] { return known.decision }
        guard let appStore = try? store.forApp(app) else { return AuthorizationDecision(status: .denied) }
        let decision = Self.decision(appStore)
        apps[app] = (appStore, decision)
        return decision
    }

    private static func decision(_ store: ConsentStore) -> AuthorizationDecision {
        do throws(GPSLocationError) {
            return try store.currentDecision()
        } catch {
            if case .invalidSettings(let problem) = error { return AuthorizationDecision(invalidSettings: problem) }
            return AuthorizationDecision(status: .denied)
        }
    }

    /// The settings changed: every client's app is named again (a section may have been pinned
    /// to its program, or a pin taken away), every app's decision read again, and every client told.
    private func settingsChanged() {
        settingsChangedAt = sequence
        for (app, known) in apps { apps[app] = (known.store, Self.decision(known.store)) }
        for index in clients.indices where clients[index].client.identity.refusal == nil {
            let client = clients[index].client
            let app = app(of: client.identity)
            clients[index].appState = appState(of: client.identity, under: decision(of: app))
            let authorization = Authorization(decision: decision(of: app), appState: clients[index].appState)
            if app != client.identity.app {
                client.reassign(to: app, authorization: authorization, sequence: sequence)
            } else {
                client.authorize(authorization, sequence: sequence)
            }
        }
    }

    /// The app whose section applies to the program of `identity` as the settings say now
    /// (`[location]` while they cannot be read: its decision then lets nothing out).
    private func app(of identity: ClientIdentity) -> String? {
        guard let program = identity.program else { return identity.app }
        do throws(GPSLocationError) {
            return try store.appName(forProgram: program)
        } catch {
            return nil
        }
    }

    /// Each when-in-use client's process: in the foreground of its terminal or not.
    private func sampleAppStates() {
        for index in clients.indices where clients[index].client.identity.refusal == nil {
            let identity = clients[index].client.identity
            let decision = decision(of: identity.app)
            guard decision.status == .authorizedWhenInUse else { continue }
            let state = appState(of: identity, under: decision)
            guard state != clients[index].appState else { continue }
            clients[index].appState = state
            clients[index].client.authorize(authorization(of: clients[index]), sequence: sequence)
        }
    }

    /// Whether the process of `identity` is in use, by the terminal rule; asked only where
    /// `decision` makes it matter (when-in-use).
    private func appState(of identity: ClientIdentity, under decision: AuthorizationDecision) -> AppState {
        guard decision.status == .authorizedWhenInUse, let pid = identity.pid, let state = PeerProcess.terminalState(pid) else {
            return .unattended
        }
        return state.hasTerminal ? (state.isForeground ? .foreground : .background) : .unattended
    }

    private func authorization(of served: Served) -> Authorization {
        Authorization(decision: decision(of: served.client.identity.app), appState: served.appState)
    }

    /// Apps no client is of any more are read no more.
    private func forgetUnusedApps() {
        let used = Set(clients.map(\.client.identity.app))
        apps = apps.filter { used.contains($0.key) }
    }

    // MARK: - gpsd

    /// What the relay brought: each line taken now, as the current record, by every client
    /// that may have it.
    private func relayed(_ taken: (events: [GPSDRelay.Event], dropped: Int), now: ContinuousClock.Instant) {
        if taken.dropped > 0 { diagnose("serve: \(taken.dropped) of gpsd's messages were dropped (the service fell behind)") }
        for event in taken.events {
            switch event {
            case .message(let message):
                let record = RelayedRecord(message, sequence: sequence, soleDevice: upstream.soleDevice)
                sequence += 1
                upstream.note(record)
                switch message.kind {
                case .error:
                    diagnose("serve: gpsd: \(UntrustedText.visible(String(decoding: message.bytes, as: UTF8.self), limit: 200))")
                case .devices where isReconnecting:
                    // The clients stayed through gpsd's absence: each receiver is new to them,
                    // as a receiver gpsd starts using is to its watchers.
                    isReconnecting = false
                    for device in upstream.devices {
                        let announced = RelayedRecord(GPSDMessage(kind: .device, device: nil, bytes: device.object), sequence: sequence)
                        sequence += 1
                        for served in clients { served.client.offer(announced) }
                    }
                default:
                    for served in clients { served.client.offer(record) }
                }
            case .lost:
                upstream.forget()
                isReconnecting = true
                diagnose("serve: gpsd lost; reconnecting")
            case .reconnected:
                diagnose("serve: gpsd reconnected")
            case .failed(let error):
                diagnose("serve: \(error.description)")
            }
        }
    }
}

/// The text of the ERROR that tells a client why its app gets no positions now.
typealias ExplainDenial = @Sendable (DenialReason, ClientIdentity) -> String

extension ServerSocket.Address {
    var isUnix: Bool {
        if case .unix = self { return true }
        return false
    }
}

/// The refused connections, said once a minute for each kind (another user's, a user the kernel
/// could not name, one program's that cannot be identified), with a count: no one can flood the
/// service's stderr with connections.
struct RefusalNotices {
    private var kinds: [String: (said: String, saidAt: ContinuousClock.Instant, unsaid: Int)] = [:]
    static let interval = Duration.seconds(60)

    /// A connection `whose` (as a message says it) was refused, of the kind `key`: what to say
    /// now, if anything (the first of a minute).
    mutating func refused(_ whose: String, key: String, now: ContinuousClock.Instant) -> String? {
        if let known = kinds[key], known.saidAt.duration(to: now) < Self.interval {
            kinds[key]?.unsaid += 1
            return nil
        }
        kinds[key] = (whose, now, 0)
        return "serve: refused a connection " + whose + " (more like it are counted, and said once a minute)"
    }

    /// The counts whose minute is over.
    mutating func due(now: ContinuousClock.Instant) -> [String] {
        var notices: [String] = []
        for (key, known) in kinds where known.saidAt.duration(to: now) >= Self.interval {
            if known.unsaid > 0 {
                notices.append("serve: refused \(known.unsaid) more connections like the one " + known.said + " in the last minute")
                kinds[key] = (known.said, now, 0)
            } else {
                kinds[key] = nil
            }
        }
        return notices
    }
}
