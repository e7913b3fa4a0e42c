/// `GPSLocationManager.requestLocation`'s question: the first fix good enough, or at the
/// deadline the most accurate one seen.
struct SingleFixQuestion: GPSDQuestion {
    let endpoint: GPSDEndpoint
    let accuracy: Double?
    let maxAge: Duration?
    let timeout: Duration
    private var best: Location?

    init(endpoint: GPSDEndpoint, accuracy: Double?, maxAge: Duration?, timeout: Duration) {
        self.endpoint = endpoint
        self.accuracy = accuracy
        self.maxAge = maxAge
        self.timeout = timeout
    }

    mutating func answer(after report: GPSDReport) throws(GPSLocationError) -> Location? {
        switch report {
        case .fix(let location):
            if Self.isAcceptable(location, accuracy: accuracy, maxAge: maxAge) { return location }
            if best.map({ Self.isMoreAccurate(location, than: $0) }) ?? true { best = location }
        case .devices(let paths):
            if !GPSLocationManager.hasDevice(paths, for: endpoint) { throw .noDevice(endpoint: endpoint) }
        case .error(let message):
            throw .gpsdRefused(endpoint: endpoint, message: message)
        case .noFix, .other:
            break
        }
        return nil
    }

    func answerAtDeadline() throws(GPSLocationError) -> Location {
        guard var best else { throw .noFix(timeout: timeout) }
        best.timedOut = true
        return best
    }

    /// Good enough: within `accuracy` (its horizontal error known and at most that), and no
    /// older than `maxAge` (its age known).
    static func isAcceptable(_ location: Location, accuracy: Double?, maxAge: Duration?) -> Bool {
        if let accuracy, !(location.horizontalAccuracy.map { $0 <= accuracy } ?? false) { return false }
        if let maxAge, !(location.age().map { $0 <= maxAge.seconds } ?? false) { return false }
        return true
    }

    private static func isMoreAccurate(_ candidate: Location, than current: Location) -> Bool {
        (candidate.horizontalAccuracy ?? .infinity) <= (current.horizontalAccuracy ?? .infinity)
    }
}

/// `GPSLocationManager.receiverStatus`'s question: gpsd's devices and whether its receiver has
/// a fix, as soon as gpsd has said both, or what it said by the deadline.
struct ReceiverStatusQuestion: GPSDQuestion {
    let endpoint: GPSDEndpoint
    private var devices: [String]?
    private var fix: GPSDReport?

    init(endpoint: GPSDEndpoint) {
        self.endpoint = endpoint
    }

    /// The device list, and the fix state: the fix (still to pass the permission check), or
    /// `nil` for none.
    struct Answer: Sendable {
        var devices: [String]
        var fix: Location?
    }

    mutating func answer(after report: GPSDReport) throws(GPSLocationError) -> Answer? {
        switch report {
        case .devices(let paths): devices = paths
        case .fix, .noFix: fix = report
        case .error(let message): throw .gpsdRefused(endpoint: endpoint, message: message)
        case .other: break
        }
        guard devices != nil, fix != nil else { return nil }
        return answerAtDeadline()
    }

    func answerAtDeadline() -> Answer {
        var location: Location?
        if case .fix(let fix)? = fix { location = fix }
        return Answer(devices: devices ?? [], fix: location)
    }
}
