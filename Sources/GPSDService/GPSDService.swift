public import GPSLocation
public import GPSLocationConsent
import LocateSupport
import Synchronization

/// What a served connection speaks.
public enum ServedProtocol: Sendable, Hashable {
    /// gpsd's JSON protocol (`--listen`): gpspipe, cgps, libgps and Python clients.
    case gpsd
    /// Plain NMEA 0183 sentences with nothing to ask (`--nmea`), as GeoClue's NMEA source and
    /// chart plotters read them.
    case nmea
}

/// `locate serve`'s engine: one connection to gpsd (GPSLocation's `GPSDRelay`) fanned out to local
/// clients that speak gpsd's JSON protocol (gpspipe, gpxlogger, cgps, the Python `gps` module,
/// gps3, any libgps program) or read NMEA (GeoClue's NMEA source), each an app whose own
/// permission in the consent store gates every record, when it is taken and when it is written.
/// Other users' connections are refused.
///
/// It answers as gpsd 3.22 answers, passing gpsd's own lines on to a client whose app has full
/// accuracy, and differs only where consent says: a client whose app may not have positions
/// gets none (an ERROR after its first request says why), one with reduced accuracy gets its
/// fix's grid cell at most every five minutes and nothing finer, a POLL gives only what was
/// taken while the client's app was allowed it, and a receiver's configuration is not passed on.
public final class GPSDService: Sendable {
    /// Where the service listens.
    public enum Address: Sendable, Hashable, CustomStringConvertible {
        /// A loopback TCP address (`127.0.0.0/8` or `::1`) and port (0: one the system picks).
        case loopback(host: String, port: UInt16)
        /// A Unix socket at this path (mode 0600), in a directory of the user's alone.
        case unix(path: String)

        /// `HOST:PORT` or `unix:PATH`, as `--listen` takes it.
        public var description: String { socketAddress.description }

        var socketAddress: ServerSocket.Address {
            switch self {
            case .loopback(let host, let port): .loopback(host: host, port: port)
            case .unix(let path): .unix(path: path)
            }
        }

        init(_ address: ServerSocket.Address) {
            switch address {
            case .loopback(let host, let port): self = .loopback(host: host, port: port)
            case .unix(let path): self = .unix(path: path)
            }
        }
    }

