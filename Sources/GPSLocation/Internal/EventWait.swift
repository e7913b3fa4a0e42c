package import Glibc

/// One thread's wait in `poll`, the one way the library's threads wait: for the descriptor its
/// work needs (gpsd's socket, inotify, a connecting socket), for its wake-up (which any thread
/// signals to cut the wait short: a stop, room in a queue, a new decision), and at most until a
/// deadline.
package struct EventWait {
    private let wakeUp: WakeUp?
    /// The wake-up's descriptor, then the one waited for (`-1`: none, which `poll` skips).
    private var descriptors = [pollfd(fd: -1, events: 0, revents: 0), pollfd(fd: -1, events: 0, revents: 0)]

    /// A wait that `wakeUp` can cut short (`nil`: only the descriptor and the deadline end it).
    package init(wakeUp: WakeUp?) {
        self.wakeUp = wakeUp
        if let wakeUp { descriptors[0] = pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0) }
    }

    /// Waits until `request`'s descriptor has one of its events, the wake-up is signalled, or
    /// `deadline` passes (`nil`: no deadline); a signalled wake-up is cleared.
    /// - Returns: the events `request`'s descriptor has (0 when it has none, or there is none).
    @discardableResult
    package mutating func wait(for request: pollfd?, until deadline: ContinuousClock.Instant?) -> Int16 {
        descriptors[1] = request ?? pollfd(fd: -1, events: 0, revents: 0)
        let milliseconds = deadline.map { Int32(clamping: ContinuousClock.now.duration(to: $0).millisecondsRoundedUp) } ?? -1
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return 0 }
        if descriptors[0].revents != 0 { wakeUp?.clear() }
        return descriptors[1].revents
    }
}
