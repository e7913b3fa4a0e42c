import GPSLocation
import GPSLocationConsent
import LocateSupport

/// `locate permission [status|allow|deny|reset]`: shows or changes the user's choice in the
/// user settings file, for `[location]` or for the app named with `--app`, through the consent
/// store (a locked, verified transaction; deny and reset purge the last-fix cache).
struct PermissionCommand {
    let action: CommandLineOptions.PermissionAction
    let options: CommandLineOptions
    let store: ConsentStore

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        let lines: [String]
        do throws(GPSLocationError) {
            if action != .status {
                try change()
                return .success
            }
            lines = try statusLines()
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        for line in lines { try StandardStreams.writeRecord(line) }
        return .success
    }

    /// Allows, denies or resets, and says on stderr what holds now.
    private func change() throws(GPSLocationError) {
        switch action {
        case .status:
            return
        case .allow:
            try store.allow(options.always ? .always : .whenInUse, accuracy: options.reduced ? .reducedAccuracy : .fullAccuracy)
        case .deny:
            try store.deny()
        case .reset:
            try store.reset()
        }
        let settings = try store.settings()
        let authorization = Authorization(decision: settings.decision, context: .current())
        StandardStreams.diagnose("\(subject): \(describe(authorization, settings: settings))")
        if settings.decision.status == .restricted || !settings.decision.locationServicesEnabled {
            StandardStreams.diagnose("note: the administrator's policy or the services switch still applies")
        }
    }

    private var subject: String { options.app.map { "app \"\($0)\"" } ?? "default" }

    /// One line (or JSON object) per app: the default, then every app named in either file.
    private func statusLines() throws(GPSLocationError) -> [String] {
        let (user, policy) = try store.files()
        let apps: [AppName?] = options.app.map { [$0] } ?? [nil] + Set(user.apps.keys).union(policy.apps.keys).sorted()
        let context = ProcessContext.current()
        return apps.map { app in
            let settings = ResolvedSettings(user: user, policy: policy, app: app)
            let authorization = Authorization(decision: settings.decision, context: context)
            guard options.isJSON else {
                return (app.map { "app \"\($0)\"" } ?? "default") + ": " + describe(authorization, settings: settings)
            }
            var object = JSONObjectWriter()
            object.add("app", string: app?.rawValue)
            object.add(
                "authorization",
                string: AuthorizationMessages.authorizationName(authorization.status, servicesOff: !authorization.locationServicesEnabled))
            object.add("decided_by", string: settings.statusOrigin?.description)
            object.add("accuracy", string: authorization.accuracy.rawValue)
            object.add("accuracy_decided_by", string: settings.accuracyOrigin?.description)
            object.add("authorized_now", bool: authorization.isAuthorized)
            object.add("reason", string: authorization.denial?.rawValue)
            return object.text
        }
    }

    private func describe(_ authorization: Authorization, settings: ResolvedSettings) -> String {
        let origin = settings.statusOrigin.map { "set in \($0)" } ?? "not set"
        let accuracyOrigin = settings.accuracyOrigin.map { "set in \($0)" } ?? "default"
        let now = authorization.denial.map { "not authorized now (\($0.rawValue))" } ?? "authorized now"
        return
            "\(AuthorizationMessages.authorizationName(authorization.status, servicesOff: !authorization.locationServicesEnabled)) (\(origin)), accuracy \(authorization.accuracy.rawValue) (\(accuracyOrigin)), \(now)"
    }
}
