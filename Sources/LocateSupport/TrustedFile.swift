package import Glibc

/// Reading files that someone else could have put there: only regular files (a FIFO or a device
/// would hang or never end), only up to a size, and only from owners that are trusted for the
/// file's role, writable by no one else (sshd's rule for its configuration). Shared by the
/// libraries (`package`).
package enum TrustedFile {
    /// Who may own a file that is read.
    package enum Owner: Sendable {
        /// This user or root: the user's settings.
        case userOrRoot
        /// Root only: the administrator's policy.
        case root
        /// This user only: the user's cache.
        case user
        /// This user only, and no one else may read it either: a secret (a broker's password).
        case userPrivate
        /// Anyone, and anyone may write it: data of the system's packages that is checked
        /// whole when read (translation catalogues).
        case anyone
    }

    /// Why a file cannot be read: the words for a message after the path.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// The file's bytes, or `nil` when it does not exist.
    /// - Parameters:
    ///   - path: the file (symbolic links are followed: the file they lead to is checked).
    ///   - owner: who may own it.
    ///   - limit: the most to read; a larger file is refused.
    /// - Throws: `Refusal` for a file that cannot be read or is not to be trusted.
    package static func read(_ path: String, owner: Owner, limit: Int) throws(Refusal) -> [UInt8]? {
        try read(openedBy: { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }, owner: owner, limit: limit)
    }

    /// `read(_:owner:limit:)` for the file `name` in the directory open as `directory`, never
    /// following a symbolic link at `name`.
    package static func read(_ name: String, in directory: Int32, owner: Owner, limit: Int) throws(Refusal) -> [UInt8]? {
        try read(openedBy: { openat(directory, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }, owner: owner, limit: limit)
    }

    private static func read(openedBy opening: () -> Int32, owner: Owner, limit: Int) throws(Refusal) -> [UInt8]? {
        let descriptor = opening()
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw Refusal(description: "is a symbolic link where none may be") }
            throw Refusal(description: "cannot read: " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Refusal(description: "cannot read: " + String(cString: strerror(errno))) }
        try check(status, owner: owner)
        guard status.st_size <= limit else { throw Refusal(description: "is too large (over \(limit >> 10) KiB)") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= limit else { throw Refusal(description: "is too large (over \(limit >> 10) KiB)") }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count))
            }
            let count = bytes.withUnsafeMutableBytes { raw in
                // Never empty: it has room for at least one byte more than the file holds.
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.read(descriptor, base + filled, raw.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Refusal(description: "cannot read: " + String(cString: strerror(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { throw Refusal(description: "is too large (over \(limit >> 10) KiB)") }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Whether `status` is a regular file that `owner` may own, writable by no one else.
    package static func check(_ status: stat, owner: Owner) throws(Refusal) {
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(description: "is not a regular file (\(kind(status.st_mode)))")
        }
        let user = geteuid()
        switch owner {
        case .anyone:
            return
        case .userOrRoot:
            guard status.st_uid == user || status.st_uid == 0 else {
                throw Refusal(description: "is owned by another user (uid \(status.st_uid)); only your own file or root's is trusted")
            }
        case .root:
            guard status.st_uid == 0 else {
                throw Refusal(description: "is not owned by root (uid \(status.st_uid)); a policy must be root's alone")
            }
        case .user, .userPrivate:
            guard status.st_uid == user else { throw Refusal(description: "is owned by another user (uid \(status.st_uid))") }
        }
        if owner == .userPrivate, status.st_mode & (S_IRWXG | S_IRWXO) != 0 {
            throw Refusal(
                description:
                    "can be read or written by others (mode \(String(status.st_mode & 0o7777, radix: 8))); a secret must be yours alone: run chmod 600 on it"
            )
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw Refusal(
                description:
                    "is writable by \(status.st_mode & S_IWOTH != 0 ? "others" : "its group") (mode \(String(status.st_mode & 0o7777, radix: 8))); run chmod go-w on it"
            )
        }
    }

    /// What a path checked by `checkPath(_:to:owner:creatingDirectories:)` names.
    package enum PathEnd: Sendable {
        /// A file, which may not exist yet: symbolic links at its end are followed, and the
        /// directory that holds the file they lead to is the file's own.
        case file
        /// A directory that `DirectoryHandle(path:create:isPrivate:)` opens as private, and
        /// checks itself (the user's alone, never a link): the walk stops at its name.
        case privateDirectory
    }

    /// The most symbolic links one walk follows, as the kernel allows (`ELOOP` after 40).
    package static let symbolicLinkLimit = 40

    /// Checks everything the file (or private directory) at `path` rests on, walking the path
    /// as given, one component at a time, as the kernel resolves it (`lstat`, never `realpath`):
    /// every directory that holds a component must be owned by this user or root (root alone for
    /// `.root`) and writable by no one else, and so must the directory that holds each symbolic
    /// link on the way, and the link itself; then the link is followed (a relative target from
    /// the directory that holds it), at most `symbolicLinkLimit` times, and the walk goes on
    /// along the target. A directory root owns with the sticky bit, like `/tmp` (where no one may
    /// rename or remove another's files), is trusted above the file's own directory, never as it:
    /// anyone could still put a file of theirs in it (a lock, a file of the same name). Otherwise
    /// whoever can write one of them could move the file aside and back, or point the way at a
    /// file of their choosing (sshd's StrictModes checks the same). Where the path does not go
    /// on (a directory missing), the directory that would hold it is checked, and with
    /// `creatingDirectories` the missing directories are made (mode 0700) one by one, each checked
    /// before anything is made in it; the file itself, or the private directory, is not made.
    /// - Parameters:
    ///   - path: the path as configured (a relative one is taken from the working directory).
    ///   - end: what the path names.
    ///   - owner: whose file it is; `.anyone` checks nothing.
    ///   - creatingDirectories: make the missing directories before the last component.
    /// - Returns: where the path leads, with no symbolic link in it up to the first component
    ///   that does not exist (the rest as given).
    /// - Throws: `Refusal` naming the directory or link at fault and why, or the component that
    ///   cannot be looked at, or made.
    @discardableResult
    package static func checkPath(
        _ path: String, to end: PathEnd, owner: Owner, creatingDirectories: Bool = false
    ) throws(Refusal) -> String {
        // The components still to walk, the next one last.
        var pending = Array(components(of: path).reversed())
        if !path.hasPrefix("/") { pending += try components(of: currentDirectory()).reversed() }
        // The directory reached so far: no symbolic link in it, each component checked.
        var reached: [String] = []
        // `reached` as a path, kept as it grows (rebuilt only when it shrinks or starts over).
        var holder = "/"
        var reachedStatus: stat?
        var links = 0
        var creations = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                if !reached.isEmpty { reached.removeLast() }
                holder = "/" + joinedPath(reached)
                reachedStatus = nil
                continue
            }
            let here = (reached.isEmpty ? "/" : holder + "/") + name
            let holderStatus: stat
            if let known = reachedStatus {
                holderStatus = known
            } else {
                holderStatus = try directoryStatus(holder)
            }
            let isLast = pending.isEmpty
            var status = stat()
            guard lstat(here, &status) == 0 else {
                let code = errno
                guard code == ENOENT else {
                    throw Refusal(description: "cannot look at \(UntrustedText.visible(here)): " + errorText(code))
                }
                try checkDirectory(holder, holderStatus, owner: owner, isOwn: isLast && end == .file)
                guard creatingDirectories, !isLast else { return joinedPath([here] + pending.reversed()) }
                creations += 1
                guard creations <= 255 else {
                    throw Refusal(description: "cannot create \(UntrustedText.visible(here)): it keeps vanishing")
                }
                if mkdir(here, 0o700) != 0, case let code = errno, code != EEXIST {
                    throw Refusal(description: "cannot create \(UntrustedText.visible(here)): " + errorText(code))
                }
                // Looked at again, as any component: made by someone else meanwhile, it is refused.
                pending.append(name)
                continue
            }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFLNK, !(isLast && end == .privateDirectory) {
                try checkDirectory(holder, holderStatus, owner: owner, isOwn: false)
                try checkLink(here, status, owner: owner)
                links += 1
                guard links <= symbolicLinkLimit else {
                    throw Refusal(
                        description: "more than \(symbolicLinkLimit) symbolic links lead on from \(UntrustedText.visible(here)) (a loop?)")
                }
                let target = try linkTarget(here)
                if target.hasPrefix("/") {
                    reached = []
                    holder = "/"
                    reachedStatus = nil
                }
                pending += components(of: target).reversed()
                continue
            }
            try checkDirectory(holder, holderStatus, owner: owner, isOwn: isLast && end == .file)
            // The file, or the private directory (not followed: its opener refuses a link).
            if isLast { return here }
            guard kind == S_IFDIR else {
                throw Refusal(description: "\(UntrustedText.visible(here)) is not a directory, and the path goes on through it")
            }
            reached.append(name)
            holder = here
            reachedStatus = status
        }
        // The path ends at a directory (`/`, `.`, `..`): not one a file can be.
        throw Refusal(description: "\(UntrustedText.visible(path)) does not end in a name")
    }

    /// Whether the directory `path`, whose status is `status`, can hold a component of the way
    /// to a file of `owner`'s; `isOwn`: it holds the file itself.
    private static func checkDirectory(_ path: String, _ status: stat, owner: Owner, isOwn: Bool) throws(Refusal) {
        let user = geteuid()
        let trustedOwner: Bool
        switch owner {
        case .anyone: return
        case .root: trustedOwner = status.st_uid == 0
        case .user, .userPrivate: trustedOwner = status.st_uid == user || (!isOwn && status.st_uid == 0)
        case .userOrRoot: trustedOwner = status.st_uid == user || status.st_uid == 0
        }
        let shown = UntrustedText.visible(path)
        guard trustedOwner else {
            throw Refusal(
                description: owner == .root
                    ? "\(shown) is not owned by root (uid \(status.st_uid)), who could replace what it holds; a policy must rest on root's directories alone"
                    : "\(shown) is owned by another user (uid \(status.st_uid)), who could replace what it holds; keep the file in a directory of your own"
            )
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return }
        let mode = String(status.st_mode & 0o7777, radix: 8)
        let by = status.st_mode & S_IWOTH != 0 ? "others" : "its group"
        guard status.st_mode & S_ISVTX != 0, status.st_uid == 0 else {
            throw Refusal(
                description: "\(shown) is writable by \(by) (mode \(mode)), who could replace what it holds; run chmod go-w \(shown)")
        }
        // Sticky and root's, like /tmp: no one can take away what another put there, but anyone
        // can put something of their own beside it.
        guard !isOwn else {
            throw Refusal(
                description:
                    "\(shown) is writable by \(by) (mode \(mode)), who could put files of their own beside yours; keep the file in a directory of your own"
            )
        }
    }

    /// Whether the symbolic link `path`, whose status is `status`, may lead the way to a file of
    /// `owner`'s: it is owned by that owner (in a sticky directory, its owner may replace it).
    private static func checkLink(_ path: String, _ status: stat, owner: Owner) throws(Refusal) {
        let trusted =
            switch owner {
            case .anyone: true
            case .root: status.st_uid == 0
            case .user, .userPrivate, .userOrRoot: status.st_uid == 0 || status.st_uid == geteuid()
            }
        guard !trusted else { return }
        throw Refusal(
            description:
                "\(UntrustedText.visible(path)) is a symbolic link of another user's (uid \(status.st_uid)), who could point it elsewhere; keep only your own links on the way"
        )
    }

    /// The `lstat` of the directory `path`, reached by the walk.
    private static func directoryStatus(_ path: String) throws(Refusal) -> stat {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let code = errno
            throw Refusal(description: "cannot look at \(UntrustedText.visible(path)): " + errorText(code))
        }
        return status
    }

    /// What the symbolic link `path` holds, as it is written.
    private static func linkTarget(_ path: String) throws(Refusal) -> String {
        let text = linkText(of: path)
        guard case .success(let target) = text, !target.isEmpty else {
            let reason = if case .failure(let error) = text { errorText(error.code) } else { "it is empty" }
            throw Refusal(description: "cannot read the symbolic link \(UntrustedText.visible(path)): " + reason)
        }
        return target
    }

    /// The names between the slashes of `path`, none empty.
    private static func components(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// `components` with a `/` between each two (what `joined(separator:)` gives, without the
    /// generic path's first-use cost, a sixth of a whole `--once`).
    private static func joinedPath(_ components: [String]) -> String {
        var path = components.first ?? ""
        for component in components.dropFirst() {
            path += "/"
            path += component
        }
        return path
    }

    /// This process's working directory, for a relative path.
    private static func currentDirectory() throws(Refusal) -> String {
        guard let pointer = getcwd(nil, 0) else {
            throw Refusal(description: "is relative, and the working directory cannot be known: " + errorText(errno))
        }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a file"
        }
    }
}
