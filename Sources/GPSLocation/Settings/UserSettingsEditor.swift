import Glibc

/// Changes keys of the user's settings file the way a person would with an editor: every other
/// line, comment and blank stays as it was. Writes are atomic (a temporary file in the same
/// directory, then `rename`) and the file is mode 0600; the directory is created 0700.
public struct UserSettingsEditor: Sendable {
    /// The user settings file.
    public let file: String

    /// Creates an editor for `file`.
    public init(file: String) {
        self.file = file
    }

    /// Sets `key = value` in `[location]`, or in `[app "NAME"]` when `app` is given, and removes
    /// each key of `removing` from that section.
    /// - Throws: `ConfigurationError` when the file is malformed (it is not rewritten) or cannot be written.
    public func update(app: String?, setting: [(key: String, value: String)], removing: [String] = []) throws(ConfigurationError) {
        let original = try SettingsFiles.readBytes(file) ?? []
        // A malformed file is not rewritten: the user's mistake stays where they can see it.
        _ = try LocationSettings(bytes: original, file: file, role: .user)
        let document = try SettingsDocument(bytes: original, file: file)
        let section = SettingsDocument.SectionName(name: app == nil ? "location" : "app", app: app)
        var lines = original.isEmpty ? [] : String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }

        var dropped: Set<Int> = []
        var pending = setting
        for entry in document.entries where entry.section == section {
            if removing.contains(entry.key) {
                dropped.insert(entry.line - 1)
            } else if let index = pending.firstIndex(where: { $0.key == entry.key }) {
                lines[entry.line - 1] = "\(entry.key) = \(pending[index].value)"
                pending.remove(at: index)
            }
        }
        if !pending.isEmpty {
            let newLines = pending.map { "\($0.key) = \($0.value)" }
            if let header = document.headers.last(where: { $0.section == section }) {
                // After the last key of the section (or its header), before trailing blanks and comments.
                let lastLine = document.entries.filter { $0.section == section }.map(\.line).max() ?? header.line
                lines.insert(contentsOf: newLines, at: lastLine)
            } else {
                if let last = lines.last, !last.trimmingSpaces.isEmpty { lines.append("") }
                lines.append(section.description)
                lines += newLines
            }
        }
        let kept = lines.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        try writeAtomically(kept.joined(separator: "\n") + "\n")
    }

    private func writeAtomically(_ text: String) throws(ConfigurationError) {
        func failure(_ what: String) -> ConfigurationError {
            ConfigurationError(file: file, message: "cannot write (\(what)): " + String(cString: strerror(errno)))
        }
        try makeDirectories(upTo: file)
        let temporary = file + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create") }
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let written = write(descriptor, bytes, bytes.count)
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure("write")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            bytes.removeFirst(written)
        }
        guard fchmod(descriptor, 0o600) == 0, fsync(descriptor) == 0, close(descriptor) == 0 else {
            let error = failure("sync")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, file) == 0 else {
            let error = failure("rename")
            unlink(temporary)
            throw error
        }
    }

    private func makeDirectories(upTo path: String) throws(ConfigurationError) {
        var current = ""
        for component in path.split(separator: "/").dropLast() {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw ConfigurationError(file: file, message: "cannot create \(current): " + String(cString: strerror(errno)))
            }
        }
    }
}
