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
        case .user:
            guard status.st_uid == user else { throw Refusal(description: "is owned by another user (uid \(status.st_uid))") }
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw Refusal(
                description:
                    "is writable by \(status.st_mode & S_IWOTH != 0 ? "others" : "its group") (mode \(String(status.st_mode & 0o7777, radix: 8))); run chmod go-w on it"
            )
        }
    }

    /// Whether the directory at `path`, and every directory above it up to `/`, can be trusted
    /// to hold a file of `owner`'s: each owned by that owner (this user or root, or root alone
    /// for `.root`) and writable by no one else, or, like `/tmp`, root's with the sticky bit
    /// (where no one may rename or remove another's files). Otherwise whoever can write one of
    /// them could move the file aside and back, or put one of their own in its place (sshd's
    /// StrictModes checks the same). A directory that does not exist is not checked.
    /// - Throws: `Refusal` naming the directory at fault and what to run.
    package static func checkDirectory(_ path: String, owner: Owner) throws(Refusal) {
        guard let resolved = realpath(path, nil) else { return }
        defer { free(resolved) }
        var directory = String(cString: resolved)
        let user = geteuid()
        while true {
            var status = stat()
            if stat(directory, &status) == 0 {
                let trustedOwner = status.st_uid == 0 || (owner != .root && status.st_uid == user)
                guard trustedOwner else {
                    throw Refusal(
                        description:
                            "\(UntrustedText.visible(directory)) is owned by another user (uid \(status.st_uid)), who could replace what it holds; keep the file in a directory of your own"
                    )
                }
                let writable = status.st_mode & (S_IWGRP | S_IWOTH) != 0
                let stickyRoot = status.st_mode & S_ISVTX != 0 && status.st_uid == 0
                guard !writable || stickyRoot else {
                    throw Refusal(
                        description:
                            "\(UntrustedText.visible(directory)) is writable by \(status.st_mode & S_IWOTH != 0 ? "others" : "its group") (mode \(String(status.st_mode & 0o7777, radix: 8))), who could replace what it holds; run chmod go-w \(UntrustedText.visible(directory))"
                    )
                }
            }
            guard directory != "/", let slash = directory.lastIndex(of: "/") else { return }
            directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
        }
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
