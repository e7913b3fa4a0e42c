import LocateSupport
import Synchronization

/// What an ``MQTTClient`` tells its host about the broker.
public enum MQTTEvent: Sendable, Hashable {
    /// The broker accepted the connection; queued messages go out now.
    case connected
    /// A connection could not be made or the broker refused it; the client tries again.
    case connectionFailed(String)
    /// An established connection ended; the client connects again and sends what was not acknowledged.
    case connectionLost(String)
    /// The queue was full: this many of the oldest messages have been dropped so far, in all.
    case dropped(Int)
    /// The outbox could not keep or forget messages (a full disk): they are still sent, but a
    /// crash now would lose them, or send them again.
    case outboxFailed(String)
}

/// An MQTT client that publishes through broker outages: messages wait in a bounded queue
/// (the oldest dropped, and counted, when it is full) until the broker accepts them, in order,
/// and each is handed out only while its admission holds, checked at the moment it goes to the
/// broker, never earlier. A connection lost or refused is tried again with a capped back-off;
/// messages sent but not acknowledged are sent again (at least once: a receiver may see one twice).
///
/// Nothing handed to libmosquitto outlives a change of admission: ``admissionsChanged()``
/// drops the connection at once (a TCP reset: what waits in libmosquitto or in this host's
/// socket is lost with it) and the unacknowledged messages are admitted again before they
/// go. What the broker's host has already received cannot be recalled, so a broker that
/// stops acknowledging gets no more: a message goes out only while none handed out waits
/// for its acknowledgement much longer than the broker has been taking (see ``patience``).
///
/// With an outbox (``MQTTConfiguration/outbox``), the queue is on disk too: each message is
/// committed before it goes to the broker and deleted once acknowledged, a message whose
/// admission says no is deleted at once (not when its turn comes), and what an earlier run
/// left goes first (``restore(while:)``).
///
/// The client runs on a thread of its own (libmosquitto's calls block); every method is safe
/// from any thread or task. ``announce(_:inOrder:)`` keeps a status message that is published again on
/// every connection (an `online` for a last will's `offline`).
public final class MQTTClient: Sendable {
    /// How the client reaches the broker.
    public let configuration: MQTTConfiguration
    /// What happens with the broker, as it happens (the newest 64 kept for a slow reader).
    public let events: AsyncStream<MQTTEvent>

    private let continuation: AsyncStream<MQTTEvent>.Continuation
    private let wakeUp: WakeUp
    private let state = Mutex(State())

    private typealias Pending = QueuedMessage
    /// The outbox, opened by `start` and then the loop's alone.
    private let durable = Mutex<DurableQueue?>(nil)

    /// What the host and the loop share.
    private struct State: ~Copyable {
        /// Waiting messages are `queue[head...]`; with an outbox, each of them is kept on disk.
        var queue: [Pending] = []
        /// With an outbox: messages handed to the client and not yet kept.
        var incoming: [Pending] = []
        /// With an outbox: the admission of what an earlier run left, once the host gave it
        /// (`.some(nil)`: not authorized, so its positions go), and whether it was read.
        var restoreAdmission: (@Sendable () -> Bool)??
        var isRestored = false
        var storeFailures = 0
        /// Producers waiting for room in the queue (``waitForRoom(throughOutages:)``), by the id of
        /// their wait, and whether an outage ends their wait.
        var roomWaiters: [Int: (continuation: CheckedContinuation<Void, Never>, throughOutages: Bool)] = [:]
        var nextWaiterID = 0
        /// Whether the last connection attempt failed or the connection was lost (an outage).
        var isAway = false
        var head = 0
        var nextSequence = 0
        /// Status messages published on every connection, one per topic, and those not sent yet.
        var announcements: [MQTTMessage] = []
        var unannounced: [MQTTMessage] = []
        var dropped = 0
        var heldBack = 0
        var refused = 0
        /// Handed to the broker and not acknowledged when the client ended.
        var unacknowledged = 0
        /// Set by `finish`: the farewell messages and when to give up on them.
        var stop: (farewell: [MQTTMessage], deadline: ContinuousClock.Instant)?
        var finished: [CheckedContinuation<Void, Never>] = []
        var isRunning = false
        var hasEnded = false
        /// Set by `abandon`: end now, without the farewell or a clean disconnect.
        var isAbandoned = false
        /// How many times ``admissionsChanged()`` was called.
        var admissionChanges = 0

