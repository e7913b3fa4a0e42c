/// Follows the permission over time: the settings files are read again only when they changed,
/// the process's terminal state every time it is asked. Used by live streams and by
/// `GPSLocationManager.authorizationUpdates()`.
struct PermissionTracker: Sendable {
    let settings: PermissionSettings
    private var files: (user: LocationSettings, policy: LocationSettings)
    /// The permission as of the last `update`.
    private(set) var permission: Permission

    /// Reads both files and resolves the permission for this process now.
    /// - Throws: `ConfigurationError` when a file is unreadable or malformed.
    init(_ settings: PermissionSettings) throws(ConfigurationError) {
        self.settings = settings
        files = try settings.files.load()
        permission = PermissionSettings.resolve(user: files.user, policy: files.policy, app: settings.app,
                                                isAllowedOnce: settings.isAllowedOnce, context: settings.currentContext)
    }

    /// Resolves the permission again, reading the files first when `filesChanged`.
    /// - Returns: the permission before the update.
    /// - Throws: `ConfigurationError` when a file became unreadable or malformed (fail closed).
    @discardableResult
    mutating func update(filesChanged: Bool) throws(ConfigurationError) -> Permission {
        if filesChanged { files = try settings.files.load() }
        let old = permission
        permission = PermissionSettings.resolve(user: files.user, policy: files.policy, app: settings.app,
                                                isAllowedOnce: settings.isAllowedOnce, context: settings.currentContext)
        return old
    }
}
