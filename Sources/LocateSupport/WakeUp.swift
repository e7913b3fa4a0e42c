import Glibc

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
