import Glibc

/// One live stream of `GPSLocationManager.liveUpdates(_:)`, run by one dedicated thread: it
/// follows the permission, and reads gpsd only while positions are authorized.
///
/// Everything the stream depends on is a descriptor or a deadline in one `poll`: gpsd's socket
/// (through `GPSDLink`), the settings watcher's inotify, the tick that rechecks the files'
/// signatures and the terminal state, and a wake-up for the consumer (which stops the session
/// or makes room in the queue). So nothing is handed between threads but the updates, no
/// change signal can be lost, and a stop takes effect at once, whatever gpsd's port does.
final class LiveUpdateSession {
    /// A stream refreshes the last-fix cache at most this often.
    private static let cacheInterval = Duration.seconds(5)

    private let configuration: GPSLocationConfiguration
    private let queue: LiveUpdateQueue
    private let wakeUp: WakeUp
    private let watcher: SettingsWatcher
    private var tracker: PermissionTracker
    private var permission: Permission { tracker.permission }
    private var link: GPSDLink? {
        didSet { linkGeneration += 1 }
    }
    /// Counts changes to the link, so that events polled for a link that was since replaced are not given to the new one.
    private var linkGeneration = 0
    private var gate = PositionGate()
    private var filter: LiveUpdateFilter
    private var previousFix: Location?
    private var lastStatus: LocationStatusEvent?
    private var lastCached: ContinuousClock.Instant?
    private var nextTick: ContinuousClock.Instant
    private var outbox: [LocationUpdate] = []
    private var isFinished = false

    /// Starts a session on its own thread; its updates arrive in the returned queue.
    static func start(configuration: GPSLocationConfiguration, options: LiveUpdateOptions) -> LiveUpdateQueue {
        guard let wakeUp = WakeUp() else {
            return finishedQueue(GPSLocationError.gpsdUnreachable(endpoint: configuration.endpoint, reason: "out of file descriptors"))
        }
        let queue = LiveUpdateQueue(producerWakeUp: wakeUp)
        let started = DedicatedThread.start {
            // The watcher comes first, so that a change made while the files are read is seen.
            let watcher = SettingsWatcher(configuration.permission.files)
            let tracker: PermissionTracker
            do {
                tracker = try PermissionTracker(configuration.permission)
            } catch {
                queue.finish(throwing: error)
                return
            }
            LiveUpdateSession(configuration: configuration, options: options, queue: queue, wakeUp: wakeUp,
                              watcher: watcher, tracker: tracker).run()
        }
        if !started {
            queue.finish(throwing: GPSLocationError.gpsdUnreachable(endpoint: configuration.endpoint, reason: "cannot start a thread"))
        }
        return queue
    }

    private static func finishedQueue(_ error: any Error) -> LiveUpdateQueue {
        let queue = LiveUpdateQueue(producerWakeUp: nil)
        queue.finish(throwing: error)
        return queue
    }

    private init(
        configuration: GPSLocationConfiguration, options: LiveUpdateOptions, queue: LiveUpdateQueue, wakeUp: WakeUp,
        watcher: SettingsWatcher, tracker: PermissionTracker
    ) {
        self.configuration = configuration
        self.queue = queue
        self.wakeUp = wakeUp
        self.watcher = watcher
        self.tracker = tracker
        filter = LiveUpdateFilter(options: options)
        nextTick = ContinuousClock.now.advanced(by: SettingsWatcher.tick)
    }

