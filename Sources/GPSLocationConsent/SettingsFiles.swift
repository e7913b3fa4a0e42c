import GPSLocation

/// Reading the two settings files: the user's and the policy in force (the first candidate that
/// exists). Each must be a regular file its role trusts (the user's: the user's or root's; the
/// policy: root's), writable by no one else, as sshd trusts its configuration; anything else is
/// a `GPSLocationError.invalidSettings` naming the file (fail closed).
struct SettingsFiles {
    /// The most a settings file may hold.
    static let sizeLimit = 1 << 20

    /// Both files, parsed and checked, with the signatures they were read at.
    let user: LocationSettings
    let policy: LocationSettings
    let signatures: [FileSignature]

    /// Reads both files; a missing file counts as empty.
    /// - Throws: `GPSLocationError.invalidSettings` for a file that is unreadable, untrusted or
    ///   malformed.
    /// - Parameter signatures: the files' signatures, taken before they are read (so a file
    ///   changed while it is read is read again next time).
    init(_ paths: SettingsPaths, signatures: [FileSignature]) throws(GPSLocationError) {
        self.signatures = signatures
        user =
            try paths.userFile.flatMap { (path) throws(GPSLocationError) in try Self.read(path, role: .user) }
            ?? LocationSettings(file: "locate.conf")
        var policy: LocationSettings?
        for (candidate, signature) in zip(paths.policyCandidates, signatures.suffix(paths.policyCandidates.count))
        where !signature.file.isMissing {
            policy = try Self.read(candidate, role: .policy)
            if policy != nil { break }
        }
        self.policy = policy ?? LocationSettings(file: paths.policyCandidates.first ?? "policy.conf")
    }

    /// What the files' signatures are now, in the order `signatures` keeps them.
    static func signatures(_ paths: SettingsPaths) -> [FileSignature] {
        ((paths.userFile.map { [$0] } ?? []) + paths.policyCandidates).map(FileSignature.init(path:))
    }

    /// One settings file, parsed; `nil` when it does not exist.
    private static func read(_ path: String, role: LocationSettings.Role) throws(GPSLocationError) -> LocationSettings? {
        guard let bytes = try bytes(of: path, owner: role == .user ? .userOrRoot : .root) else {
            return role == .user ? LocationSettings(file: path) : nil
        }
        return try LocationSettings(SettingsLines(bytes), file: path, role: role)
    }

    /// A settings file's bytes, checked; `nil` when it does not exist.
    static func bytes(of path: String, owner: TrustedFile.Owner) throws(GPSLocationError) -> [UInt8]? {
        do {
            return try TrustedFile.read(path, owner: owner, limit: sizeLimit)
        } catch {
            throw .invalidSettings(SettingsProblem(file: path, message: error.description))
        }
    }
}
