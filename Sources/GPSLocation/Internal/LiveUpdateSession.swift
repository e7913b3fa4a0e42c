/// One live stream of `GPSLocationManager.liveUpdates(_:)`: it follows the permission and runs a
/// gpsd reader only while positions are authorized.
///
/// Three sources feed one input stream, handled in order by one task: the gpsd reader (fixes and
/// connection news), and the settings watcher (file changes and regular ticks for the process's
/// foreground state). Readers are numbered, so events from a reader stopped by a revoke are ignored.
final class LiveUpdateSession {
    private enum Input: Sendable {
        case reader(GPSDReader.Event, generation: Int)
        case readerFinished((any Error)?, generation: Int)
        case settings(SettingsWatcher.Signal)
    }

    /// A stream refreshes the last-fix cache at most this often.
    private static let cacheInterval = Duration.seconds(5)

    private let configuration: GPSLocationConfiguration
    private let input: AsyncStream<Input>.Continuation
    private let output: AsyncThrowingStream<LocationUpdate, any Error>.Continuation
    private var tracker: PermissionTracker
    private var permission: Permission { tracker.permission }
    private var reader: GPSDReader?
    private var generation = 0
    private var gate = PositionGate()
    private var filter: LiveUpdateFilter
    private var previousFix: Location?
    private var lastStatus: LocationStatusEvent?
    private var lastCached: ContinuousClock.Instant?
    private var isFinished = false

    /// Starts a session and returns its updates; ending the iteration ends the session.
    static func start(configuration: GPSLocationConfiguration, options: LiveUpdateOptions) -> AsyncThrowingStream<LocationUpdate, any Error> {
        let (updates, output) = AsyncThrowingStream.makeStream(of: LocationUpdate.self, bufferingPolicy: .bufferingNewest(64))
        let (inputs, input) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .bufferingNewest(256))
        let task = Task {
            let tracker: PermissionTracker
            do {
                tracker = try PermissionTracker(configuration.permission)
            } catch {
                output.finish(throwing: error)
                return
            }
            let session = LiveUpdateSession(configuration: configuration, options: options, tracker: tracker, input: input, output: output)
            await session.run(inputs)
        }
        output.onTermination = { _ in task.cancel() }
        return updates
    }

    private init(
        configuration: GPSLocationConfiguration, options: LiveUpdateOptions,
        tracker: PermissionTracker,
        input: AsyncStream<Input>.Continuation, output: AsyncThrowingStream<LocationUpdate, any Error>.Continuation
    ) {
        self.configuration = configuration
        self.tracker = tracker
        self.input = input
        self.output = output
        filter = LiveUpdateFilter(options: options)
    }

    private func run(_ inputs: AsyncStream<Input>) async {
        let input = self.input
        let watcher = SettingsWatcher(configuration.permission.files) { input.yield(.settings($0)) }
        defer {
            watcher.stop()
            reader?.stop()
        }
        if permission.isRefusal { configuration.cache?.purge() }
        if permission.isAuthorized {
            startReader()
        } else {
            report(permission.isPausedInBackground ? .paused : .authorizationChanged(permission.status, denial: permission.denial))
        }
        for await item in inputs {
            switch item {
            case .reader(let event, let generation) where generation == self.generation:
                handle(event)
            case .readerFinished(let error, let generation) where generation == self.generation:
                finish(throwing: error)
            case .settings(let signal):
                settingsChanged(reload: signal == .filesChanged)
            case .reader, .readerFinished:
                continue
            }
            if isFinished { return }
        }
        finish(throwing: nil)
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
            report(old.isPausedInBackground ? .resumed : .authorizationChanged(permission.status, denial: nil))
            startReader()
        case (true, false):
            stopReader()
            if permission.isRefusal { configuration.cache?.purge() }
            report(permission.isPausedInBackground ? .paused : .authorizationChanged(permission.status, denial: permission.denial))
        case (false, false) where old.denial != permission.denial && !permission.isPausedInBackground:
            report(.authorizationChanged(permission.status, denial: permission.denial))
        default:
            break
        }
    }

    // MARK: - Reader

    private func startReader() {
        generation += 1
        let generation = self.generation
        let input = self.input
        let plan = GPSDReader.Plan(configuration: configuration, poll: true, reconnect: true, deadline: nil)
        reader = GPSDReader(plan, deliver: { input.yield(.reader($0, generation: generation)) },
                            finish: { input.yield(.readerFinished($0, generation: generation)) })
        previousFix = nil
    }

    private func stopReader() {
        reader?.stop()
        reader = nil
        generation += 1
    }

    private func handle(_ event: GPSDReader.Event) {
        let endpoint = configuration.endpoint
        switch event {
        case .report(.fix(let location)):
            lastStatus = nil
            defer { previousFix = location }
            if let time = location.time, time == previousFix?.time { return }
            let now = ContinuousClock.now
            guard let released = gate.release(location, under: permission, at: now) else { return }
            if lastCached.map({ $0.duration(to: now) >= Self.cacheInterval }) ?? true {
                configuration.cache?.store(released)
                lastCached = now
            }
            guard filter.admit(released, at: now) else { return }
            output.yield(.location(released))
        case .report(.noFix):
            report(.noFix)
        case .report(.devices(let paths)):
            if !GPSLocationManager.hasDevice(paths, for: endpoint) { report(.noDevice) }
        case .report(.error(let message)):
            finish(throwing: GPSLocationError.gpsdRefused(endpoint, message))
        case .lost(let retryIn):
            report(.gpsdLost(retryIn: retryIn.seconds))
        case .reconnected:
            report(.reconnected)
        case .report(.other), .deadlineReached:
            break
        }
    }

    // MARK: - Output

    /// Emits a status event, unless it repeats the last one.
    private func report(_ event: LocationStatusEvent) {
        guard event != lastStatus else { return }
        lastStatus = event
        output.yield(.status(event))
    }

    private func finish(throwing error: (any Error)?) {
        guard !isFinished else { return }
        isFinished = true
        output.finish(throwing: error)
    }
}