    private func run() {
        defer { link?.close() }
        if permission.isRefusal { configuration.cache?.purge() }
        if permission.isAuthorized {
            link = startLink()
        } else {
            report(permission.isPausedInBackground ? .paused : .authorizationChanged(status: permission.status, denial: permission.denial))
        }
        flush()
        var events: [GPSDLink.Event] = []
        while !isFinished, !queue.isCancelled {
            var descriptors = [pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)]
            if let inotify = watcher.descriptor { descriptors.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
            let stallDeadline = queue.dropIfStalled(now: .now)
            // Back-pressure: while the consumer's queue is full, gpsd waits in the socket.
            var polled: (index: Int, generation: Int)?
            if stallDeadline == nil, let request = link?.pollRequest {
                polled = (descriptors.count, linkGeneration)
                descriptors.append(request)
            }
            let wakeAt = [nextTick, link?.nextDeadline, stallDeadline].compactMap { $0 }.min() ?? nextTick
            waitForEvents(&descriptors, timeout: ContinuousClock.now.duration(to: wakeAt))
            let now = ContinuousClock.now
            if descriptors[0].revents != 0 { wakeUp.clear() }
            if queue.isCancelled { break }
            let inotifyReadable = watcher.descriptor != nil && descriptors[1].revents != 0
            if inotifyReadable || now >= nextTick {
                if now >= nextTick { nextTick = now.advanced(by: SettingsWatcher.tick) }
                settingsChanged(reload: watcher.filesChanged())
            }
            if link != nil, !isFinished {
                let revents = polled.flatMap { $0.generation == linkGeneration ? descriptors[$0.index].revents : nil } ?? 0
                events.removeAll(keepingCapacity: true)
                link?.advance(revents, now: now, events: &events)
                for event in events { handle(event, at: now) }
            }
            flush()
        }
    }

    private func startLink() -> GPSDLink {
        previousFix = nil
        return GPSDLink(configuration: configuration, poll: true, reconnects: true, now: .now)
    }

    // MARK: - Permission

    private func settingsChanged(reload: Bool) {
        let old: Permission
        do {
            old = try tracker.update(filesChanged: reload)
        } catch {
            // Fail closed: a file that cannot be read any more ends the stream.
            finish(throwing: error)
            return
        }
        if permission.accuracy != old.accuracy { gate.reset() }
        switch (old.isAuthorized, permission.isAuthorized) {
        case (false, true):
            report(old.isPausedInBackground ? .resumed : .authorizationChanged(status: permission.status, denial: nil))
            link = startLink()
        case (true, false):
            link?.close()
            link = nil
            if permission.isRefusal { configuration.cache?.purge() }
            report(permission.isPausedInBackground ? .paused : .authorizationChanged(status: permission.status, denial: permission.denial))
        case (false, false) where old.denial != permission.denial && !permission.isPausedInBackground:
            report(.authorizationChanged(status: permission.status, denial: permission.denial))
        default:
            break
        }
    }

    // MARK: - gpsd

    private func handle(_ event: GPSDLink.Event, at now: ContinuousClock.Instant) {
        let endpoint = configuration.endpoint
        switch event {
        case .report(.fix(let location)):
            lastStatus = nil
            defer { previousFix = location }
            if let previousFix, location.repeatsEpoch(of: previousFix) { return }
            guard let released = gate.release(location, under: permission, at: now) else { return }
            if lastCached.map({ $0.duration(to: now) >= Self.cacheInterval }) ?? true {
                configuration.cache?.store(released)
                lastCached = now
            }
            guard filter.admit(released, at: now) else { return }
            outbox.append(.location(released))
        case .report(.noFix):
            report(.noFix)
        case .report(.devices(let paths)):
            if !endpoint.isServed(by: paths) { report(.noDevice) }
        case .report(.deviceAdded):
            break
        case .report(.error(let message)):
            finish(throwing: GPSLocationError.gpsdRefused(endpoint: endpoint, message: message))
        case .report(.other):
            break
        case .lost(let retryIn):
            report(.gpsdLost(retryIn: retryIn))
        case .reconnected:
            report(.reconnected)
        case .failed(let error):
            finish(throwing: error)
        }
    }

    // MARK: - Output


    /// Emits a status event, unless it repeats the last one.
    private func report(_ event: LocationStatusEvent) {
        guard event != lastStatus else { return }
        lastStatus = event
        outbox.append(.status(event))
    }

    /// Hands what this turn of the loop produced to the consumer, in one go.
    private func flush() {
        queue.push(outbox)
        outbox.removeAll(keepingCapacity: true)
    }

    private func finish(throwing error: (any Error)?) {
        guard !isFinished else { return }
        isFinished = true
        link?.close()
        link = nil
        flush()
        queue.finish(throwing: error)
    }
}
