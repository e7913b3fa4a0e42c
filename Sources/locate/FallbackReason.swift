import GPSLocation

/// Why a record is the fallback coordinate instead of a live fix: the `reason` of a fallback
/// record. Location not authorized (and why), gpsd unavailable, or no fix in time.
enum FallbackReason: Equatable {
    case notAuthorized(DenialReason)
    case gpsdUnavailable
    case timeout

    /// The word records carry: `services_off`, `not_determined`, `restricted`, `denied`,
    /// `background`, `gpsd_unavailable` or `timeout`.
    var rawValue: String {
        switch self {
        case .notAuthorized(let denial): denial.rawValue
        case .gpsdUnavailable: "gpsd_unavailable"
        case .timeout: "timeout"
        }
    }

    /// The status event that says a stream's or a request's position did not come for this
    /// reason: `not_authorized`, `gpsd_unavailable` or `timeout`.
    var eventName: String {
        switch self {
        case .notAuthorized: "not_authorized"
        case .gpsdUnavailable: "gpsd_unavailable"
        case .timeout: "timeout"
        }
    }
}
