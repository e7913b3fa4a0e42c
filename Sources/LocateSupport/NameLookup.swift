import Synchronization

/// A name lookup on a thread of its own, so that waiting for a resolver can be abandoned on a
/// deadline or a stop: the waiting thread polls `descriptor` instead of calling `getaddrinfo`.
package final class NameLookup: Sendable {
    private let wakeUp: WakeUp
    private let result = Mutex<Result<[TCPSocket.Address], LookupError>?>(nil)

    /// Starts looking up `host` and `port`; `nil` when no descriptor or thread is to be had.
    package init?(host: String, port: String) {
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
    package var descriptor: Int32 { wakeUp.descriptor }

    /// The addresses, or the lookup's error text; `nil` while the lookup runs.
    package var addresses: Result<[TCPSocket.Address], LookupError>? { result.withLock { $0 } }
}