    /// Why the service cannot start.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public enum Kind: Sendable, Hashable {
            /// A socket's path rests on a directory or link another user owns or can write.
            case untrustedPath
            /// An address cannot be listened on (in use, not a loopback address, too long).
            case cannotListen
            /// Something the service needs cannot be had (threads, descriptors, the kernel's
            /// socket diagnostics).
            case unavailable
        }

        /// What went wrong.
        public let kind: Kind
        /// What went wrong, naming the address, path or resource.
        public let description: String
    }

    /// A client as the text of an ERROR names it: its app, its program's name, and whether it
    /// runs without a terminal (a daemon, which needs `always`).
    public struct Client: Sendable, Hashable {
        /// The app whose permission applies (`nil`: `[location]`).
        public let app: String?
        /// The program's name as messages show it.
        public let name: String
        /// Whether it runs without a terminal.
        public let isDaemon: Bool
    }

    /// The text of the ERROR that tells a client why its app gets no positions now.
    public typealias DenialExplainer = @Sendable (DenialReason, Client) -> String

    /// The addresses listened on (a port the system picked is filled in) and what each speaks.
    public let listeners: [(address: Address, speaks: ServedProtocol)]

    private let sockets: [ServiceLoop.Listening]
    private let configuration: GPSLocationConfiguration
    private let store: ConsentStore
    private let diagnostics: SocketDiagnostics
    private let inbox: ServiceInbox
    private let explainDenial: DenialExplainer
    private let diagnose: @Sendable (String) -> Void
    private let hasRun = Mutex(false)

    /// Listens on every address of `listening`, ready to ``run()``.
    /// - Parameters:
    ///   - listening: the addresses to listen on, and what the clients of each speak.
    ///   - configuration: where gpsd is.
    ///   - store: the consent store every client's app is judged by, and where the access log is.
    ///   - explainDenial: the text of a denied client's ERROR.
    ///   - diagnose: told, on the service's threads, what a person running it should know
    ///     (listening, gpsd lost and back, refusals, the access log failing); the library prints nothing.
    /// - Throws: ``Failure`` when a socket's path is not the user's alone, an address cannot be
    ///   listened on, or the kernel's socket diagnostics cannot be had; nothing stays listening.
    public init(
        listening: [(address: Address, speaks: ServedProtocol)], gpsd configuration: GPSLocationConfiguration, store: ConsentStore,
        explainDenial: @escaping DenialExplainer, diagnose: @escaping @Sendable (String) -> Void
    ) throws(Failure) {
        // What a client has not read is counted through the kernel's socket diagnostics: without
        // them, what a revoke cannot take back would have no bound.
        guard let diagnostics = SocketDiagnostics() else {
            throw Failure(kind: .unavailable, description: "the kernel's socket diagnostics (NETLINK_SOCK_DIAG) cannot be had")
        }
        guard let loop = LoopThread() else { throw Failure(kind: .unavailable, description: "out of file descriptors") }
        var sockets: [ServiceLoop.Listening] = []
        func closeAll() {
            for socket in sockets {
                ServerSocket.removeSocket(of: socket.listener)
                TCPSocket.close(socket.listener.descriptor)
            }
        }
        for (address, speaks) in listening {
            if case .unix(let path) = address {
                // The socket's directory, walked as any path the service trusts: another user
                // who could write it could put a socket of theirs in this one's place.
                do throws(TrustedFile.Refusal) {
                    try TrustedFile.checkPath(path, to: .file, owner: .user)
                } catch {
                    closeAll()
                    throw Failure(kind: .untrustedPath, description: "cannot listen on \(address): \(error.description)")
                }
            }
            switch ServerSocket.listen(on: address.socketAddress) {
            case .success(let listener):
                sockets.append(ServiceLoop.Listening(listener: listener, speaks: speaks))
            case .failure(let error):
                closeAll()
                throw Failure(kind: .cannotListen, description: "cannot listen on \(address): \(error.reason)")
            }
        }
        self.sockets = sockets
        listeners = sockets.map { (Address($0.listener.address), $0.speaks) }
        self.configuration = configuration
        self.store = store
        self.diagnostics = diagnostics
        inbox = ServiceInbox(loop: loop)
        self.explainDenial = explainDenial
        self.diagnose = diagnose
    }

    /// Serves until ``stop()`` or the task is cancelled, then closes every client, writes the
    /// access log and removes the service's own socket files. Its work runs on threads of its
    /// own, never on Swift's cooperative pool.
    /// - Throws: ``Failure`` when a thread the service needs cannot be had (it served nobody),
    ///   or it has run before.
    public func run() async throws(Failure) {
        guard
            hasRun.withLock({ hasRun in
                defer { hasRun = true }
                return !hasRun
            })
        else { throw Failure(kind: .unavailable, description: "the service has run already") }
        // serve reads gpsd for its clients, whose own permissions gate every record; its
        // connection is a daemon's.
        let relay: GPSDRelay
        do throws(GPSLocationError) {
            relay = try GPSDRelay(
                configuration: configuration, authorizationSource: StaticAuthorization(AuthorizationDecision(status: .authorizedAlways)))
        } catch {
            throw Failure(kind: .unavailable, description: error.description)
        }
        guard let identifier = PeerIdentifier(inbox: inbox, store: store),
            let recorder = AccessRecorder(log: AccessLog(paths: store.paths), diagnose: diagnose)
        else {
            relay.stop()
            inbox.stop()
            throw Failure(kind: .unavailable, description: "cannot start a thread")
        }
        let explainDenial = explainDenial
        let explain: ExplainDenial = { denial, identity in
            let isDaemon = identity.pid.flatMap(PeerProcess.terminalState).map { !$0.hasTerminal } ?? true
            return explainDenial(denial, Client(app: identity.app, name: identity.name, isDaemon: isDaemon))
        }
        let (store, diagnostics, diagnose) = (store, diagnostics, diagnose)
        let sockets = sockets
        let inbox = inbox
        let started = await inbox.loop.run(unavailable: false) { wait in
            ServiceLoop(
                listeners: sockets, relay: relay, inbox: inbox, identifier: identifier, recorder: recorder, store: store,
                diagnostics: diagnostics, explain: explain, diagnose: diagnose
            ).run(waiting: &wait)
            relay.stop()
            recorder.stop()
            for socket in sockets {
                // The file goes while the socket still listens: until then another serve
                // finds it live and leaves it, so the file removed is this one's.
                ServerSocket.removeSocket(of: socket.listener)
                TCPSocket.close(socket.listener.descriptor)
            }
            return true
        }
        guard started else {
            relay.stop()
            inbox.stop()
            throw Failure(kind: .unavailable, description: "cannot start a thread")
        }
    }

    /// Ends ``run()``: every client is closed.
    public func stop() {
        inbox.stop()
    }
}
