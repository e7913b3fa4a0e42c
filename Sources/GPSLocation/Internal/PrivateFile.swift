import Glibc

/// Writing a file only its owner may read, so that a reader never sees half of it: a temporary
/// file in the same directory, mode 0600, then renamed over the target. Missing directories are
/// created with mode 0700.
enum PrivateFile {
    /// Why a write failed: what was being done, and the system's reason.
    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `text` to `path`.
    /// - Parameter durable: sync the file before the rename, so that it survives a crash (the
    ///   settings); a cache that is checked when read does without the wait.
    static func write(_ text: String, to path: String, durable: Bool) throws(WriteError) {
        try write(Array(text.utf8), to: path, durable: durable)
    }

    /// Writes `bytes` to `path`, as `write(_:to:durable:)` writes text.
    static func write(_ bytes: [UInt8], to path: String, durable: Bool) throws(WriteError) {
        func failure(_ what: String) -> WriteError {
            WriteError(description: "cannot \(what): " + String(cString: strerror(errno)))
        }
        let temporary = path + ".tmp-\(getpid())"
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == ENOENT {
            // The directories come first only when they are missing, which is rare.
            var directory = ""
            for component in path.split(separator: "/").dropLast() {
                directory += "/" + component
                if mkdir(directory, 0o700) != 0, errno != EEXIST { throw failure("create \(directory)") }
            }
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw failure("create \(temporary)") }
        var bytes = bytes
        var error: WriteError?
        while !bytes.isEmpty {
            let written = Glibc.write(descriptor, bytes, bytes.count)
            if written < 0 {
                if errno == EINTR { continue }
                error = failure("write \(temporary)")
                break
            }
            bytes.removeFirst(written)
        }
        if error == nil, fchmod(descriptor, 0o600) != 0 || (durable && fsync(descriptor) != 0) { error = failure("sync \(temporary)") }
        if close(descriptor) != 0, error == nil { error = failure("close \(temporary)") }
        if error == nil, rename(temporary, path) != 0 { error = failure("rename \(temporary) to \(path)") }
        if let error {
            unlink(temporary)
            throw error
        }
    }
}
