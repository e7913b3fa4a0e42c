/// Waiting for a receiver: gpsd may have none yet (just started, or its USB receiver being
/// plugged in again, gpsd's hot-plug), and that is not final until the deadline, as for a fix.
struct DeviceWait: Sendable {
    let endpoint: GPSDEndpoint
    /// gpsd's device list said it has no device the endpoint watches, and none came since.
    private(set) var isWaiting = false

    init(endpoint: GPSDEndpoint) {
        self.endpoint = endpoint
    }

    /// Notes what `report` says about devices.
    /// - Returns: `true` when it just learned that there is no device (once per wait).
    mutating func note(_ report: GPSDReport) -> Bool {
        switch report {
        case .devices(let paths):
            let wasWaiting = isWaiting
            isWaiting = !endpoint.isServed(by: paths)
            return isWaiting && !wasWaiting
        case .deviceAdded(let path):
            if endpoint.watches(path) { isWaiting = false }
        case .fix:
            isWaiting = false
        case .noFix, .error, .other:
            // gpsd's reply to ?POLL says "no fix" when it has no device at all.
            break
        }
        return false
    }
}

/// What a single request found: a fix good enough, or at the deadline only the most accurate
/// fix seen.
enum SingleFixAnswer: Sendable {
    case acceptable(Location)
    case bestSeen(Location)
}

/// `GPSLocationManager.requestLocation`'s question: the first fix good enough, or at the
/// deadline the most accurate one seen.
///
/// Fixes are judged as they would be released: under reduced accuracy, as their grid cell (whose
/// accuracy is the cell's size), so neither the answer nor how long it takes can tell anything
/// about the precise accuracy.
struct SingleFixQuestion: GPSDQuestion {
    let accuracy: Double?
    /// The least fix type acceptable (`--min-fix`), `nil` for any.
    let minimumFix: Location.FixType?
    let maxAge: Duration?
    let timeout: Duration
    let accuracyAuthorization: AccuracyAuthorization
    /// Called (on the request's thread) for what the wait should tell: `noDevice`, once.
    let statusHandler: (@Sendable (LocationStatusEvent) -> Void)?
    private var device: DeviceWait
    /// The most accurate fix seen young enough, and the form it was judged in.
    private var best: (location: Location, judged: Location)?
    /// The age of the youngest fix seen that was older than `maxAge`.
    private var youngestTooOld: Duration?

    init(
        endpoint: GPSDEndpoint, accuracy: Double?, minimumFix: Location.FixType?, maxAge: Duration?, timeout: Duration,
        accuracyAuthorization: AccuracyAuthorization, statusHandler: (@Sendable (LocationStatusEvent) -> Void)?
    ) {
        device = DeviceWait(endpoint: endpoint)
        self.accuracy = accuracy
        self.minimumFix = minimumFix
        self.maxAge = maxAge
        self.timeout = timeout
        self.accuracyAuthorization = accuracyAuthorization
        self.statusHandler = statusHandler
    }

    mutating func answer(after report: GPSDReport) throws(GPSLocationError) -> SingleFixAnswer? {
        if device.note(report) { statusHandler?(.noDevice) }
        switch report {
        case .fix(let location):
            let judged = accuracyAuthorization == .reducedAccuracy ? AccuracyReducer.snapped(location) : location
            if Self.isAcceptable(judged, accuracy: accuracy, minimumFix: minimumFix, maxAge: maxAge) { return .acceptable(location) }
            if let maxAge, !(location.age().map { $0 <= maxAge } ?? false) {
                // Too old (or of an age unknown) is never an answer, not even the best one seen.
                if let age = location.age() { youngestTooOld = min(youngestTooOld ?? age, age) }
            } else if best.map({ Self.isMoreAccurate(judged, than: $0.judged) }) ?? true {
                best = (location, judged)
            }
        case .error(let message):
            throw .gpsdRefused(endpoint: device.endpoint, message: message)
        case .noFix, .devices, .deviceAdded, .other:
            break
        }
        return nil
    }

    /// At the deadline: the most accurate fix seen, as `.bestSeen` (the request throws
    /// `accuracyNotReached` with it once it is released).
    func answerAtDeadline() throws(GPSLocationError) -> SingleFixAnswer {
        if device.isWaiting { throw .noDevice(endpoint: device.endpoint) }
        if let best { return .bestSeen(best.location) }
        if let youngestTooOld, let maxAge { throw .fixTooOld(age: youngestTooOld, maxAge: maxAge) }
        throw .noFix(timeout: timeout)
    }

    /// Good enough: within `accuracy` (a fix that does not state its error is taken as exact,
    /// as everywhere in the library), at least `minimumFix` (a fix of no known type is none),
    /// and no older than `maxAge` (its age known).
    static func isAcceptable(_ location: Location, accuracy: Double?, minimumFix: Location.FixType?, maxAge: Duration?) -> Bool {
        if let accuracy, let error = location.horizontalAccuracy, error > accuracy { return false }
        if let minimumFix, (location.details.fix?.rank ?? 0) < minimumFix.rank { return false }
        if let maxAge, !(location.age().map { $0 <= maxAge } ?? false) { return false }
        return true
    }

    private static func isMoreAccurate(_ candidate: Location, than current: Location) -> Bool {
        (candidate.horizontalAccuracy ?? 0) <= (current.horizontalAccuracy ?? 0)
    }
}

/// `GPSLocationManager.receiverStatus`'s question: gpsd's devices and whether its receiver has
/// a fix, as soon as gpsd has said both and has a device, or what it said by the deadline.
struct ReceiverStatusQuestion: GPSDQuestion {
    private var device: DeviceWait
    private var devices: [String]?
    private var fix: GPSDReport?

    init(endpoint: GPSDEndpoint) {
        device = DeviceWait(endpoint: endpoint)
    }

    /// The device list, and the fix state: the fix (still to pass the permission check), or
    /// `nil` for none.
    struct Answer: Sendable {
        var devices: [String]
        var fix: Location?
    }

    mutating func answer(after report: GPSDReport) throws(GPSLocationError) -> Answer? {
        _ = device.note(report)
        switch report {
        case .devices(let paths): devices = paths
        case .deviceAdded(let path): devices = (devices ?? []) + [path]
        case .fix, .noFix: fix = report
        case .error(let message): throw .gpsdRefused(endpoint: device.endpoint, message: message)
        case .other: break
        }
        guard devices != nil, fix != nil, !device.isWaiting else { return nil }
        return try answerAtDeadline()
    }

    func answerAtDeadline() throws(GPSLocationError) -> Answer {
        if device.isWaiting { throw .noDevice(endpoint: device.endpoint) }
        var location: Location?
        if case .fix(let fix)? = fix { location = fix }
        return Answer(devices: devices ?? [], fix: location)
    }
}
