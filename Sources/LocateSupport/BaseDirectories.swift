import Glibc

/// This user's directories by the XDG base directory specification, for the consent store's
/// settings and every cache: always absolute paths, never relative ones, so that a relative or
/// missing `HOME` cannot make `locate` write its files relative to whatever the working directory
/// is. Shared by the libraries (`package`).
package struct BaseDirectories: Sendable, Hashable {
    /// The user's home: `HOME` when it is an absolute path, else the passwd entry's; `nil` when
    /// neither is.
    package var home: String?
    /// `$XDG_CONFIG_HOME` when absolute, else `~/.config`; `nil` without a home.
    package var configHome: String?
    /// The absolute entries of `$XDG_CONFIG_DIRS`, most important first; `/etc/xdg` when there
    /// are none.
    package var configDirectories: [String]
    /// `$XDG_CACHE_HOME` when absolute, else `~/.cache`; `nil` without a home.
    package var cacheHome: String?
    /// `$XDG_STATE_HOME` when absolute, else `~/.local/state`; `nil` without a home.
    package var stateHome: String?

    /// The directories an environment names.
    package init(environment: EnvironmentVariables) {
        func absolute(_ name: String) -> String? {
            environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil }
        }
        let home = absolute("HOME") ?? Self.passwdHome()
        self.home = home
        configHome = absolute("XDG_CONFIG_HOME") ?? home.map { $0 + "/.config" }
        cacheHome = absolute("XDG_CACHE_HOME") ?? home.map { $0 + "/.cache" }
        stateHome = absolute("XDG_STATE_HOME") ?? home.map { $0 + "/.local/state" }
        let directories = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").filter { $0.hasPrefix("/") }.map(String.init)
        configDirectories = directories.isEmpty ? ["/etc/xdg"] : directories
    }

    /// The directories of this process's environment.
    package static var current: BaseDirectories { BaseDirectories(environment: .process) }

    /// The home directory of the passwd entry of the effective user, when it is absolute.
    private static func passwdHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else {
            return nil
        }
        let path = String(cString: directory)
        return path.hasPrefix("/") ? path : nil
    }
}
