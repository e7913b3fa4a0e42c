import Glibc

/// Where the two settings files live, following the XDG Base Directory specification, and
/// reading them.
public struct SettingsFiles: Sendable, Hashable {
    /// The user's settings: `$XDG_CONFIG_HOME/locate/locate.conf` (default `~/.config/locate/locate.conf`).
    public var userFile: String
    /// The candidate system policies, most important first: `locate/policy.conf` in each
    /// directory of `$XDG_CONFIG_DIRS` (default `/etc/xdg`). The first that exists applies.
    public var policyCandidates: [String]

    /// Creates the locations from explicit paths.
    public init(userFile: String, policyCandidates: [String]) {
        self.userFile = userFile
        self.policyCandidates = policyCandidates
    }

    /// The locations for an environment (`XDG_CONFIG_HOME`, `HOME`, `XDG_CONFIG_DIRS`).
    public init(environment: [String: String]) {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? "") + "/.config")
        let configDirs = (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
            .split(separator: ":").filter { $0.hasPrefix("/") }
        self.init(userFile: configHome + "/locate/locate.conf",
                  policyCandidates: configDirs.map { $0 + "/locate/policy.conf" })
    }

    /// The locations for this process's environment.
    public static var current: SettingsFiles {
        SettingsFiles(environment: ProcessEnvironment.variables)
    }

    /// The policy file in force: the first candidate that exists (it may be unreadable, which is an error when read).
    public var policyFile: String? {
        policyCandidates.first { access($0, F_OK) == 0 }
    }

    /// Reads and checks both files. A missing file counts as empty.
    /// - Throws: `ConfigurationError` for an unreadable or malformed file (fail closed).
    public func load() throws(ConfigurationError) -> (user: LocationSettings, policy: LocationSettings) {
        let user = try Self.read(userFile, role: .user)
        let policy = try policyFile.map { (path) throws(ConfigurationError) in try Self.read(path, role: .policy) }
            ?? LocationSettings(file: policyCandidates.first ?? "policy.conf")
        return (user, policy)
    }

    /// Reads one settings file; a missing file gives empty settings.
    static func read(_ path: String, role: LocationSettings.Role) throws(ConfigurationError) -> LocationSettings {
        guard let bytes = try readBytes(path) else { return LocationSettings(file: path) }
        return try LocationSettings(bytes: bytes, file: path, role: role)
    }

    /// The file's bytes, or `nil` when it does not exist.
    /// - Parameter limit: the most to read; a larger file is an error (1 MiB: a settings file).
    static func readBytes(_ path: String, limit: Int = 1 << 20) throws(ConfigurationError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw ConfigurationError(file: path, message: "cannot read: " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigurationError(file: path, message: "cannot read: " + String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw ConfigurationError(file: path, message: "too large (over \(limit >> 10) KiB)") }
            bytes += chunk[0..<count]
        }
    }
}
