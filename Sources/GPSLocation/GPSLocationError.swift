import LocateSupport

/// Everything that can go wrong in GPSLocation, its consent store and its places: the one error
/// the libraries throw, as CoreLocation's `CLError` is. Each case carries what a program or a
/// person needs to know (labelled values), and ``code`` names the kind for a `switch` or a log.
public enum GPSLocationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint text could not be parsed, or a part of it has characters it cannot have.
    case invalidEndpoint(text: String, reason: String)
    /// gpsd could not be reached at the endpoint; `reason` is the system's or the resolver's.
    case gpsdUnreachable(endpoint: GPSDEndpoint, reason: String)
    /// Connecting did not finish within `timeout`.
    case connectTimedOut(endpoint: GPSDEndpoint, timeout: Duration)
    /// gpsd answered but has no GPS device (or not the one asked for).
    case noDevice(endpoint: GPSDEndpoint)
    /// gpsd refused the request; `message` is gpsd's (such as "No such device as /dev/x").
    case gpsdRefused(endpoint: GPSDEndpoint, message: String)
    /// gpsd closed the connection while a single fix was awaited (a gpsd serving as many
    /// clients as it takes closes the next ones at once).
    case gpsdClosedConnection(endpoint: GPSDEndpoint)
    /// No fix arrived within `timeout`.
    case noFix(timeout: Duration)
    /// Fixes arrived within `timeout`, but none within the accuracy asked for; `bestSeen` is the
    /// most accurate of them, released as any position is (its grid cell under reduced accuracy).
    case accuracyNotReached(timeout: Duration, bestSeen: Location)
    /// Fixes arrived, but all older than the `maxAge` asked for; `age` is the youngest one's age
    /// when it arrived.
    case fixTooOld(age: Duration, maxAge: Duration)
    /// Location is not authorized for this process now; `reason` says why.
    case notAuthorized(reason: DenialReason)
    /// A settings or policy file cannot be used (malformed, unreadable, not safe to trust, or
    /// not writable): the libraries fail closed.
    case invalidSettings(SettingsProblem)
    /// An app name outside the strict charset app names have.
    case invalidAppName(text: String)
    /// Place names were asked for, and libgeonames cannot be read (and no index of its places
    /// is kept).
    case placeDataUnavailable(reason: String)
    /// No place has the name.
    case unknownPlace(name: String)
    /// Several places have the name; `candidates` are some of them, largest first.
    case ambiguousPlace(name: String, candidates: [String])
    /// Region monitoring and visits need precise positions, and only reduced accuracy is
    /// authorized (as on iOS, where they are unavailable without "Precise Location").
    case preciseLocationRequired
    /// A track to replay cannot be read, or is not GPX 1.1, NMEA 0183 or locate's JSON Lines;
    /// `line` is the 1-based line of the problem, when there is one.
    case invalidTrack(file: String, line: Int?, reason: String)
    /// A value given to the library is out of its range (a latitude of 200, a NaN distance
    /// filter, a negative radius, a zero timeout); `name` is the parameter's, `reason` says what
    /// was wrong.
    case invalidArgument(name: String, reason: String)
    /// The task waiting for the answer was cancelled.
    case cancelled

    /// The kind of an error, without its values.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// ``GPSLocationError/invalidEndpoint(text:reason:)``.
        case invalidEndpoint = "invalid_endpoint"
        /// ``GPSLocationError/gpsdUnreachable(endpoint:reason:)``.
        case gpsdUnreachable = "gpsd_unreachable"
        /// ``GPSLocationError/connectTimedOut(endpoint:timeout:)``.
        case connectTimedOut = "connect_timed_out"
        /// ``GPSLocationError/noDevice(endpoint:)``.
        case noDevice = "no_device"
        /// ``GPSLocationError/gpsdRefused(endpoint:message:)``.
        case gpsdRefused = "gpsd_refused"
        /// ``GPSLocationError/gpsdClosedConnection(endpoint:)``.
        case gpsdClosedConnection = "gpsd_closed_connection"
        /// ``GPSLocationError/noFix(timeout:)``.
        case noFix = "no_fix"
        /// ``GPSLocationError/accuracyNotReached(timeout:bestSeen:)``.
        case accuracyNotReached = "accuracy_not_reached"
        /// ``GPSLocationError/fixTooOld(age:maxAge:)``.
        case fixTooOld = "fix_too_old"
        /// ``GPSLocationError/notAuthorized(reason:)``.
        case notAuthorized = "not_authorized"
        /// ``GPSLocationError/invalidSettings(_:)``.
        case invalidSettings = "invalid_settings"
        /// ``GPSLocationError/invalidAppName(text:)``.
        case invalidAppName = "invalid_app_name"
        /// ``GPSLocationError/placeDataUnavailable(reason:)``.
        case placeDataUnavailable = "place_data_unavailable"
        /// ``GPSLocationError/unknownPlace(name:)``.
        case unknownPlace = "unknown_place"
        /// ``GPSLocationError/ambiguousPlace(name:candidates:)``.
        case ambiguousPlace = "ambiguous_place"
        /// ``GPSLocationError/preciseLocationRequired``.
        case preciseLocationRequired = "precise_location_required"
        /// ``GPSLocationError/invalidTrack(file:line:reason:)``.
        case invalidTrack = "invalid_track"
        /// ``GPSLocationError/invalidArgument(name:reason:)``.
        case invalidArgument = "invalid_argument"
        /// ``GPSLocationError/cancelled``.
        case cancelled
    }

    /// The kind of this error.
    public var code: Code {
        switch self {
        case .invalidEndpoint: .invalidEndpoint
        case .gpsdUnreachable: .gpsdUnreachable
        case .connectTimedOut: .connectTimedOut
        case .noDevice: .noDevice
        case .gpsdRefused: .gpsdRefused
        case .gpsdClosedConnection: .gpsdClosedConnection
        case .noFix: .noFix
        case .accuracyNotReached: .accuracyNotReached
        case .fixTooOld: .fixTooOld
        case .notAuthorized: .notAuthorized
        case .invalidSettings: .invalidSettings
        case .invalidAppName: .invalidAppName
        case .placeDataUnavailable: .placeDataUnavailable
        case .unknownPlace: .unknownPlace
        case .ambiguousPlace: .ambiguousPlace
        case .preciseLocationRequired: .preciseLocationRequired
        case .invalidTrack: .invalidTrack
        case .invalidArgument: .invalidArgument
        case .cancelled: .cancelled
        }
    }

    /// A one-line explanation for a person; outside text in it has its control characters made visible.
    public var description: String {
        switch self {
        case .invalidEndpoint(let text, let why):
            "invalid gpsd endpoint '\(UntrustedText.visible(text, limit: 80))': \(why) (expected host[:port[:device]])"
        case .gpsdUnreachable(let endpoint, let why):
            "cannot reach gpsd at \(endpoint): \(UntrustedText.visible(why, limit: 300))"
        case .connectTimedOut(let endpoint, let timeout):
            "cannot reach gpsd at \(endpoint): no answer within \(timeout.formattedSeconds) s"
        case .noDevice(let endpoint):
            if let device = endpoint.device {
                "gpsd at \(endpoint) does not know the device \(device)"
            } else {
                "gpsd at \(endpoint) has no GPS device"
            }
        case .gpsdRefused(let endpoint, let message):
            "gpsd at \(endpoint) refused: \(UntrustedText.visible(message, limit: 300))"
        case .gpsdClosedConnection(let endpoint):
            "gpsd at \(endpoint) closed the connection"
        case .noFix(let timeout):
            "no fix within \(timeout.formattedSeconds) s"
        case .accuracyNotReached(let timeout, _):
            "no fix accurate enough within \(timeout.formattedSeconds) s"
        case .fixTooOld(let age, let maxAge):
            "the youngest fix was \(age.formattedSeconds) s old, older than the \(maxAge.formattedSeconds) s asked for"
        case .notAuthorized(let reason):
            "location is not authorized (\(reason.rawValue))"
        case .invalidSettings(let problem):
            problem.description
        case .invalidAppName(let text):
            "'\(UntrustedText.visible(text, limit: 80))' is not an app name (expected 1 to 64 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit)"
        case .placeDataUnavailable(let reason):
            "place data unavailable: \(reason)"
        case .unknownPlace(let name):
            "no place named '\(UntrustedText.visible(name, limit: 80))' in the place data (English names; qualify with a country code as 'Name, CC')"
        case .ambiguousPlace(let name, let candidates):
            "'\(UntrustedText.visible(name, limit: 80))' names several places (\(candidates.joined(separator: "; "))); add the country or state after a comma"
        case .preciseLocationRequired:
            "region monitoring and visits need precise location, and only reduced accuracy is allowed"
        case .invalidTrack(let file, let line, let reason):
            UntrustedText.visible(file + (line.map { ":\($0)" } ?? "") + ": " + reason, limit: 400)
        case .invalidArgument(let name, let reason):
            "invalid \(name): \(UntrustedText.visible(reason, limit: 200))"
        case .cancelled:
            "cancelled"
        }
    }

    /// `error` as a `GPSLocationError`: itself, or ``cancelled`` for the cancellation that is the
    /// only other error the libraries' own sequences and continuations end with.
    init(_ error: any Error) {
        self = error as? GPSLocationError ?? .cancelled
    }
}

/// A settings or policy file that cannot be used, and where: `locate` and the libraries fail
/// closed on it (nothing is printed, no gpsd connection is made).
public struct SettingsProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// The 1-based line of the problem, or `nil` when the whole file is the problem.
    public var line: Int?
    /// The 1-based column of the problem on that line, or `nil`.
    public var column: Int?
    /// What is wrong, and what was expected.
    public var message: String

    /// Creates a problem for `file` at `line` and `column`.
    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, as compilers print it, with any control character (from
    /// the path or a quoted value) made visible.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return UntrustedText.visible(place + ": " + message)
    }
}
