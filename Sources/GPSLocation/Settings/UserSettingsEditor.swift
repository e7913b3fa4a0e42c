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
        do {
            try PrivateFile.write(kept.joined(separator: "\n") + "\n", to: file)
        } catch {
            throw ConfigurationError(file: file, message: error.description)
        }
    }
}
