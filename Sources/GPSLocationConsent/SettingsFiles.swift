import GPSLocation
import LocateSupport

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
        // With the way: the files' trust rests on their directories too.
        ((paths.userFile.map { [$0] } ?? []) + paths.policyCandidates).map { FileSignature(path: $0, withTheWay: true) }
    }

    /// One settings file, parsed; `nil` when it does not exist.
    private static func read(_ path: String, role: LocationSettings.Role) throws(GPSLocationError) -> LocationSettings? {
        let owner: TrustedFile.Owner = role == .user ? .userOrRoot : .root
        try checkDirectories(of: path, owner: owner)
        guard let bytes = try bytes(of: path, owner: owner) else {
            return role == .user ? LocationSettings(file: path) : nil
        }
        return try LocationSettings(SettingsLines(bytes), file: path, role: role)
    }

    /// Checks the way to a settings file, as given, component by component
    /// (`TrustedFile.checkPath(_:to:owner:creatingDirectories:)`): every directory that holds a
    /// component, the file's own directory and those holding each symbolic link on the way
    /// (links followed, as the kernel does), must be mine or root's (root's alone for the
    /// policy) and writable by no one else, but for a sticky directory of root's (`/tmp`) above
    /// the file's own; and the links must be mine or root's. Whether the file exists or not: a
    /// directory someone else can write lets them put a file there, or take one away and bring
    /// it back after a deny; a link of theirs lets them point the way elsewhere.
    /// - Parameter creatingDirectories: make the missing directories on the way (mode 0700),
    ///   each checked before anything is made in it (for the editor).
    /// - Returns: the file's path with no symbolic link in it: where the editor writes.
    /// - Throws: `GPSLocationError.invalidSettings` naming the file and the directory at fault.
    @discardableResult
    static func checkDirectories(
        of path: String, owner: TrustedFile.Owner, creatingDirectories: Bool = false
    ) throws(GPSLocationError) -> String {
        do throws(TrustedFile.Refusal) {
            return try TrustedFile.checkPath(path, to: .file, owner: owner, creatingDirectories: creatingDirectories)
        } catch {
            throw .invalidSettings(SettingsProblem(file: path, message: "cannot be trusted: " + error.description))
        }
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
