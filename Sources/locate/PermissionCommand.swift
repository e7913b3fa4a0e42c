import GPSLocation
import GPSLocationConsent
import LocateSupport

/// `locate permission [status|allow|deny|reset]`: shows or changes the user's choice in the
/// user settings file, for `[location]` or for the app named with `--app`, through the consent
/// store (a locked, verified transaction; deny and reset purge the last-fix cache).
struct PermissionCommand {
    let options: PermissionOptions
    let store: ConsentStore

    private var action: PermissionOptions.Action { options.action }

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        let lines: [String]
        do throws(GPSLocationError) {
            if action != .status {
                return try change() ? .success : .notAuthorized
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
    /// - Returns: whether what was asked for holds now: `false` for an allow that the
    ///   administrator's policy or the services switch overrides (the choice is written, and
    ///   counts once they permit it), so that a set-up script can tell.
    private func change() throws(GPSLocationError) -> Bool {
        switch action {
        case .status:
            return true
        case .allow:
            try store.allow(always: options.always, accuracy: options.reduced ? .reducedAccuracy : .fullAccuracy)
        case .deny:
            try store.deny()
        case .reset:
            try store.reset()
        }
        let settings = try store.settings()
        let authorization = Authorization(decision: settings.decision, appState: .terminal)
        StandardStreams.diagnose("\(subject): \(describe(authorization, settings: settings))")
        guard action == .allow else { return true }
        let asked: AuthorizationStatus = options.always ? .authorizedAlways : .authorizedWhenInUse
        let overridden =
            !settings.decision.locationServicesEnabled || settings.decision.status != asked
            || (!options.reduced && settings.decision.accuracy == .reducedAccuracy)
        if overridden {
            StandardStreams.diagnose(
                "error: the administrator's policy or the services switch overrides this choice; it is saved, and applies once they allow it"
            )
        }
        return !overridden
    }

    private var subject: String { options.app.map { "app \"\($0)\"" } ?? "default" }

    /// One line (or JSON object) per app: the default, then every app named in either file.
    private func statusLines() throws(GPSLocationError) -> [String] {
        var apps: [String?] = [options.app]
        if options.app == nil { apps += try store.appNames() }
        let appState = AppState.terminal
        var lines: [String] = []
        for app in apps {
            let settings = try store.forApp(app).settings()
            let authorization = Authorization(decision: settings.decision, appState: appState)
            guard options.json else {
                lines.append(
                    UntrustedText.visible((app.map { "app \"\($0)\"" } ?? "default") + ": " + describe(authorization, settings: settings)))
                continue
            }
            var object = JSONObjectWriter()
            object.add("app", string: app)
            object.add(
                "authorization",
                string: AuthorizationMessages.authorizationName(authorization.status, servicesOff: !authorization.locationServicesEnabled))
            object.add("decided_by", string: settings.statusDecidedBy?.description)
            object.add("accuracy", string: authorization.accuracy.rawValue)
            object.add("accuracy_decided_by", string: settings.accuracyDecidedBy?.description)
            object.add("authorized_now", bool: authorization.isAuthorized)
            object.add("reason", string: authorization.denial?.rawValue)
            lines.append(object.text)
        }
        return lines
    }

    private func describe(_ authorization: Authorization, settings: ConsentSettings) -> String {
        let origin = settings.statusDecidedBy.map { "set in \($0)" } ?? "not set"
        let accuracyOrigin = settings.accuracyDecidedBy.map { "set in \($0)" } ?? "default"
        let now = authorization.denial.map { "not authorized now (\($0.rawValue))" } ?? "authorized now"
        return
            "\(AuthorizationMessages.authorizationName(authorization.status, servicesOff: !authorization.locationServicesEnabled)) (\(origin)), accuracy \(authorization.accuracy.rawValue) (\(accuracyOrigin)), \(now)"
    }
}

extension PermissionCommand {
    /// Runs `locate permission` with `options`, through the consent store of `--app`.
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(_ options: PermissionOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        let store: ConsentStore
        do throws(ExitStatus) {
            store = try ConsentSetup.store(app: options.app)
        } catch {
            return error
        }
        return try PermissionCommand(options: options, store: store).run()
    }
}
