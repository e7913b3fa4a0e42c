import GPSLocation

/// `locate permission [status|allow|deny|reset]`: shows or changes the user's choice in the
/// user settings file, for `[location]` or for the app named with `--app`.
struct PermissionCommand {
    let action: CommandLineOptions.PermissionAction
    let options: CommandLineOptions
    let settings: PermissionSettings
    /// Purged on deny and reset: a fix kept from before must not outlive the permission.
    let cache: LastFixCache

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        do {
            if action == .status {
                let lines = try statusLines()
                for line in lines { try StandardStreams.writeRecord(line) }
                return .success
            }
            try change()
            return .success
        } catch let error as StandardStreams.OutputError {
            throw error
        } catch {
            StandardStreams.diagnose(String(describing: error))
            return .configuration
        }
    }

    /// Allows, denies or resets, and says on stderr what holds now.
    private func change() throws(ConfigurationError) {
        switch action {
        case .status:
            return
        case .allow:
            try edit(setting: [.authorization(options.always ? .always : .whenInUse), .accuracy(options.reduced ? .reducedAccuracy : .fullAccuracy)])
        case .deny:
            try edit(setting: [.authorization(.denied)])
            cache.purge()
        case .reset:
            try edit(setting: [], removing: [.authorization, .accuracy])
            cache.purge()
        }
        let permission = try settings.resolve()
        StandardStreams.diagnose("\(subject): \(describe(permission))")
        if permission.status == .restricted || !permission.locationServicesEnabled {
            StandardStreams.diagnose("note: the administrator's policy or the services switch still applies")
        }
    }

    private var subject: String { options.app.map { "app \"\($0)\"" } ?? "default" }

    private func edit(setting: [UserSetting], removing: [UserSetting.Key] = []) throws(ConfigurationError) {
        try UserSettingsEditor(file: settings.files.userFile).update(app: options.app, setting: setting, removing: removing)
    }

    /// One line (or JSON object) per app: the default, then every app named in either file.
    private func statusLines() throws(ConfigurationError) -> [String] {
        let (user, policy) = try settings.files.load()
        let apps: [AppName?] = options.app.map { [$0] } ?? [nil] + Set(user.apps.keys).union(policy.apps.keys).sorted()
        let context = ProcessContext.current()
        return apps.map { app in
            let permission = PermissionSettings.resolve(user: user, policy: policy, app: app, isAllowedOnce: false, context: context)
            guard options.isJSON else { return (app.map { "app \"\($0)\"" } ?? "default") + ": " + describe(permission) }
            var object = JSONObjectWriter()
            object.add("app", string: app?.rawValue)
            object.add("authorization", string: AuthorizationMessages.authorizationName(permission.status, servicesOff: !permission.locationServicesEnabled))
            object.add("decided_by", string: permission.statusOrigin?.description)
            object.add("accuracy", string: permission.accuracy.rawValue)
            object.add("accuracy_decided_by", string: permission.accuracyOrigin?.description)
            object.add("authorized_now", bool: permission.isAuthorized)
            object.add("reason", string: permission.denial?.rawValue)
            return object.text
        }
    }

    private func describe(_ permission: Permission) -> String {
        let origin = permission.statusOrigin.map { "set in \($0)" } ?? "not set"
        let accuracyOrigin = permission.accuracyOrigin.map { "set in \($0)" } ?? "default"
        let now = permission.denial.map { "not authorized now (\($0.rawValue))" } ?? "authorized now"
        return "\(AuthorizationMessages.authorizationName(permission.status, servicesOff: !permission.locationServicesEnabled)) (\(origin)), accuracy \(permission.accuracy.rawValue) (\(accuracyOrigin)), \(now)"
    }
}
