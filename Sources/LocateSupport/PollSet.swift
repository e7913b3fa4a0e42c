import Glibc

/// One thread's wait in `poll` on many descriptors at once (a server's listeners and clients),
/// with a wake-up that any thread signals to cut it short, and a deadline.
package struct PollSet {
    private let wakeUp: WakeUp
    private var descriptors: [pollfd] = []

    /// A wait that `wakeUp` cuts short.
    package init(wakeUp: WakeUp) {
        self.wakeUp = wakeUp
    }

    /// Waits until one of `requests` has an event (reading: something to read, its end or an
    /// error; writing: room to write; a peer's hang-up), the wake-up is signalled (and is
    /// cleared), or `deadline` passes.
    /// - Returns: the events of each request, in order.
    package mutating func wait(for requests: [PollRequest], until deadline: ContinuousClock.Instant?) -> [PollEvents] {
        descriptors.removeAll(keepingCapacity: true)
        descriptors.append(pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0))
        for request in requests {
            descriptors.append(pollfd(fd: request.descriptor, events: request.events, revents: 0))
        }
        let milliseconds = deadline.map { Int32(clamping: ContinuousClock.now.duration(to: $0).millisecondsRoundedUp) } ?? -1
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else {
            return Array(repeating: .none, count: requests.count)
        }
        if descriptors[0].revents != 0 { wakeUp.clear() }
        return descriptors.dropFirst().map { PollEvents(raw: $0.revents) }
    }
}
