import Glibc

/// Listening sockets for a local service: TCP on a loopback address, or a Unix socket that
/// only its owner may connect to; connections accepted non-blocking, with who is at their other end.
package enum ServerSocket {
    /// Where a listener listens.
    package enum Address: Sendable, Equatable, CustomStringConvertible {
        /// A loopback TCP address (`127.0.0.0/8` or `::1`) and port (0: one the system picks).
        case loopback(host: String, port: UInt16)
        /// A Unix socket at this path.
        case unix(path: String)

        package var description: String {
            switch self {
            case .loopback(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unix(let path): "unix:\(path)"
            }
        }
    }

    /// A socket that listens, and the address it listens on (with the port the system picked).
    package struct Listener: Sendable {
        package let descriptor: Int32
        package let address: Address
        /// The device and inode of the socket file a Unix listener made (to remove only it).
        fileprivate var file: (device: UInt64, inode: UInt64)?
    }

    /// Whether `host` is a numeric loopback address (`127.x.x.x` or `::1`).
    package static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
    }

    /// Listens on `address`: a loopback address (see ``isLoopback(_:)``), or a Unix socket of
    /// mode 0600 (a socket already at the path is replaced only when it is this user's socket).
    package static func listen(on address: Address) -> Result<Listener, SystemError> {
        switch address {
        case .loopback(let host, let port): listenLoopback(host: host, port: port)
        case .unix(let path): listenUnix(path: path)
        }
    }

    private static func listenLoopback(host: String, port: UInt16) -> Result<Listener, SystemError> {
        // A numeric address: the lookup never touches the network.
        guard isLoopback(host), case .success(let addresses) = TCPSocket.addresses(host: host, port: String(port)),
            let address = addresses.first
        else { return .failure(SystemError(code: EADDRNOTAVAIL)) }
        var (storage, length, family) = address.parts
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.last) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && Glibc.listen(descriptor, 256) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            let failure = SystemError.last
            Glibc.close(descriptor)
            return .failure(failure)
        }
        let actual = withUnsafeBytes(of: &storage) { bytes in
            UInt16(bigEndian: bytes.load(fromByteOffset: 2, as: UInt16.self))
        }
        return .success(Listener(descriptor: descriptor, address: .loopback(host: host, port: actual)))
    }

    private static func listenUnix(path: String) -> Result<Listener, SystemError> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return .failure(SystemError(code: ENAMETOOLONG))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        var existing = stat()
        if lstat(path, &existing) == 0 {
            // Only a socket of this user's is replaced (a service that did not end cleanly);
            // anything else at the path is left alone.
            guard existing.st_mode & S_IFMT == S_IFSOCK, existing.st_uid == geteuid() else { return .failure(SystemError(code: EEXIST)) }
            // One that answers is another service's, live: it is not taken over.
            guard !answers(address) else { return .failure(SystemError(code: EADDRINUSE)) }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.last) }
        // Mode 0600 from the start: no moment in which another user could connect.
        let mask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        umask(mask)
        guard bound, Glibc.listen(descriptor, 256) == 0 else {
            let failure = SystemError.last
            Glibc.close(descriptor)
            return .failure(failure)
        }
        var made = stat()
        let file = fstat(descriptor, &made) == 0 && stat(path, &made) == 0 ? (UInt64(made.st_dev), UInt64(made.st_ino)) : nil
        return .success(Listener(descriptor: descriptor, address: .unix(path: path), file: file))
    }

    /// Whether a Unix socket at `address` takes a connection now (a connect that is refused
    /// or finds nothing listening says no; a full backlog still says yes, without waiting).
    private static func answers(_ address: sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        var address = address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        return connected || errno == EAGAIN
    }

    /// What an accept gave.
    package enum Accepted: Equatable {
        /// A connection.
        case connection(Int32)
        /// None is waiting (or it went away before it was taken).
        case none
        /// This process or the system has no descriptor left (`EMFILE`, `ENFILE`): the
        /// connection waits in the backlog, and the listener stays readable until one is freed.
        case outOfDescriptors
    }

    /// A connection waiting on `listener`, non-blocking, with a send buffer of `sendBuffer`
    /// bytes (the kernel doubles it).
    package static func accept(_ listener: Int32, sendBuffer: Int32) -> Accepted {
        let descriptor = Glibc.accept(listener, nil, nil)
        guard descriptor >= 0 else { return errno == EMFILE || errno == ENFILE ? .outOfDescriptors : .none }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var size = sendBuffer
        setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return .connection(descriptor)
    }

    /// How many descriptors this process may have open, after raising its soft limit to the
    /// hard one (a service that holds a descriptor per client needs all it may have).
    package static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Ends the sending half of a connection: the peer reads what was sent, then its end.
    package static func shutdownSending(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// What a non-blocking send did.
    package enum Sent: Equatable {
        /// This many bytes went out (maybe fewer than given).
        case bytes(Int)
        /// The socket's buffer is full.
        case full
        /// The connection is gone.
        case failed
    }

    /// Sends what the socket takes of `bytes[offset...]` now, never blocking, never raising SIGPIPE.
    package static func sendSome(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int) -> Sent {
        while true {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent >= 0 { return .bytes(sent) }
            if errno == EINTR { continue }
            return errno == EAGAIN ? .full : .failed
        }
    }

    /// Removes the socket file of a Unix `listener` when the service ends, if the file at its
    /// path is still the one it made (another service may have taken the path since).
    package static func removeSocket(of listener: Listener) {
        guard case .unix(let path) = listener.address, let file = listener.file else { return }
        var now = stat()
        guard lstat(path, &now) == 0, UInt64(now.st_dev) == file.device, UInt64(now.st_ino) == file.inode else { return }
        unlink(path)
    }
}
