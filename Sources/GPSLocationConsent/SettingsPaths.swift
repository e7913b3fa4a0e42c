import LocateSupport

/// Where the consent store keeps what it reads and writes, following the XDG base directory
/// specification: the user's settings, the administrator's policy, the user's cache (the last
/// fix handed out) and the user's state (the named monitors' last states). Paths are absolute: with a relative or missing `HOME`, the home
/// directory comes from the passwd entry, and without one there is no user file and no cache.
public struct SettingsPaths: Sendable, Hashable {
    /// The user's settings: `$XDG_CONFIG_HOME/locate/locate.conf` (default
    /// `~/.config/locate/locate.conf`); `nil` when no home directory is known.
    public var userFile: String?
    /// The candidate system policies, most important first: `locate/policy.conf` in each
    /// directory of `$XDG_CONFIG_DIRS` (default `/etc/xdg`). The first that exists applies.
    public var policyCandidates: [String]
    /// The user's cache directory: `$XDG_CACHE_HOME/locate` (default `~/.cache/locate`); `nil`
    /// when no home directory is known.
    public var cacheDirectory: String?
    /// The user's state directory, where the access log is kept: `$XDG_STATE_HOME/locate`
    /// (default `~/.local/state/locate`); `nil` when no home directory is known.
    public var stateDirectory: String?

    /// The directory of the named monitors' states: `$XDG_STATE_HOME/locate/monitors` (default
    /// `~/.local/state/locate/monitors`); `nil` when no home directory is known.
    public var monitorsDirectory: String?

    /// Creates the locations from explicit paths (absolute ones).
    public init(
        userFile: String?, policyCandidates: [String], cacheDirectory: String?, stateDirectory: String? = nil,
        monitorsDirectory: String? = nil
    ) {
        self.userFile = userFile
        self.policyCandidates = policyCandidates
        self.cacheDirectory = cacheDirectory
        self.stateDirectory = stateDirectory
        self.monitorsDirectory = monitorsDirectory
    }

    /// The locations for an environment (`XDG_CONFIG_HOME`, `XDG_CONFIG_DIRS`, `XDG_CACHE_HOME`,
    /// `XDG_STATE_HOME`, `HOME`).
    public init(environment: [String: String]) {
        self.init(BaseDirectories(environment: EnvironmentVariables(environment)))
    }

    init(_ directories: BaseDirectories) {
        self.init(
            userFile: directories.configHome.map { $0 + "/locate/locate.conf" },
            policyCandidates: directories.configDirectories.map { $0 + "/locate/policy.conf" },
            cacheDirectory: directories.cacheHome.map { $0 + "/locate" }, stateDirectory: directories.stateHome.map { $0 + "/locate" },
            monitorsDirectory: directories.stateHome.map { $0 + "/locate/monitors" })
    }

    /// The locations for this process's environment.
    public static var current: SettingsPaths { SettingsPaths(BaseDirectories.current) }
}
