import Glibc
import Synchronization

/// The kernel's socket diagnostics (`NETLINK_SOCK_DIAG`): exact lookups, a few microseconds
/// each, of a loopback TCP connection's other end, which is a socket of this machine's. One
/// question at a time (a reply is read right after its request).
package final class SocketDiagnostics: Sendable {
    private let descriptor: Int32
    private let asking = Mutex(())

    /// What the kernel says of the peer's socket of a connection.
    package struct PeerSocket: Sendable, Equatable {
        /// The user the socket belongs to.
        package let uid: UInt32
        /// Its inode (as `/proc/PID/fd` links name it).
        package let inode: UInt64
        /// The bytes it has received that its process has not read yet.
        package let unread: Int
    }

    /// Opens a diagnostics socket; `nil` when the kernel has none.
    package init?() {
        descriptor = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4)  // NETLINK_SOCK_DIAG
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// The peer's socket of `key` (`SOCK_DIAG_BY_FAMILY` with an `inet_diag_req_v2` naming the
    /// exact socket); `nil` when the kernel does not answer so.
    package func peerSocket(_ key: PeerProcess.TCPKey) -> PeerSocket? {
        // struct nlmsghdr (16 bytes) + struct inet_diag_req_v2 (56 bytes), in host order but
        // for the ports and addresses (network order, as in a sockaddr).
        var request = [UInt8](repeating: 0, count: 72)
        func put32(_ value: UInt32, at offset: Int) {
            withUnsafeBytes(of: value) { request.replaceSubrange(offset..<offset + 4, with: $0) }
        }
        func put16(_ value: UInt16, at offset: Int) {
            withUnsafeBytes(of: value) { request.replaceSubrange(offset..<offset + 2, with: $0) }
        }
        put32(72, at: 0)
        put16(20, at: 4)  // SOCK_DIAG_BY_FAMILY
        put16(1, at: 6)  // NLM_F_REQUEST
        request[16] = UInt8(key.family)
        request[17] = UInt8(IPPROTO_TCP)
        put32(UInt32.max, at: 20)  // every state
        put16(key.peerPort.bigEndian, at: 24)
        put16(key.ourPort.bigEndian, at: 26)
        request.replaceSubrange(28..<28 + key.peerAddress.count, with: key.peerAddress)
        request.replaceSubrange(44..<44 + key.ourAddress.count, with: key.ourAddress)
        put32(UInt32.max, at: 64)  // INET_DIAG_NOCOOKIE
        put32(UInt32.max, at: 68)
        var reply = [UInt8](repeating: 0, count: 8192)
        let count = asking.withLock { _ -> Int in
            guard send(descriptor, request, request.count, 0) == request.count else { return 0 }
            // The answer waits at once (the kernel answers in the send); never block on it.
            return recv(descriptor, &reply, reply.count, Int32(MSG_DONTWAIT))
        }
        // struct nlmsghdr, then struct inet_diag_msg: idiag_rqueue at 56, idiag_uid at 64,
        // idiag_inode at 68 of it.
        guard count >= 88 else { return nil }
        func load32(_ offset: Int) -> UInt32 { reply[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } }
        let type = reply[4..<6].withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
        guard type == 20 else { return nil }
        let inode = load32(84)
        return inode == 0 ? nil : PeerSocket(uid: load32(80), inode: UInt64(inode), unread: Int(load32(72)))
    }

    /// The bytes written to the local connection `descriptor` that its peer has not read yet:
    /// what this end has not sent or had acknowledged (`SIOCOUTQ`), and for loopback TCP what
    /// waits in the peer's receive queue (acknowledged, but not read). For a Unix socket
    /// `SIOCOUTQ` counts what is sent until it is read (with the kernel's overhead per
    /// write). `nil` when it cannot be told.
    package func unsent(_ descriptor: Int32, key: PeerProcess.TCPKey?) -> Int? {
        var queued: Int32 = 0
        guard ioctl(descriptor, UInt(TIOCOUTQ), &queued) == 0 else { return nil }
        guard let key else { return Int(queued) }
        return peerSocket(key).map { Int(queued) + $0.unread }
    }
}
