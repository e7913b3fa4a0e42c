import GPSLocation
import LocateSupport

/// A status event as the command reports it: the library's stream events, plus `timeout` for a
/// single fix that did not come in time. Each has a stable name and a line for people.
struct StatusEvent {
    /// The machine-readable name (`no_fix`, `gpsd_lost`, ..., `timeout`).
    let name: String
    /// One line for a person, as written to stderr.
    let message: String
    /// Extra fields for JSON (`retry_in`, `authorization`, `reason`).
    let details: [(key: String, value: FieldValue)]

    init(name: String, message: String, details: [(key: String, value: FieldValue)] = []) {
        self.name = name
        self.message = message
        self.details = details
    }

    /// A library event, described for the gpsd at `endpoint`.
    init(_ event: LocationStatusEvent, endpoint: GPSDEndpoint, explanation: (DenialReason) -> String) {
        switch event {
        case .noFix:
            self.init(name: event.name, message: "no fix yet; waiting for the receiver")
        case .noDevice:
            self.init(name: event.name, message: "gpsd at \(endpoint) has no GPS device; waiting for one")
        case .gpsdLost(let retryIn):
            self.init(
                name: event.name, message: "lost gpsd at \(endpoint); reconnecting in \(retryIn.formattedSeconds) s",
                details: [("retry_in", .number(retryIn.seconds, decimals: 2))])
        case .reconnected:
            self.init(name: event.name, message: "reconnected to gpsd at \(endpoint)")
        case .authorizationChanged(let status, let denial):
            self.init(
                name: event.name,
                message: denial.map(explanation) ?? "location is authorized again (\(status.rawValue)); resuming",
                details: [
                    ("authorization", .text(AuthorizationMessages.authorizationName(status, servicesOff: denial == .servicesOff))),
                    ("reason", denial.map { .text($0.rawValue) } ?? .unknown),
                ])
        case .paused:
            self.init(name: event.name, message: "paused: location is allowed only while in use, and \(Usage.program) is in the background")
        case .resumed:
            self.init(name: event.name, message: "resumed: \(Usage.program) is in the foreground again")
        case .dropped(let count):
            self.init(
                name: event.name, message: "the output was not read for a while; dropped the \(count) oldest records",
                details: [("count", .number(Double(count), decimals: 0))])
        case .accuracyChanged(let accuracy):
            self.init(
                name: event.name,
                message: accuracy == .fullAccuracy
                    ? "precise location is allowed again" : "only reduced accuracy is allowed now: positions are snapped to a grid cell",
                details: [("accuracy", .text(accuracy.rawValue))])
        case .settingsInvalid(let problem):
            self.init(
                name: event.name, message: "\(problem.description); positions are held back until the settings can be read again",
                details: [
                    ("file", .text(problem.file)), ("line", problem.line.map { .number(Double($0), decimals: 0) } ?? .unknown),
                    ("column", problem.column.map { .number(Double($0), decimals: 0) } ?? .unknown),
                ])
        case .stationary:
            self.init(name: event.name, message: "stationary: the position has stayed within its accuracy")
        case .moving:
            self.init(name: event.name, message: "moving again")
        }
    }

    /// Whether the stream has a gap here: no live positions for a while.
    var isGap: Bool {
        ["no_fix", "gpsd_lost", "no_device", "paused", "authorization_changed", "settings_invalid"].contains(name)
    }
}
