import Glibc

/// A directory opened once and then used by its descriptor, so that what is read, written,
/// locked and renamed in it stays in that directory whatever happens to its path meanwhile.
/// Files are replaced atomically (a temporary file created exclusively under a name of its own,
/// then renamed), and names in it are never followed as symbolic links. Shared by the libraries
/// (`package`).
///
/// - Important: not thread-safe: open one per use.
package final class DirectoryHandle {
    /// Why the directory cannot be used, or a file in it not written: words after the path.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
        /// The directory does not exist (and was not to be created).
        package var isMissing = false
    }

    /// The directory's path, for messages.
    package let path: String
    private let descriptor: Int32

    /// Opens the directory at `path`, creating it and its missing parents (mode 0700) when
    /// `create` is set.
    /// - Parameter isPrivate: the directory must be this user's alone: not a symbolic link,
    ///   owned by this user, and writable by no one else, and the way to it one that no one else
    ///   can change (`TrustedFile.checkPath(_:to:owner:creatingDirectories:)`, checked before
    ///   anything is made), for a cache, whose files must be neither read from nor written for
    ///   someone else. Otherwise links are followed (a settings directory may be a dotfile
    ///   manager's link) and the way is the caller's to check.
    /// - Throws: `Failure` when it does not exist (and is not to be created), cannot be opened,
    ///   or is not private when it must be.
    package init(path: String, create: Bool, isPrivate: Bool) throws(Failure) {
        self.path = path
        if isPrivate {
            do throws(TrustedFile.Refusal) {
                try TrustedFile.checkPath(path, to: .privateDirectory, owner: .user, creatingDirectories: create)
            } catch {
                throw Failure(description: "cannot be trusted: " + error.description)
            }
        }
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (isPrivate ? O_NOFOLLOW : 0)
        var descriptor = open(path, flags)
        if descriptor < 0, errno == ENOENT, create {
            var partial = ""
            for component in path.split(separator: "/") {
                partial += "/"
                partial += String(component)
                if mkdir(partial, 0o700) != 0, errno != EEXIST {
                    throw Failure(description: "cannot create \(partial): " + String(cString: strerror(errno)))
                }
            }
            descriptor = open(path, flags)
        }
        guard descriptor >= 0 else {
            if errno == ENOENT { throw Failure(description: "does not exist", isMissing: true) }
            throw Failure(
                description: errno == ELOOP || errno == ENOTDIR
                    ? "is not a directory of its own (a symbolic link or a file)" : "cannot open: " + String(cString: strerror(errno)))
        }
        self.descriptor = descriptor
        guard isPrivate else { return }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure(description: "cannot open: " + String(cString: strerror(errno))) }
        guard status.st_uid == geteuid() else {
            throw Failure(description: "is owned by another user (uid \(status.st_uid)), not yours alone")
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw Failure(description: "is writable by others (mode \(String(status.st_mode & 0o7777, radix: 8))), not yours alone")
        }
    }

    deinit {
        close(descriptor)
    }

    /// The names in the directory (not `.` and `..`), in no order; names that are not valid
    /// text are left out.
    package func names() -> [String] {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            // The name is read where it is: readdir's entry is only as long as its name, so the
            // 256-byte field must never be copied whole.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: 1) { String(validatingCString: $0) }
            }
            if let name, name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The bytes of the file `name`, checked as `TrustedFile` checks, or `nil` when it does not exist.
    package func read(_ name: String, owner: TrustedFile.Owner, limit: Int) throws(TrustedFile.Refusal) -> [UInt8]? {
        try TrustedFile.read(name, in: descriptor, owner: owner, limit: limit)
    }

    /// A new read-only descriptor of the file `name` (never through a symbolic link), or -1
    /// with `errno` set; the caller closes it.
    package func openForReading(_ name: String) -> Int32 {
        openat(descriptor, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
    }

    /// Replaces the file `name` with `bytes`, atomically: a temporary file created exclusively
    /// (a name no other writer uses, never through a link), mode 0600, renamed over `name`.
    /// - Parameter durable: sync the file and the directory, so the change survives a crash.
    package func replace(_ name: String, with bytes: [UInt8], durable: Bool) throws(Failure) {
        var temporary = ""
        var file: Int32 = -1
        for _ in 0..<16 {
            temporary = Self.temporaryPrefix(of: name) + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if file >= 0 || errno != EEXIST { break }
        }
        guard file >= 0 else { throw failure("create a temporary file") }
        var error: Failure?
        if let code = writeAll(bytes[...], to: file) {
            errno = code
            error = failure("write \(name)")
        }
        if error == nil, fchmod(file, 0o600) != 0 || (durable && fsync(file) != 0) { error = failure("sync \(name)") }
        if close(file) != 0, error == nil { error = failure("close \(name)") }
        if error == nil, renameat(descriptor, temporary, descriptor, name) != 0 { error = failure("rename onto \(name)") }
        if let error {
            unlinkat(descriptor, temporary, 0)
            throw error
        }
        if durable { fsync(descriptor) }
    }

    /// Appends `bytes` to the file `name` (created, mode 0600, when missing), in one write: lines
    /// of up to `PIPE_BUF` bytes from processes appending at once never interleave. Never through
    /// a link, and only to a regular file of this user's that no one else can write.
    /// - Returns: the file's size after the append.
    /// - Throws: `Failure` when the file is not such a file or cannot be written.
    package func append(_ name: String, _ bytes: [UInt8]) throws(Failure) -> Int {
        let file = openat(descriptor, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("open \(name)") }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
            status.st_mode & (S_IWGRP | S_IWOTH) == 0
        else {
            throw Failure(description: "\(path)/\(name) is not your own file")
        }
        if let code = writeAll(bytes[...], to: file) {
            errno = code
            throw failure("write \(name)")
        }
        return Int(status.st_size) + bytes.count
    }

    /// Checks that the file `name` is this user's regular file that no one else can read or
    /// write (never through a link), creating it empty, mode 0600, when `create` is set and it is
    /// missing: for a file another library opens by its path (a database).
    /// - Returns: whether it is there now.
    /// - Throws: `Failure` naming the file and what is wrong with it.
    @discardableResult
    package func checkPrivateFile(_ name: String, create: Bool) throws(Failure) -> Bool {
        var status = stat()
        if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) != 0 {
            guard errno == ENOENT else { throw failure("look at \(name)") }
            guard create else { return false }
            let file = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard file >= 0 else { throw failure("create \(name)") }
            close(file)
            return true
        }
        do throws(TrustedFile.Refusal) {
            try TrustedFile.check(status, owner: .userPrivate)
        } catch {
            throw Failure(description: "\(path)/\(name) \(error.description)")
        }
        return true
    }

    /// Renames `name` to `newName` in the directory (replacing it), if `name` is there.
    package func rename(_ name: String, to newName: String) {
        renameat(descriptor, name, descriptor, newName)
    }

    /// The start of the names `replace(_:with:durable:)` gives its temporary files for `name`.
    private static func temporaryPrefix(of name: String) -> String { ".\(name).new-" }

    /// Removes the temporary files a `replace` of `name` left behind when its process was killed
    /// before the rename. Only for a caller that holds the lock every writer of `name` takes
    /// (otherwise another writer's file in flight would go).
    package func removeTemporaries(of name: String) {
        let prefix = Self.temporaryPrefix(of: name)
        for entry in names() where entry.hasPrefix(prefix) { remove(entry) }
    }

    /// When the regular file `name` (not a link) was last written, in Unix seconds; `nil` when
    /// there is no such file.
    package func lastModified(_ name: String) -> Double? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// Removes the file `name`, if it is there.
    package func remove(_ name: String) {
        unlinkat(descriptor, name, 0)
    }

    /// Takes the lock file `name` (created when missing, mode 0600), shared or exclusive, waiting
    /// at most `timeout` for another holder to let go; the lock lasts as long as the returned value.
    /// - Throws: `Failure` when the lock file is not this user's regular file or the wait runs out.
    package func lock(_ name: String, exclusive: Bool, timeout: Duration = .seconds(5)) throws(Failure) -> FileLock {
        let file = openat(descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("open the lock \(name)") }
        let lock = FileLock(descriptor: file)
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            throw Failure(description: "\(path)/\(name) is not your own lock file")
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while flock(file, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure("lock \(name)") }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "\(path)/\(name) is held by another process for more than \(timeout.formattedSeconds) s")
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        return lock
    }

    private func failure(_ what: String) -> Failure {
        Failure(description: "cannot \(what) in \(path): " + String(cString: strerror(errno)))
    }
}

/// A lock taken with `DirectoryHandle.lock`, held until this value goes away.
package final class FileLock {
    private let descriptor: Int32

    fileprivate init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        // Closing the descriptor releases the lock.
        close(descriptor)
    }
}
