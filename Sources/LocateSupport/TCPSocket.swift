import Glibc

/// A failed system call, by its `errno`.
package struct SystemError: Error, Equatable {
    package let code: Int32

    /// The error of `code`.
    package init(code: Int32) {
        self.code = code
    }

    /// The error the last failed call left in `errno`.
    package static var last: SystemError { SystemError(code: errno) }

    /// A refused connection: what a port nobody listens on says.
    package static let connectionRefused = SystemError(code: ECONNREFUSED)

    /// The system's words for it, such as "Connection refused".
    package var reason: String { String(cString: strerror(code)) }
}

/// A name lookup that failed, with the resolver's words for it.
package struct LookupError: Error, Equatable {
    package let reason: String

    /// The failure `reason` describes.
    package init(reason: String) {
        self.reason = reason
    }
}

/// A TCP client socket: name lookup, a connect that never blocks, and sends that never raise SIGPIPE.
package enum TCPSocket {
    /// One address to connect to.
    package struct Address: @unchecked Sendable {
        // @unchecked: sockaddr_storage is plain bytes, copied by value.
        fileprivate var storage = sockaddr_storage()
        fileprivate var length = socklen_t(0)
        fileprivate var family = Int32(0)

        /// The socket address, its length and its family, for a listener's bind.
        var parts: (storage: sockaddr_storage, length: socklen_t, family: Int32) { (storage, length, family) }
    }

    /// The addresses of `host` and `port` (a number or a service name), or the lookup's error text.
    /// A numeric address or port never touches the network; a name may wait for the resolver.
    package static func addresses(host: String, port: String) -> Result<[Address], LookupError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &list)
        guard status == 0 else { return .failure(LookupError(reason: String(cString: gai_strerror(status)))) }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var next = list
        while let entry = next {
            var address = Address()
            let length = Int(entry.pointee.ai_addrlen)
            if let source = entry.pointee.ai_addr, length <= MemoryLayout<sockaddr_storage>.size {
                withUnsafeMutableBytes(of: &address.storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: source, count: length))
                }
                address.length = socklen_t(length)
                address.family = entry.pointee.ai_family
                addresses.append(address)
            }
            next = entry.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(LookupError(reason: "no address")) : .success(addresses)
    }

    /// Whether `host` is an address written out (`127.0.0.1`, `::1`), which needs no lookup.
    package static func isNumeric(_ host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return false }
        freeaddrinfo(list)
        return true
    }

    /// Starts connecting a new non-blocking socket to `address`.
    /// - Returns: the socket (connected or still connecting; wait for `POLLOUT`, then check
    ///   `pendingError`), or the `errno` of the failure.
    package static func startConnect(_ address: Address) -> Result<Int32, SystemError> {
        let descriptor = socket(
            address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(SystemError(code: errno)) }
        var storage = address.storage
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, address.length) }
        }
        if status == 0 || errno == EINPROGRESS { return .success(descriptor) }
        let failure = SystemError(code: errno)
        close(descriptor)
        return .failure(failure)
    }

    /// The outcome of a connect that has finished (the socket polled writable): 0 when connected.
    package static func pendingError(_ descriptor: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// Sends all of `bytes`, waiting while the socket's buffer is full, never raising SIGPIPE.
    /// - Returns: `nil` when sent, otherwise the `errno` of the failure.
    package static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                guard errno == EAGAIN else { return errno }
                var wait = EventWait(wakeUp: nil)
                wait.wait(for: .writing(descriptor), until: .now.advanced(by: .seconds(1)))
                continue
            }
            offset += sent
        }
        return nil
    }

    /// What a read of a socket found.
    package enum Received: Equatable {
        /// This many bytes.
        case bytes(Int)
        /// Nothing yet (the socket does not block).
        case nothing
        /// The other end closed the connection, or it failed.
        case closed
    }

    /// Reads what has arrived into `buffer[offset..<limit]`.
    package static func receive(_ descriptor: Int32, into buffer: inout [UInt8], from offset: Int, limit: Int) -> Received {
        precondition(offset < limit && limit <= buffer.count)
        let count = buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            return recv(descriptor, base + offset, limit - offset, 0)
        }
        if count > 0 { return .bytes(count) }
        if count < 0, errno == EAGAIN || errno == EINTR { return .nothing }
        return .closed
    }

    /// Whether the peer of the connection `descriptor` has closed its end or reset it (without
    /// waiting).
    package static func isPeerGone(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: PollRequest.peerHangUp, revents: 0)
        return poll(&request, 1, 0) == 1 && PollEvents(raw: request.revents).isPeerGone
    }

    /// Closes a socket of this type's.
    package static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}
