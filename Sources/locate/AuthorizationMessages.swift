import GPSLocation
import GPSLocationConsent

/// The one-line explanations on stderr of why location is not authorized. Each says what the
/// person can do about it, except `restricted`, which only the administrator can change; each
/// names the file and line that decided, as the settings say now.
struct AuthorizationMessages: Sendable {
    let store: ConsentStore
    let app: String?
    /// Whether the user was asked at the terminal (and gave no answer), so the message does not
    /// send them to a terminal to be asked.
    var wasAsked = false
    /// The program the positions are for when it is not `locate` itself (a client of `locate
    /// serve`, which cannot be asked at a terminal), and whether it runs without one (a daemon,
    /// which needs `always`).
    var client: (name: String, isDaemon: Bool)?

    /// Why location is not authorized, for `reason`.
    func explain(_ reason: DenialReason) -> String {
        guard let settings = try? store.settings() else { return "location is not authorized (\(reason.rawValue))" }
        // App names are a strict charset, so they are shell words as they are.
        let appOption = app.map { " --app \($0)" } ?? ""
        // The name it was run as: `gps-locate permission allow`, not plocate's `locate`.
        let program = Usage.program
        let origin = settings.statusDecidedBy.map { " (\($0))" } ?? ""
        let always = client?.isDaemon == true ? " --always" : ""
        switch reason {
        case .servicesOff:
            if let origin = settings.servicesDecidedBy, origin.file != store.paths.userFile {
                return "location services are turned off for this machine by the administrator (\(origin)); ask your administrator"
            }
            return
                "location services are off\(settings.servicesDecidedBy.map { " (\($0))" } ?? ""); set 'services = on' in [location] there to use location"
        case .notDetermined:
            let toApp = app.map { " to app \"\($0)\"" } ?? ""
            if client != nil {
                return "location permission has not been given\(toApp); allow it with: \(program) permission allow\(always)\(appOption)"
            }
            if wasAsked {
                return
                    "location permission has not been given\(toApp): the prompt got no answer; allow it with: \(program) permission allow\(appOption)"
            }
            return
                "location permission has not been given\(toApp); run \(program) in a terminal to be asked, or allow it with: \(program) permission allow\(appOption)"
        case .restricted:
            return "location is restricted by the administrator's policy\(origin) and cannot be changed by the user"
        case .denied:
            return "location permission is denied\(origin); allow it with: \(program) permission allow\(always)\(appOption)"
        case .background:
            return
                "location is allowed only while in use, and \(client?.name ?? program) is not in the foreground of a terminal; allow background use with: \(program) permission allow --always\(appOption)"
        case .settingsInvalid:
            return "the settings cannot be read now; nothing is delivered until they can"
        }
    }

    /// The authorization as the command shows it: the status, or `services-off` when the
    /// services switch is off (whatever the status behind it).
    static func authorizationName(_ status: AuthorizationStatus, servicesOff: Bool) -> String {
        servicesOff ? "services-off" : status.rawValue
    }
}
