import Glibc

/// What a wait waits for on one descriptor: to read from it (or its end or error), to write to
/// it (a connection being made), or, for a peer's connection, either or neither while its
/// hang-up is always watched. The results say the same of what happened.
package struct PollRequest: Sendable, Equatable {
    /// `POLLRDHUP` (Linux's, which Glibc's module leaves out: it needs `_GNU_SOURCE`).
    static let peerHangUp: Int16 = 0x2000

    /// The descriptor.
    package let descriptor: Int32
    /// The `poll` events asked for.
    let events: Int16

    /// Waiting to read `descriptor`.
    package static func reading(_ descriptor: Int32) -> PollRequest { PollRequest(descriptor: descriptor, events: Int16(POLLIN)) }

    /// Waiting to write `descriptor`.
    package static func writing(_ descriptor: Int32) -> PollRequest { PollRequest(descriptor: descriptor, events: Int16(POLLOUT)) }

    /// A peer's connection: to read it and to write it as asked, and, always, its hang-up (the
    /// peer closed its end or reset it, `POLLRDHUP`), so that a peer that is neither read nor
    /// written now is still seen going away.
    package static func peer(_ descriptor: Int32, reading: Bool, writing: Bool) -> PollRequest {
        PollRequest(
            descriptor: descriptor, events: peerHangUp | (reading ? Int16(POLLIN) : 0) | (writing ? Int16(POLLOUT) : 0))
    }
}

/// What a descriptor had when a wait ended.
package struct PollEvents: Sendable, Equatable {
    let raw: Int16

    /// Nothing: the wait ended for another reason.
    package static let none = PollEvents(raw: 0)
    /// Whether it had anything (something to read, room to write, an end or an error).
    package var isEmpty: Bool { raw == 0 }
    /// Whether it has something to read (or its end).
    package var isReadable: Bool { raw & Int16(POLLIN) != 0 }
    /// Whether it can be written.
    package var isWritable: Bool { raw & Int16(POLLOUT) != 0 }
    /// Whether the other end hung up, or the descriptor failed.
    package var isHangUpOrError: Bool { raw & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 }
    /// Whether the peer of a connection is gone: it closed its end (`POLLRDHUP`), hung up, or
    /// the connection failed (reset).
    package var isPeerGone: Bool { raw & (PollRequest.peerHangUp | Int16(POLLHUP | POLLERR | POLLNVAL)) != 0 }
}

/// One thread's wait in `poll`, the one way the library's threads wait: for the descriptor its
/// work needs (gpsd's socket, inotify, a connecting socket), or the many a server has (its
/// listeners and clients), for its wake-up (which any thread signals to cut the wait short: a
/// stop, room in a queue, a new decision), and at most until a deadline.
package struct EventWait {
    /// The one tick of the library's waits: how often a wait looks at what no descriptor
    /// announces (the process's terminal state, a settings file's `stat` signature when inotify
    /// missed a change, whether a pipe's reader was stopped, a replay's queue). The bound on how
    /// late such a change is noticed.
    package static let tick = Duration.milliseconds(200)

    private let wakeUp: WakeUp?
    /// The wake-up's descriptor, then those waited for (`-1`: none, which `poll` skips).
    private var descriptors = [pollfd(fd: -1, events: 0, revents: 0), pollfd(fd: -1, events: 0, revents: 0)]

    /// A wait that `wakeUp` can cut short (`nil`: only the descriptor and the deadline end it).
    package init(wakeUp: WakeUp?) {
        self.wakeUp = wakeUp
        if let wakeUp { descriptors[0] = pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0) }
    }

    /// Waits until `request`'s descriptor has one of its events, the wake-up is signalled, or
    /// `deadline` passes (`nil`: no deadline); a signalled wake-up is cleared.
    /// - Returns: the events `request`'s descriptor has (`.none` when it has none, or there is none).
    @discardableResult
    package mutating func wait(for request: PollRequest?, until deadline: ContinuousClock.Instant?) -> PollEvents {
        descriptors.removeSubrange(1...)
        descriptors.append(
            request.map { pollfd(fd: $0.descriptor, events: $0.events, revents: 0) } ?? pollfd(fd: -1, events: 0, revents: 0))
        guard waitForAny(until: deadline) else { return .none }
        return PollEvents(raw: descriptors[1].revents)
    }

    /// Waits until one of `requests` has one of its events (a server's listeners and clients),
    /// the wake-up is signalled, or `deadline` passes; a signalled wake-up is cleared.
    /// - Returns: the events of each request, in order.
    package mutating func wait(for requests: [PollRequest], until deadline: ContinuousClock.Instant?) -> [PollEvents] {
        descriptors.removeSubrange(1...)
        for request in requests { descriptors.append(pollfd(fd: request.descriptor, events: request.events, revents: 0)) }
        guard waitForAny(until: deadline) else { return Array(repeating: .none, count: requests.count) }
        return descriptors.dropFirst().map { PollEvents(raw: $0.revents) }
    }

    /// `poll` on the descriptors as set; whether any had an event (the wake-up's cleared).
    private mutating func waitForAny(until deadline: ContinuousClock.Instant?) -> Bool {
        let milliseconds = deadline.map { Int32(clamping: ContinuousClock.now.duration(to: $0).millisecondsRoundedUp) } ?? -1
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return false }
        if descriptors[0].revents != 0 { wakeUp?.clear() }
        return true
    }
}
