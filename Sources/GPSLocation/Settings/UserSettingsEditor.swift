import Glibc

/// A key `locate permission` and the prompt write to the user's settings file, with its value.
public enum UserSetting: Sendable, Hashable {
    /// `authorization = when-in-use | always | denied`.
    case authorization(AuthorizationChoice)
    /// `accuracy = full | reduced`.
    case accuracy(AccuracyAuthorization)

    /// The keys the editor changes.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// `authorization`.
        case authorization
        /// `accuracy`.
        case accuracy
    }

    /// The setting's key.
    public var key: Key {
        switch self {
        case .authorization: .authorization
        case .accuracy: .accuracy
        }
    }

    /// The value as written in the file.
    var value: String {
        switch self {
        case .authorization(let choice): choice.rawValue
        case .accuracy(let accuracy): accuracy.rawValue
        }
    }
}

/// Changes keys of the user's settings file the way a person would with an editor: every other
/// line, comment and blank stays as it was. Writes are atomic (a temporary file in the same
/// directory, then `rename`) and the file is mode 0600; the directory is created 0700.
///
/// Keys and values come from closed sets and app names are `AppName`s, so nothing given to the
/// editor can add a section or a key of its own. As a second line of defence, the new content
/// is parsed again before it replaces the file, and it is not written unless it reads back as
/// exactly the old settings with the change asked for.
public struct UserSettingsEditor: Sendable {
    /// The user settings file.
    public let file: String

    /// Creates an editor for `file`.
    public init(file: String) {
        self.file = file
    }

    /// Sets each of `setting` in `[location]`, or in `[app "NAME"]` when `app` is given, and
    /// removes each key of `removing` from that section.
    /// - Throws: `ConfigurationError` when the file is malformed (it is not rewritten), when the
    ///   result would not read back as exactly this change, or when it cannot be written.
    public func update(app: AppName?, setting: [UserSetting], removing: [UserSetting.Key] = []) throws(ConfigurationError) {
        let original = try SettingsFiles.readBytes(file) ?? []
        // A malformed file is not rewritten: the user's mistake stays where they can see it.
        _ = try LocationSettings(bytes: original, file: file, role: .user)
        let document = try SettingsDocument(bytes: original, file: file)
        let section = SettingsDocument.SectionName(name: app == nil ? "location" : "app", app: app?.rawValue)
        let content = Self.edited(original, document: document, section: section, setting: setting, removing: removing)
        try verify(content, against: document, section: section, setting: setting, removing: removing)
        do {
            try PrivateFile.write(content, to: file, durable: true)
        } catch {
            throw ConfigurationError(file: file, message: error.description)
        }
    }

    /// The file's new content: changed lines in place, new keys after the section's last key (or
    /// in a new section at the end), removed keys' lines gone.
    private static func edited(
        _ original: [UInt8], document: SettingsDocument, section: SettingsDocument.SectionName,
        setting: [UserSetting], removing: [UserSetting.Key]
    ) -> String {
        var lines = original.isEmpty ? [] : String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var dropped: Set<Int> = []
        var pending = setting
        for entry in document.entries where entry.section == section {
            if removing.contains(where: { $0.rawValue == entry.key }) {
                dropped.insert(entry.line - 1)
            } else if let index = pending.firstIndex(where: { $0.key.rawValue == entry.key }) {
                lines[entry.line - 1] = "\(entry.key) = \(pending[index].value)"
                pending.remove(at: index)
            }
        }
        if !pending.isEmpty {
            let newLines = pending.map { "\($0.key.rawValue) = \($0.value)" }
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
        return lines.enumerated().filter { !dropped.contains($0.offset) }.map(\.element).joined(separator: "\n") + "\n"
    }

    /// Parses `content` as the file it would become, and checks that it says exactly what the
    /// old file said with the change applied: the same keys and values in every section.
    func verify(
        _ content: String, against document: SettingsDocument, section: SettingsDocument.SectionName,
        setting: [UserSetting], removing: [UserSetting.Key]
    ) throws(ConfigurationError) {
        let bytes = Array(content.utf8)
        let written: SettingsDocument
        do {
            _ = try LocationSettings(bytes: bytes, file: file, role: .user)
            written = try SettingsDocument(bytes: bytes, file: file)
        } catch {
            throw ConfigurationError(file: file, message: "not written: the change would make the file unreadable (\(error.message))")
        }
        var expected = Self.values(of: document)
        for key in removing { expected[section]?[key.rawValue] = nil }
        for change in setting { expected[section, default: [:]][change.key.rawValue] = change.value }
        guard Self.values(of: written) == expected.filter({ !$0.value.isEmpty }) else {
            throw ConfigurationError(file: file, message: "not written: the result would not read back as exactly the change asked for")
        }
    }

    /// Every section's keys and values.
    private static func values(of document: SettingsDocument) -> [SettingsDocument.SectionName: [String: String]] {
        Dictionary(grouping: document.entries, by: \.section).mapValues { entries in
            Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
        }
    }
}
