/// `requestLocation`'s steps around asking gpsd, shared by the async request and the blocking
/// one: the permission and the cache before, the question to ask, and the release after.
struct SingleFixRequest: Sendable {
    let configuration: GPSLocationConfiguration
    let question: SingleFixQuestion
    let deadline: ContinuousClock.Instant
    private let accuracy: Double?
    private let maxAge: Duration?

    init(configuration: GPSLocationConfiguration, accuracy: Double?, timeout: Duration, maxAge: Duration?,
         statusHandler: (@Sendable (LocationStatusEvent) -> Void)?) {
        self.configuration = configuration
        self.accuracy = accuracy
        self.maxAge = maxAge
        let timeout = timeout.boundedForWaiting
        question = SingleFixQuestion(endpoint: configuration.endpoint, accuracy: accuracy, maxAge: maxAge, timeout: timeout,
                                     statusHandler: statusHandler)
        deadline = .now.advanced(by: timeout)
    }

    /// Checks the permission, and answers from the last-fix cache when `maxAge` allows, telling
    /// `delivered` (the manager's memory).
    /// - Returns: the cached fix, released; `nil` when gpsd must be asked.
    /// - Throws: `ConfigurationError`; `GPSLocationError.notAuthorized` (purging the cache when
    ///   location is refused outright).
    func answerBeforeAsking(delivered: (Location) -> Void) throws -> Location? {
        let permission = try configuration.permission.resolve()
        if let reason = permission.denial {
            if permission.isRefusal { configuration.cache?.purge() }
            throw GPSLocationError.notAuthorized(reason: reason)
        }
        guard let maxAge, let cached = configuration.cache?.load(),
              SingleFixQuestion.isAcceptable(cached, accuracy: accuracy, maxAge: maxAge) else { return nil }
        let released = try Self.release(cached, configuration: configuration)
        delivered(released)
        return released
    }

    /// Releases what gpsd answered, makes it the cached fix and tells `delivered` (the
    /// manager's memory).
    /// - Throws: `GPSLocationError.accuracyNotReached` with the released fix when only the best
    ///   fix seen is there; `ConfigurationError`; `GPSLocationError.notAuthorized`.
    func release(_ answer: SingleFixAnswer, delivered: (Location) -> Void) throws -> Location {
        switch answer {
        case .acceptable(let location):
            let released = try Self.release(location, configuration: configuration)
            configuration.cache?.store(released)
            delivered(released)
            return released
        case .bestSeen(let location):
            let released = try Self.release(location, configuration: configuration)
            configuration.cache?.store(released)
            delivered(released)
            throw GPSLocationError.accuracyNotReached(timeout: question.timeout, bestSeen: released)
        }
    }

    /// `location` as the permission now lets it out: itself, its grid cell, or an error.
    /// - Throws: `ConfigurationError`; `GPSLocationError.notAuthorized`.
    static func release(_ location: Location, configuration: GPSLocationConfiguration) throws -> Location {
        let permission = try configuration.permission.resolve()
        var gate = PositionGate()
        guard let released = gate.release(location, under: permission, at: nil) else {
            throw GPSLocationError.notAuthorized(reason: permission.denial ?? .denied)
        }
        return released
    }
}
