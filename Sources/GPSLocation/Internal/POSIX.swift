package import Glibc
import Synchronization

// The glibc calls that take raw pointers or C structures (sockets and their addresses, threads,
// name lookup), wrapped in Swift types: the one file of the library that uses them, as
// LibGPS.swift is for libgps.

/// A non-blocking descriptor pair that wakes a thread out of `poll`: any thread calls
/// `signal()`, the polling thread watches `descriptor` and calls `clear()` when it is readable.
package final class WakeUp: Sendable {
    /// The end the polling thread watches for `POLLIN`.
    package let descriptor: Int32
    private let writer: Int32

    /// A new pair, or `nil` when the process is out of descriptors.
    package init?() {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
        else {
            return nil
        }
        descriptor = pair[0]
        writer = pair[1]
    }

    /// Makes `descriptor` readable; safe from any thread, and never blocks (a full pair is awake already).
    package func signal() {
        var byte: UInt8 = 1
        _ = send(writer, &byte, 1, Int32(MSG_NOSIGNAL))
    }

    /// Empties `descriptor`, so the next `poll` waits again.
    package func clear() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while recv(descriptor, &bytes, bytes.count, 0) > 0 {}
    }

    deinit {
        close(descriptor)
        close(writer)
    }
}

/// Threads of the library's own, for work that blocks (in `poll`), so that it never runs on
/// Swift's cooperative pool.
package enum DedicatedThread {
    /// Runs `body` on a new detached thread, with SIGPIPE blocked on it: a write to a connection
    /// that gpsd closed must be an `EPIPE`, never a signal that kills the host program.
    /// - Returns: `false` when the system cannot start a thread.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                // pthread_create passes the context given below, which is never nil.
                guard let context else { return nil }
                Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

/// Waits for any of `descriptors` (with the events each asks for) until `timeout` passes;
/// `nil` waits without a limit. Fills in each descriptor's returned events.
package func waitForEvents(_ descriptors: inout [pollfd], timeout: Duration?) {
    let milliseconds = timeout.map { Int32(clamping: $0.millisecondsRoundedUp) } ?? -1
    if poll(&descriptors, nfds_t(descriptors.count), milliseconds) < 0 {
        for index in descriptors.indices { descriptors[index].revents = 0 }
    }
}

/// A failed system call, by its `errno`.
struct SystemError: Error, Equatable {
    let code: Int32

    /// The system's words for it, such as "Connection refused".
    var reason: String { String(cString: strerror(code)) }
}

/// A name lookup that failed, with the resolver's words for it.
struct LookupError: Error, Equatable {
    let reason: String
}

/// A TCP client socket: name lookup, a connect that never blocks, and sends that never raise SIGPIPE.
enum TCPSocket {
    /// One address to connect to.
    struct Address: @unchecked Sendable {
        // @unchecked: sockaddr_storage is plain bytes, copied by value.
        fileprivate var storage = sockaddr_storage()
        fileprivate var length = socklen_t(0)
        fileprivate var family = Int32(0)
    }

    /// The addresses of `host` and `port` (a number or a service name), or the lookup's error text.
    /// A numeric address or port never touches the network; a name may wait for the resolver.
    static func addresses(host: String, port: String) -> Result<[Address], LookupError> {
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
    static func isNumeric(_ host: String) -> Bool {
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
    static func startConnect(_ address: Address) -> Result<Int32, SystemError> {
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
    static func pendingError(_ descriptor: Int32) -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }

    /// Sends all of `bytes`, waiting while the socket's buffer is full, never raising SIGPIPE.
    /// - Returns: `nil` when sent, otherwise the `errno` of the failure.
    static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                guard errno == EAGAIN else { return errno }
                var descriptors = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
                waitForEvents(&descriptors, timeout: .seconds(1))
                continue
            }
            offset += sent
        }
        return nil
    }

    /// Reads what has arrived into `buffer[offset..<limit]`.
    /// - Returns: the number of bytes read, 0 at the end of the stream, or -1 (with `errno`) on an error.
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8], from offset: Int, limit: Int) -> Int {
        precondition(offset < limit && limit <= buffer.count)
        return buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            return recv(descriptor, base + offset, limit - offset, 0)
        }
    }
}

/// A name lookup on a thread of its own, so that waiting for a resolver can be abandoned on a
/// deadline or a stop: the waiting thread polls `descriptor` instead of calling `getaddrinfo`.
final class NameLookup: Sendable {
    private let wakeUp: WakeUp
    private let result = Mutex<Result<[TCPSocket.Address], LookupError>?>(nil)

    /// Starts looking up `host` and `port`; `nil` when no descriptor or thread is to be had.
    init?(host: String, port: String) {
        guard let wakeUp = WakeUp() else { return nil }
        self.wakeUp = wakeUp
        // The thread keeps the lookup alive until the resolver answers, even when its owner
        // gave up waiting; then both go.
        let started = DedicatedThread.start { [self] in
            let addresses = TCPSocket.addresses(host: host, port: port)
            result.withLock { $0 = addresses }
            wakeUp.signal()
        }
        guard started else { return nil }
    }

    /// Readable when the lookup is done.
    var descriptor: Int32 { wakeUp.descriptor }

    /// The addresses, or the lookup's error text; `nil` while the lookup runs.
    var addresses: Result<[TCPSocket.Address], LookupError>? { result.withLock { $0 } }
}
