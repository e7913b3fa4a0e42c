import GPSLocation
import GPSLocationConsent
import LocateSupport
import Synchronization

/// A connection the identifier named: the protocol it speaks, and who it is (`nil`: none
/// could be found).
struct IdentifiedConnection: Sendable {
    let descriptor: Int32
    let speaks: ServedProtocol
    let identity: ClientIdentity?
    /// Whether the peer had already gone when no one could be found at its end.
    var isGone = false
}

/// What the service loop shares with its other threads: the connections the identifier named,
/// and the loop's thread, whose wake-up tells it of them and whose stop ends it.
final class ServiceInbox: Sendable {
    let loop: LoopThread
    private let identified = Mutex<[IdentifiedConnection]>([])

    init(loop: LoopThread) {
        self.loop = loop
    }

    /// Whether the loop is to end.
    var isStopped: Bool { loop.isStopped }

    /// A connection, named.
    func post(_ connection: IdentifiedConnection) {
        identified.withLock { $0.append(connection) }
        loop.wakeUp.signal()
    }

    /// The connections named since the last take.
    func take() -> [IdentifiedConnection] {
        identified.withLock { identified in
            defer { identified = [] }
            return identified
        }
    }

    /// Ends the loop: every client is closed.
    func stop() {
        loop.stop()
    }
}

/// Names the connections the service accepts, on a thread of its own (a walk of `/proc`
/// takes milliseconds, which the service loop must not wait for): the user from the kernel, and
/// for one of this user's, the process holding the socket, its executable and so its app. The
/// connections waiting at one moment are named together, in one read of the socket tables and
/// one walk of the processes, so that 200 clients connecting at once cost a few walks.
final class PeerIdentifier: Sendable {
    private let waiting = Mutex<[(descriptor: Int32, isUnix: Bool, speaks: ServedProtocol)]>([])
    private let loop: LoopThread
    private let inbox: ServiceInbox
    private let store: ConsentStore

    /// Starts the identifier's thread, which ends with the service loop (the inbox's stop);
    /// `nil` when no thread can be had.
    init?(inbox: ServiceInbox, store: ConsentStore) {
        guard let loop = LoopThread() else { return nil }
        self.loop = loop
        self.inbox = inbox
        self.store = store
        guard loop.start({ [self] wait in run(waiting: &wait) }) else { return nil }
    }

    /// Names `descriptor` and posts it to the inbox.
    func identify(_ descriptor: Int32, isUnix: Bool, speaking speaks: ServedProtocol) {
        waiting.withLock { $0.append((descriptor, isUnix, speaks)) }
        loop.wakeUp.signal()
    }

    private func run(waiting wait: inout EventWait) {
        while !inbox.isStopped {
            let batch = waiting.withLock { waiting in
                defer { waiting = [] }
                return waiting
            }
            if batch.isEmpty {
                wait.wait(for: nil, until: .now.advanced(by: EventWait.tick))
                continue
            }
            let keys = batch.compactMap { $0.isUnix ? nil : PeerProcess.tcpKey($0.descriptor) }
            let tcpPeers = PeerProcess.tcpPeers(keys)
            for (descriptor, isUnix, speaks) in batch {
                let peer = isUnix ? PeerProcess.unixPeer(descriptor) : PeerProcess.tcpKey(descriptor).flatMap { tcpPeers[$0] }
                inbox.post(
                    IdentifiedConnection(
                        descriptor: descriptor, speaks: speaks, identity: peer.map(identity),
                        isGone: peer == nil && TCPSocket.isPeerGone(descriptor)))
            }
        }
        // Whatever still waits is closed by nobody else.
        for (descriptor, _, _) in waiting.withLock({ $0 }) { TCPSocket.close(descriptor) }
    }

    /// Who `peer` is: the app of its executable, as the settings say (a section pinned to it
    /// with `program =`, or named as it); `[location]` while the settings cannot be read (its
    /// gate then lets nothing out, and says why). A connection of this user's whose program
    /// cannot be told, or that processes of different executables hold (one may have handed
    /// it to another by fork and exec), is to be refused, with every holder named.
    private func identity(of peer: PeerProcess.Peer) -> ClientIdentity {
        guard peer.uid == PeerProcess.currentUser, let pid = peer.pid else {
            var identity = ClientIdentity(uid: peer.uid, pid: peer.pid, program: nil, app: nil)
            if peer.uid == PeerProcess.currentUser { identity.refusal = Self.unidentified }
            return identity
        }
        let programs = peer.holders.map { (pid: $0, program: PeerProcess.executable($0)) }
        let program = programs.first?.program
        guard let program, programs.allSatisfy({ $0.program == program }) else {
            let named = programs.map { "pid \($0.pid) \($0.program ?? "(unreadable)")" }.joined(separator: ", ")
            var identity = ClientIdentity(uid: peer.uid, pid: pid, program: program, app: nil)
            identity.refusal = program == nil ? Self.unidentified : "it is held by processes of different programs (\(named))"
            return identity
        }
        do throws(GPSLocationError) {
            return ClientIdentity(uid: peer.uid, pid: pid, program: program, app: try store.appName(forProgram: program))
        } catch {
            return ClientIdentity(uid: peer.uid, pid: pid, program: program, app: nil)
        }
    }

    private static let unidentified = "its program cannot be identified (no process of yours holding the connection can be read)"
}
