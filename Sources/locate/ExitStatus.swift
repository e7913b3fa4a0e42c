import GPSDService
import GPSLocation
import GPSLocationConsent
import GPSLocationMQTT
import LocateFleet

/// The exit statuses of `locate`, as listed in `--help` and locate(1) (sysexits.h values), and the
/// one mapping from what went wrong to a status.
enum ExitStatus: Int32, Sendable {
    /// A live fix was printed, or `--follow` ended normally (count, duration, signal, closed pipe).
    case success = 0
    /// Anything not listed below.
    case failure = 1
    /// EX_USAGE: unknown option, bad value.
    case usage = 64
    /// EX_DATAERR: `geocode --batch` read lines that are not points (each has an error record), or
    /// a `--replay` track is not one.
    case dataError = 65
    /// EX_UNAVAILABLE: gpsd unreachable or without a GPS device.
    case unavailable = 69
    /// EX_IOERR: stdout could not be written for another reason than a closed pipe.
    case ioError = 74
    /// EX_TEMPFAIL: no acceptable fix within the timeout.
    case timedOut = 75
    /// EX_NOPERM: location is not authorized (services off, not determined, restricted, denied, background).
    case notAuthorized = 77
    /// EX_CONFIG: a settings or policy file is unreadable, untrusted or malformed; nothing is printed.
    case configuration = 78
}

extension ExitStatus {
    /// The exit status when the position given is the fallback for `reason`.
    init(_ reason: FallbackReason) {
        switch reason {
        case .notAuthorized(.settingsInvalid): self = .configuration
        case .notAuthorized: self = .notAuthorized
        case .gpsdUnavailable: self = .unavailable
        case .timeout: self = .timedOut
        }
    }

    /// The exit status for an error of the libraries.
    init(_ error: GPSLocationError) {
        switch error.code {
        case .noFix, .accuracyNotReached, .fixTooOld: self = .timedOut
        case .notAuthorized, .preciseLocationRequired: self = .notAuthorized
        case .invalidTrack: self = .dataError
        case .gpsdUnreachable, .connectTimedOut, .noDevice, .gpsdRefused, .gpsdClosedConnection, .placeDataUnavailable: self = .unavailable
        case .invalidEndpoint, .invalidAppName: self = .usage
        case .invalidSettings: self = .configuration
        case .invalidArgument: self = .usage
        case .unknownPlace, .ambiguousPlace, .cancelled: self = .failure
        }
    }
}

extension ExitStatus {
    /// The exit status for a history that cannot be used (78) or kept (74).
    init(_ failure: LocationHistory.Failure) {
        switch failure {
        case .refused: self = .configuration
        case .failed: self = .ioError
        }
    }

    /// The exit status for a fleet's states that cannot be used (78), are another run's now
    /// (75), or cannot be kept (74).
    init(_ failure: FleetStateKeeper.Failure) {
        switch failure.kind {
        case .refused: self = .configuration
        case .inUse: self = .timedOut
        case .failed: self = .ioError
        }
    }

    /// The exit status for an MQTT client or subscription that cannot be had: an outbox that
    /// cannot be trusted or read (78), that the disk fails (74) or that another `locate publish`
    /// sends now (75); otherwise the system or libmosquitto refused (69).
    init(_ error: MQTTError) {
        switch error {
        case .outboxRefused: self = .configuration
        case .outboxFailed: self = .ioError
        case .outboxInUse: self = .timedOut
        case .invalidURL, .unusable: self = .unavailable
        }
    }

    /// The exit status for a service that cannot serve: a socket's directory that cannot be
    /// trusted (78), or an address or a resource it cannot have (69).
    init(_ failure: GPSDService.Failure) {
        switch failure.kind {
        case .untrustedPath: self = .configuration
        case .cannotListen, .unavailable: self = .unavailable
        }
    }
}

/// Thrown by a step of a command's set-up that has said on stderr what went wrong: the status
/// the run ends with.
extension ExitStatus: Error {}

extension FallbackReason {
    /// Why the fallback stands in after `error`: not authorized, no fix in time, or gpsd unavailable.
    init(_ error: GPSLocationError) {
        switch error {
        case .notAuthorized(let reason): self = .notAuthorized(reason)
        case .noFix, .accuracyNotReached, .fixTooOld: self = .timeout
        default: self = .gpsdUnavailable
        }
    }
}
