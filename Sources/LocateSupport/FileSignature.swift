import Glibc

/// What `stat` says of a file, through its links and of the link itself: it changes when the
/// file is written, replaced or removed, when its mode or owner changes, or when a link is
/// pointed elsewhere. What is derived from a file (its parsed settings, the place index) is
/// kept with its signature, and read again only when the signature differs. Shared by the
/// libraries (`package`).
package struct FileSignature: Sendable, Hashable {
    /// The fields of one `stat`, or the `errno` of a failed one.
    package struct Stamp: Sendable, Hashable {
        var device = 0
        var inode = 0
        var size = 0
        var modified = timespec()
        var changed = timespec()
        var mode = 0
        var owner = 0
        var error: Int32 = 0

        init(_ path: String, followingLinks: Bool) {
            var info = stat()
            guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
                error = errno
                return
            }
            device = Int(info.st_dev)
            inode = Int(info.st_ino)
            size = Int(info.st_size)
            modified = info.st_mtim
            changed = info.st_ctim
            mode = Int(info.st_mode)
            owner = Int(info.st_uid)
        }

        /// Whether the path named nothing.
        package var isMissing: Bool { error == ENOENT }

        /// When the file last changed, its content or its inode (`st_mtime` or `st_ctime`, the
        /// later: a file renamed into place, as editors save, has a new change time), in Unix
        /// seconds; `nil` when it could not be read.
        package var lastChange: Double? {
            guard error == 0 else { return nil }
            return max(Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9, Double(changed.tv_sec) + Double(changed.tv_nsec) / 1e9)
        }

        /// The stamp as numbers, to be written beside what is derived from the file and compared
        /// when it is read back.
        package var numbers: [Int] {
            [device, inode, size, modified.tv_sec, modified.tv_nsec, changed.tv_sec, changed.tv_nsec, mode, owner, Int(error)]
        }

        package static func == (lhs: Stamp, rhs: Stamp) -> Bool {
            (lhs.device, lhs.inode, lhs.size, lhs.mode, lhs.owner, lhs.error) == (
                rhs.device, rhs.inode, rhs.size, rhs.mode, rhs.owner, rhs.error
            )
                && (lhs.modified.tv_sec, lhs.modified.tv_nsec, lhs.changed.tv_sec, lhs.changed.tv_nsec)
                    == (rhs.modified.tv_sec, rhs.modified.tv_nsec, rhs.changed.tv_sec, rhs.changed.tv_nsec)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(inode)
            hasher.combine(modified.tv_nsec)
        }
    }

    /// The file's own stamp, through its links: what to stamp a derived thing with.
    package let file: Stamp
    /// The stamp of the path itself, a link or not.
    package let link: Stamp
    /// For a file whose trust rests on its way (a settings file): the device, inode, mode and
    /// owner of every directory above it and above each link on the way, so that a directory
    /// made writable by others, or given to another user, changes the signature (their times
    /// do not count: a file made in `$HOME` changes nothing of the way). Empty otherwise.
    package let way: [Int]

    /// The signature of `path` now; `withTheWay`: with the directories it rests on (``way``).
    package init(path: String, withTheWay: Bool = false) {
        file = Stamp(path, followingLinks: true)
        link = Stamp(path, followingLinks: false)
        guard withTheWay else {
            way = []
            return
        }
        var directories: [String] = []
        for directory in FileWatcher.directoriesToWatch(path) {
            var current = directory
            while !directories.contains(current) {
                directories.append(current)
                guard current != "/", !current.isEmpty else { break }
                current = LocateSupport.directory(of: current)
            }
        }
        way = directories.flatMap { directory in
            let stamp = Stamp(directory, followingLinks: false)
            return [stamp.device, stamp.inode, stamp.mode, stamp.owner, Int(stamp.error)]
        }
    }
}
