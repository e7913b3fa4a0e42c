import FoundationEssentials
import GPSLocation

/// Writes records to stdout in the chosen format: live fixes, and the fallback coordinate when
/// there is no live fix to give (unless the fallback is disabled).
struct RecordWriter {
    let format: any RecordFormat
    /// `nil` when `--no-fallback` or `[fallback] enabled = no`.
    let fallback: FallbackCoordinate?

    func write(_ location: Location) throws(StandardStreams.ClosedOutput) {
        try StandardStreams.writeRecord(format.record(location, now: Date()))
    }

    /// Writes the fallback record marked with `reason`; `false` when the fallback is disabled.
    @discardableResult
    func writeFallback(_ reason: FallbackReason) throws(StandardStreams.ClosedOutput) -> Bool {
        guard let fallback else { return false }
        try write(fallback.location(reason: reason))
        return true
    }
}

extension ExitStatus {
    /// The exit status when the position given is the fallback for `reason`.
    init(_ reason: FallbackReason) {
        switch reason {
        case .servicesOff, .notDetermined, .restricted, .denied, .background: self = .notAuthorized
        case .gpsdUnavailable: self = .unavailable
        case .timeout: self = .timedOut
        }
    }
}
