/// Gets positions from gpsd: one fix on request (the weather-app case) or a live stream of
/// fixes and status events (the running-app case). CoreLocation's `CLLocationManager` for gpsd.
///
/// - Important: the manager never prints, exits or installs signal handlers. libgps runs on a
///   dedicated thread per request or stream, never on Swift's cooperative pool.
public actor GPSLocationManager {
    /// How this manager reaches gpsd.
    public nonisolated let configuration: GPSLocationConfiguration

    /// The libgps API version this library was built against, such as `11.0` for gpsd 3.22.
    /// libgps has no stable ABI, so the binary must run with the libgps it was built with.
    public static let libgpsAPIVersion = GPSDSession.apiVersion

    /// Creates a manager; nothing connects until a location is requested.
    public init(configuration: GPSLocationConfiguration = GPSLocationConfiguration()) {
        self.configuration = configuration
    }

    /// Returns one fix.
    ///
    /// Connects, sends WATCH and `?POLL;` in one write, and answers at once when gpsd's current
    /// fix is good enough; otherwise waits for streamed fixes. A fix is good enough when it is 2D
    /// or 3D and, if `accuracy` is given, its horizontal error is known and at most `accuracy`.
    ///
    /// - Parameters:
    ///   - accuracy: the largest acceptable horizontal error in metres, or `nil` for any fix.
    ///   - timeout: how long to wait for a good enough fix.
    /// - Returns: the first good enough fix; or, when the time runs out after some fix arrived,
    ///   the most accurate fix seen with `timedOut` set.
    /// - Throws: `GPSLocationError`: `gpsdUnreachable`, `connectTimedOut`, `noDevice`,
    ///   `gpsdRefused`, `gpsdClosedConnection` or `noFix`; `CancellationError` when the task is cancelled.
    public func requestLocation(accuracy: Double? = nil, timeout: Duration = .seconds(30)) async throws -> Location {
        let plan = GPSDReader.Plan(
            configuration: configuration, poll: true, reconnect: false,
            deadline: ContinuousClock.now.advanced(by: timeout), buffering: .unbounded)
        var best: Location?
        for try await event in GPSDReader.events(plan) {
            switch event {
            case .report(.fix(let location)):
                if Self.isAcceptable(location, accuracy: accuracy) { return location }
                if best.map({ Self.isMoreAccurate(location, than: $0) }) ?? true { best = location }
            case .report(.devices(let paths)):
                if !Self.hasDevice(paths, for: configuration.endpoint) { throw GPSLocationError.noDevice(configuration.endpoint) }
            case .report(.error(let message)):
                throw GPSLocationError.gpsdRefused(configuration.endpoint, message)
            case .deadlineReached:
                guard var best else { throw GPSLocationError.noFix(timeout: timeout.seconds) }
                best.timedOut = true
                return best
            case .report(.noFix), .report(.other), .lost, .reconnected:
                continue
            }
        }
        try Task.checkCancellation()
        throw GPSLocationError.gpsdClosedConnection(configuration.endpoint)
    }

    /// A live stream of fixes and status events until the consumer stops iterating.
    ///
    /// The stream starts with gpsd's current fix when it has one, then follows the receiver.
    /// Fixes pass through `options` (distance filter, minimum interval, heartbeat); a fix for the
    /// same receiver time as the one before it is a refinement of that epoch and is dropped.
    /// Status events report a missing fix or device once per change, and gpsd going away and
    /// coming back: the stream reconnects with capped exponential back-off. A consumer slower
    /// than the receiver gets the newest updates; older ones are dropped, so memory stays bounded.
    ///
    /// - Throws (from the stream): `GPSLocationError` when the first connection fails or gpsd
    ///   refuses the WATCH (for example for a device it does not have).
    public nonisolated func liveUpdates(_ options: LiveUpdateOptions = LiveUpdateOptions()) -> AsyncThrowingStream<LocationUpdate, any Error> {
        let plan = GPSDReader.Plan(
            configuration: configuration, poll: true, reconnect: true, deadline: nil, buffering: .bufferingNewest(64))
        let endpoint = configuration.endpoint
        let (updates, continuation) = AsyncThrowingStream.makeStream(of: LocationUpdate.self, bufferingPolicy: .bufferingNewest(64))
        let pump = Task {
            var filter = LiveUpdateFilter(options: options)
            var previousFix: Location?
            var lastStatus: LocationStatusEvent?
            func report(_ event: LocationStatusEvent) {
                guard event != lastStatus else { return }
                lastStatus = event
                continuation.yield(.status(event))
            }
            do {
                for try await event in GPSDReader.events(plan) {
                    switch event {
                    case .report(.fix(let location)):
                        lastStatus = nil
                        defer { previousFix = location }
                        if let time = location.time, time == previousFix?.time { continue }
                        if filter.admit(location, at: .now) { continuation.yield(.location(location)) }
                    case .report(.noFix):
                        report(.noFix)
                    case .report(.devices(let paths)):
                        if !Self.hasDevice(paths, for: endpoint) { report(.noDevice) }
                    case .report(.error(let message)):
                        throw GPSLocationError.gpsdRefused(endpoint, message)
                    case .lost(let retryIn):
                        report(.gpsdLost(retryIn: retryIn.seconds))
                    case .reconnected:
                        report(.reconnected)
                    case .report(.other), .deadlineReached:
                        continue
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return updates
    }

    private static func isAcceptable(_ location: Location, accuracy: Double?) -> Bool {
        guard let accuracy else { return true }
        return location.horizontalAccuracy.map { $0 <= accuracy } ?? false
    }

    private static func isMoreAccurate(_ candidate: Location, than current: Location) -> Bool {
        (candidate.horizontalAccuracy ?? .infinity) <= (current.horizontalAccuracy ?? .infinity)
    }

    /// Whether gpsd's device list has the endpoint's device, or any device when none is named.
    private static func hasDevice(_ paths: [String], for endpoint: GPSDEndpoint) -> Bool {
        guard let device = endpoint.device else { return !paths.isEmpty }
        return paths.contains(device)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