        var waiting: Int { queue.count - head + incoming.count }

        /// Queues a message handed over: with an outbox, for the loop to keep on disk before it
        /// goes (the bound is the loop's to keep then); otherwise at the end of the queue.
        mutating func enqueue(_ message: MQTTMessage, admits: (@Sendable () -> Bool)?, durable: Bool) {
            let pending = Pending(sequence: nextSequence, message: message, admits: admits)
            nextSequence += 1
            if durable { incoming.append(pending) } else { queue.append(pending) }
        }

        mutating func takeNext() -> Pending? {
            guard head < queue.count else { return nil }
            defer {
                head += 1
                if head >= 1024, head * 2 >= queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
            }
            return queue[head]
        }
    }

    /// A client for `configuration`; ``start()`` connects it.
    /// - Throws: ``MQTTError/unusable(_:)`` when the system has no descriptor for its wake-up.
    public init(configuration: MQTTConfiguration) throws(MQTTError) {
        guard let wakeUp = WakeUp() else { throw .unusable("out of file descriptors") }
        self.configuration = configuration
        self.wakeUp = wakeUp
        (events, continuation) = AsyncStream.makeStream(of: MQTTEvent.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Starts connecting, on the client's own thread.
    /// - Throws: ``MQTTError/unusable(_:)`` when libmosquitto refuses the configuration (a CA
    ///   file it cannot read) or no thread can be started.
    public func start() throws(MQTTError) {
        // A first handle checks the settings, so that a mistake is an error now, not a retry forever.
        _ = try makeConnection()
        if let outbox = configuration.outbox {
            let queue = try DurableQueue(outbox, broker: configuration.broker)
            durable.withLock { $0 = queue }
        }
        let starts = state.withLock { state in
            guard !state.isRunning, !state.hasEnded else { return false }
            state.isRunning = true
            return true
        }
        guard starts else { return }
        guard DedicatedThread.start({ [self] in run() }) else {
            state.withLock { $0.isRunning = false }
            throw .unusable("cannot start a thread")
        }
    }

    /// Queues `message`; it goes to the broker when connected, in order, if `admits()` still
    /// says yes at that moment (a message it refuses is dropped, and counted in ``heldBack``).
    /// - Parameters:
    ///   - message: the message, on its topic.
    ///   - admits: whether the position `message` carries may still go; `nil` for a message that
    ///     carries none (a status, a clear), which always may.
    public func publish(_ message: MQTTMessage, while admits: (@Sendable () -> Bool)? = nil) {
        let isDurable = configuration.outbox != nil
        let dropped = state.withLock { state -> Int? in
            state.enqueue(message, admits: admits, durable: isDurable)
            guard !isDurable, state.waiting > configuration.queueLimit else { return nil }
            _ = state.takeNext()
            state.dropped += 1
            return state.dropped
        }
        wakeUp.signal()
        if let dropped { continuation.yield(.dropped(dropped)) }
    }

    /// Publishes `message` now (or as soon as connected) and again on every new connection,
    /// until another announcement for its topic replaces it. It needs no admission: it is a
    /// status (`online`, `offline`), never a position.
    /// - Parameters:
    ///   - message: the status, on its topic.
    ///   - inOrder: publish it now after the messages queued before it (not ahead of them, as
    ///     an announcement otherwise goes): an `online` after the fresh position that makes it
    ///     true, so that a consumer never shows an old one as current.
    public func announce(_ message: MQTTMessage, inOrder: Bool = false) {
        let isDurable = configuration.outbox != nil
        state.withLock { state in
            state.announcements.removeAll { $0.topic == message.topic }
            state.announcements.append(message)
            state.unannounced.removeAll { $0.topic == message.topic }
            if inOrder {
                // Behind what was handed over before it (with an outbox, that waits to be kept).
                state.enqueue(message, admits: nil, durable: isDurable)
            } else {
                state.unannounced.append(message)
            }
        }
        wakeUp.signal()
    }

    /// Gives the admission of what an earlier run left in the outbox (positions taken before this
    /// run): it goes first, in order, while `admits` says yes; `nil` (location not authorized now,
    /// or reduced) deletes those positions from disk, unsent. With an outbox, nothing is sent
    /// until this is called, so that nothing overtakes what waited. Without one, it does nothing.
    /// - Parameter admits: whether what waited may still go, asked when each goes; `nil` deletes it.
    public func restore(while admits: (@Sendable () -> Bool)?) {
        state.withLock { $0.restoreAdmission = .some(admits) }
        wakeUp.signal()
    }

    /// Returns once the queue has room (fewer than half its bound wait), the client has ended,
    /// or the task is cancelled, and, unless `throughOutages`, once the broker is away (an outage
    /// then drops the oldest, as ever): for a producer that can go at the broker's pace (a replay
    /// as fast as it is read; a fleet monitor whose own source keeps its backlog meanwhile), so
    /// that it does not overrun the bound.
    /// - Parameter throughOutages: keep waiting while the broker is away (the producer's own
    ///   source keeps its backlog meanwhile).
    public func waitForRoom(throughOutages: Bool = false) async {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let limit = configuration.queueLimit
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if Task.isCancelled || state.hasEnded || (state.isAway && !throughOutages) || state.waiting < limit / 2 {
                        return true
                    }
                    state.roomWaiters[id] = (continuation, throughOutages)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.roomWaiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Wakes the producers waiting for room, when there is room or the broker is away (`away`,
    /// when the loop knows it).
    private func releaseRoom(away: Bool? = nil) {
        let limit = configuration.queueLimit
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if let away { state.isAway = away }
            guard !state.roomWaiters.isEmpty else { return [] }
            let hasRoom = state.hasEnded || state.waiting < limit / 2
            let released = state.roomWaiters.filter { hasRoom || (state.isAway && !$0.value.throughOutages) }
            for id in released.keys { state.roomWaiters[id] = nil }
            return released.values.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many times the outbox could not keep or forget messages (a full disk): not 0 means a
    /// crash could have lost or repeated them.
    public var outboxFailures: Int { state.withLock { $0.storeFailures } }

    /// Says that the admissions may have changed (an authorization changed, updates paused):
    /// a connection holding a message not acknowledged (at QoS 0: not written) whose admission
    /// now says no is dropped at once, with whatever libmosquitto and the socket still hold, and
    /// made again; messages not acknowledged are queued again at the head, and each goes out
    /// only if its admission still says yes. Every queued message its admission now refuses is
    /// dropped at once (and deleted from the outbox).
    public func admissionsChanged() {
        state.withLock { $0.admissionChanges += 1 }
        wakeUp.signal()
    }

    /// The shortest wait for an acknowledgement after which no more messages are handed out
    /// until it comes: a broker that stalls gets at most the messages of that moment. The
    /// wait grows to four times the broker's usual time to acknowledge.
    public static let patience = Duration.milliseconds(100)

    /// How many queued messages were dropped because the queue was full.
    public var dropped: Int { state.withLock { $0.dropped } }
    /// How many queued messages their admission held back when their turn came.
    public var heldBack: Int { state.withLock { $0.heldBack } }
    /// How many messages wait for the broker.
    public var waiting: Int { state.withLock { $0.waiting } }
    /// How many messages the broker acknowledged with a refusal (an MQTT 5 reason code of
    /// 0x80 or above: its access rules do not let this client publish there, a quota): not delivered.
    public var refused: Int { state.withLock { $0.refused } }
    /// How many messages were handed to the broker and never acknowledged (at QoS 0: never
    /// written) when the client ended: not known to be delivered.
    public var unacknowledged: Int { state.withLock { $0.unacknowledged } }

    /// Ends the client: what is queued goes out first, then `farewell` (an `offline`, since a
    /// clean disconnect keeps the last will to the broker), and the client disconnects once the
    /// broker acknowledged them, or at `deadline`, whichever comes first; a broker that is away
    /// is tried until then. What is still queued at the deadline is lost (``waiting`` says how
    /// much), and so may be what the broker did not acknowledge (``unacknowledged``).
    /// It returns by the deadline (and a quarter of a second) even when the client's thread is
    /// held up in a name lookup that does not answer.
    public func finish(farewell: [MQTTMessage], within deadline: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.isRunning else { return true }
                if state.stop == nil { state.stop = (farewell, .now + deadline) }
                state.finished.append(continuation)
                return false
            }
            if done { continuation.resume() }
            wakeUp.signal()
            guard !done else { return }
            Task { [self] in
                try? await Task.sleep(for: deadline + .milliseconds(250))
                for waiter in state.withLock({ state in
                    defer { state.finished = [] }
                    return state.finished
                }) {
                    waiter.resume()
                }
            }
        }
    }

    /// Ends the client now (a second signal): what is queued and the farewell are given up, and
    /// the connection is closed without a goodbye, so the broker publishes the last will. What
    /// was not delivered stays counted (``waiting``, ``unacknowledged``).
    public func abandon() {
        state.withLock { state in
            state.isAbandoned = true
            state.stop = (state.stop?.farewell ?? [], .now)
        }
        wakeUp.signal()
    }

    /// Whether ``abandon()`` cut the end short.
    public var wasAbandoned: Bool { state.withLock { $0.isAbandoned } }

    // MARK: - The loop, on the client's thread

    /// What the loop knows about the connection it holds.
    private struct Link {
        let connection: any PublishingConnection
        let opened = ContinuousClock.now
        var isUp = false
        /// Messages given to libmosquitto and not acknowledged (QoS 0: not written), by id, and when they were given.
        var inFlight: [Int32: (pending: Pending, since: ContinuousClock.Instant)] = [:]
        /// The farewell's ids, once it is sent.
        var farewell: Set<Int32>?
    }

    private func run() {
        var link: Link?
        var waiter = EventWait(wakeUp: wakeUp)
        var delay = configuration.reconnectDelay
        var nextAttempt = ContinuousClock.now
        var admissionChanges = 0
        /// The broker's usual time to acknowledge (smoothed as TCP smooths its round trip).
        var roundTrip = Duration.zero
        /// With a send interval: when the next burst may start, and whether one is on (connecting,
        /// and trying again as ever, until everything went).
        var nextBurst = ContinuousClock.now
        var isBursting = false
        while true {
            let (stop, changes) = state.withLock { ($0.stop, $0.admissionChanges) }
            if changes != admissionChanges {
                admissionChanges = changes
                // Only a connection that holds a message its admission now refuses: statuses, a
                // clear, or records still admitted need no new one (and no will published for it).
                if let current = link, current.inFlight.values.contains(where: { !$0.pending.isAdmitted }) {
                    // Now, before anything else can be written: the reset takes libmosquitto's queue with it.
                    current.connection.abort()
                    requeue(current)
                    link = nil
                    nextAttempt = .now
                }
                dropRefused()
                if link == nil { continue }
            }
            keepIncoming()
            releaseRoom()
            if let stop, ContinuousClock.now >= stop.deadline || link?.farewell?.isEmpty == true {
                if link?.isUp == true, !state.withLock({ $0.isAbandoned }) { link?.connection.disconnect() }
                break
            }
            guard var current = link else {
                let now = ContinuousClock.now
                if let interval = configuration.sendInterval, stop == nil, !isBursting {
                    // Held until the burst, and connected only when there is something to send.
                    let hasWork = state.withLock { $0.waiting > 0 || !$0.unannounced.isEmpty }
                    if !hasWork || now < nextBurst {
                        waiter.wait(for: nil, until: hasWork ? nextBurst : now + .seconds(3600))
                        continue
                    }
                    nextBurst = now + interval
                    isBursting = true
                }
                if now < nextAttempt {
                    waiter.wait(for: nil, until: min(nextAttempt, stop?.deadline ?? nextAttempt))
                    continue
                }
                link = open()
                if link == nil {
                    releaseRoom(away: true)
                    nextAttempt = .now + delay
                    delay = min(delay * 2, configuration.maximumReconnectDelay)
                }
                continue
            }
            let patience = max(Self.patience, roundTrip * 4)
            if current.isUp, state.withLock({ $0.isRestored }) || configuration.outbox == nil {
                send(on: &current, stopping: stop != nil, patience: patience)
                // The burst is over once everything went and was acknowledged: away until the next.
                if configuration.sendInterval != nil, stop == nil, current.inFlight.isEmpty,
                    state.withLock({ $0.waiting == 0 && $0.unannounced.isEmpty })
                {
                    current.connection.disconnect()
                    link = nil
                    isBursting = false
                    continue
                }
                // Nothing left to wait for (no farewell, or none that could be sent): end now.
                if current.farewell?.isEmpty == true {
                    link = current
                    continue
                }
            }
            // Until something happens, a second has passed, or the patience with the oldest unacknowledged runs out.
            var wake = min(.now + .seconds(1), stop?.deadline ?? .now + .seconds(1))
            if let oldest = current.inFlight.values.map(\.since).min(), oldest + patience > .now { wake = min(wake, oldest + patience) }
            // What is reported already (messages written as they were handed over) is taken now, not after a wait.
            if current.connection.hasEvents { wake = .now }
            var failure: String?
            if !current.connection.waitsOnSocket {
                if !current.connection.hasEvents { waiter.wait(for: nil, until: wake) }
                failure = current.connection.service(readable: false)
            } else if let socket = current.connection.socket {
                let ready = waiter.wait(for: socket, until: wake)
                failure = current.connection.service(readable: ready.isReadable || ready.isHangUpOrError)
            } else {
                failure = "the connection was closed"
            }
            var acknowledged: [Pending] = []
            defer { forget(acknowledged) }
            for event in current.connection.takeEvents() {
                switch event {
                case .connected(nil):
                    current.isUp = true
                    releaseRoom(away: false)
                    delay = configuration.reconnectDelay
                    state.withLock { $0.unannounced = $0.announcements }
                    continuation.yield(.connected)
                case .connected(let refusal?):
                    failure = "the broker refused the connection: \(refusal)"
                case .acknowledged(let id, let refused):
                    if let (pending, since) = current.inFlight.removeValue(forKey: id) {
                        acknowledged.append(pending)
                        let sample = since.duration(to: .now)
                        roundTrip = roundTrip == .zero ? sample : (roundTrip * 7 + sample) / 8
                        if refused { state.withLock { $0.refused += 1 } }
                    }
                    current.farewell?.remove(id)
                }
            }
            if failure == nil, !current.isUp, current.opened.duration(to: .now) > .seconds(10) {
                failure = "the broker did not answer the connection in 10 s"
            }
            guard let failure else {
                link = current
                continue
            }
            requeue(current)
            // Worded as a failed connect is in `open`, so that the host says a cause once, not at every attempt.
            let said = current.isUp ? "\(configuration.broker): \(failure)" : "cannot reach \(configuration.broker): \(failure)"
            continuation.yield(current.isUp ? .connectionLost(said) : .connectionFailed(said))
            releaseRoom(away: true)
            link = nil
            nextAttempt = .now + delay
            delay = min(delay * 2, configuration.maximumReconnectDelay)
        }
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.unacknowledged = link?.inFlight.count ?? 0
            state.isRunning = false
            state.hasEnded = true
            defer { state.finished = [] }
            return state.finished
        }
        durable.withLock { $0 }?.close()
        continuation.finish()
        for waiter in waiting { waiter.resume() }
        releaseRoom()
    }

    // MARK: - The outbox, on the client's thread

    /// With an outbox: reads what an earlier run left once the host gave its admission, then
    /// keeps what was handed over since, in one commit, and queues it; past the bound, the
    /// oldest go (from disk too). A message its admission refuses is not kept.
    private func keepIncoming() {
        guard let queue = durable.withLock({ $0 }) else { return }
        let restore = state.withLock { state -> (@Sendable () -> Bool)?? in
            guard !state.isRestored, let admission = state.restoreAdmission else { return nil }
            return .some(admission)
        }
        if let restore {
            let kept: [Pending]
            do throws(MQTTError) {
                kept = try queue.restore(while: restore)
            } catch {
                noteFailure(error)
                kept = []
            }
            state.withLock { state in
                state.queue.replaceSubrange(state.head..<state.head, with: kept)
                state.isRestored = true
            }
        }
        var incoming = state.withLock { state in
            defer { state.incoming = [] }
            return state.incoming
        }
        guard !incoming.isEmpty else { return }
        let refused = incoming.filter { !$0.isAdmitted }.count
        incoming.removeAll { !$0.isAdmitted }
        do throws(MQTTError) { try queue.keep(&incoming) } catch { noteFailure(error) }
        let (dropped, total) = state.withLock { state -> ([Pending], Int) in
            state.heldBack += refused
            state.queue += incoming
            var dropped: [Pending] = []
            while state.queue.count - state.head > configuration.queueLimit, let oldest = state.takeNext() { dropped.append(oldest) }
            state.dropped += dropped.count
            return (dropped, state.dropped)
        }
        guard !dropped.isEmpty else { return }
        forget(dropped)
        continuation.yield(.dropped(total))
    }

    /// Drops every queued message its admission refuses now (a revoke), from disk too.
    private func dropRefused() {
        let refused = state.withLock { state -> [Pending] in
            let waiting = state.queue[state.head...]
            let refused = waiting.filter { !$0.isAdmitted }
            guard !refused.isEmpty else { return [] }
            state.queue = waiting.filter(\.isAdmitted)
            state.head = 0
            state.heldBack += refused.count
            let incoming = state.incoming.filter { !$0.isAdmitted }
            state.incoming.removeAll { !$0.isAdmitted }
            state.heldBack += incoming.count
            return refused
        }
        forget(refused, scrubbing: true)
    }

    /// Deletes the rows of `messages` (acknowledged, dropped, refused).
    /// - Parameter scrubbing: leave none of their bytes on disk (positions no longer admitted).
    private func forget(_ messages: [Pending], scrubbing: Bool = false) {
        guard !messages.isEmpty, let queue = durable.withLock({ $0 }) else { return }
        do throws(MQTTError) { try queue.forget(messages, scrubbing: scrubbing) } catch { noteFailure(error) }
    }

    /// Counts and reports a failure of the outbox; the work goes on without it.
    private func noteFailure(_ error: MQTTError) {
        state.withLock { $0.storeFailures += 1 }
        continuation.yield(.outboxFailed(error.description))
    }

    /// Not acknowledged: back to the head of the queue, in order, to be admitted again.
    private func requeue(_ link: Link) {
        let unacknowledged = link.inFlight.values.map(\.pending).sorted { $0.sequence < $1.sequence }
        state.withLock { state in
            state.queue.replaceSubrange(state.head..<state.head, with: unacknowledged)
        }
    }

    /// A connection of the kind the destination needs: a broker's, or an HTTP endpoint's.
    private func makeConnection() throws(MQTTError) -> any PublishingConnection {
        configuration.broker.isHTTP
            ? try CurlConnection(configuration) { [wakeUp] in wakeUp.signal() } : try MosquittoConnection(configuration)
    }

    /// A new connection, handed to the broker; `nil` (and an event) when it cannot be made.
    private func open() -> Link? {
        do throws(MQTTError) {
            let connection = try makeConnection()
            if let failure = connection.connect(
                host: configuration.broker.host, port: configuration.broker.port,
                keepalive: Int(configuration.keepalive.components.seconds))
            {
                continuation.yield(.connectionFailed("cannot reach \(configuration.broker): \(failure)"))
                return nil
            }
            return Link(connection: connection, isUp: connection.isUpBeforeItAnswers)
        } catch {
            continuation.yield(.connectionFailed(error.description))
            return nil
        }
    }

    /// Hands libmosquitto the announcements, then queued messages up to the window, each if it
    /// is still admitted, and none while the broker is late with an acknowledgement (`patience`);
    /// stopping, the farewell once nothing else is left.
    private func send(on link: inout Link, stopping: Bool, patience: Duration) {
        for message in state.withLock({ state in
            defer { state.unannounced = [] }
            return state.unannounced
        }) {
            _ = link.connection.publish(message, while: nil)
        }
        let now = ContinuousClock.now
        if link.inFlight.values.contains(where: { $0.since + patience < now }) { return }
        let window = configuration.broker.isHTTP ? 1 : configuration.window
        while link.inFlight.count < window, let next = state.withLock({ $0.takeNext() }) {
            guard next.isAdmitted else {
                state.withLock { $0.heldBack += 1 }
                // Gone from disk too: refused now, it must never go, in this run or a later one.
                forget([next], scrubbing: true)
                continue
            }
            if let id = link.connection.publish(next.message, while: next.admits) {
                // QoS 0 too, until it is written: libmosquitto would otherwise keep what a stalled broker does not read.
                link.inFlight[id] = (next, now)
            }
        }
        guard stopping, link.farewell == nil, link.inFlight.isEmpty, state.withLock({ $0.waiting == 0 }) else { return }
        let farewell = state.withLock { $0.stop?.farewell ?? [] }
        link.farewell = Set(farewell.compactMap { link.connection.publish($0, while: nil) })
    }
}
