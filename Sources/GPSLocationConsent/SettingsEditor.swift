import GPSLocation
import LocateSupport

/// A key the consent store writes to the user's settings file, with its value.
enum UserSetting: Hashable {
    /// `authorization = when-in-use | always | denied`.
    /// `authorization = when-in-use | always | denied`: what the user chose (no other status is one).
    case authorization(AuthorizationStatus)
    /// `accuracy = full | reduced`.
    case accuracy(AccuracyAuthorization)

    /// The keys the editor changes.
    enum Key: String, CaseIterable {
        case authorization
        case accuracy
    }

    /// The setting's key.
    var key: Key {
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
/// line, comment, blank, line ending and byte-order mark stays as it was (the reader's own line
/// model, `SettingsLines`).
///
/// Every edit is a transaction: an exclusive lock (a lock file beside the settings file) is held
/// while the file is read, edited and atomically replaced (a temporary file created exclusively
/// under a name of its own, mode 0600, synced, renamed), and the result is read back and checked
/// before the lock is let go. So concurrent edits by any number of processes and threads all
/// land, one after another. Through a symbolic link (dotfile managers), the file the link leads
/// to is edited, and the link stays.
///
/// Keys and values come from closed sets and app names are `AppName`s, so nothing given to the
/// editor can add a section or a key of its own; as a second line of defence, the new content is
/// parsed before it replaces the file and must read back as exactly the old settings with the
/// change asked for.
struct SettingsEditor {
    /// The user settings file, as configured (perhaps a symbolic link).
    let file: String

    /// Sets each of `setting` in `[location]`, or in `[app "NAME"]` when `app` is given, and
    /// removes each key of `removing` from that section.
    /// - Throws: `GPSLocationError.invalidSettings` when the file is untrusted or malformed (it
    ///   is not rewritten), when the result would not read back as exactly this change, or when
    ///   it cannot be written.
    func update(app: AppName?, setting: [UserSetting], removing: [UserSetting.Key] = []) throws(GPSLocationError) {
        func problem(_ message: String) -> GPSLocationError {
            .invalidSettings(SettingsProblem(file: file, message: message))
        }
        // The whole way is checked, and the missing directories made on it, before anything
        // is written: the lock and the file go where it leads, which no one else can change.
        let target = try SettingsFiles.checkDirectories(of: file, owner: .userOrRoot, creatingDirectories: true)
        let name = fileName(of: target)
        do {
            let directory = try DirectoryHandle(path: directory(of: target), create: false, isPrivate: false)
            let lock = try directory.lock(".\(name).lock", exclusive: true)
            // An edit killed before its rename left its temporary file: no edit is in flight now.
            directory.removeTemporaries(of: name)
            let original: [UInt8]
            do {
                original = try directory.read(name, owner: .userOrRoot, limit: SettingsFiles.sizeLimit) ?? []
            } catch {
                throw problem(error.description)
            }
            var lines = SettingsLines(original)
            let document = try SettingsDocument(lines, file: file)
            // A malformed file is not rewritten: the user's mistake stays where they can see it.
            _ = try LocationSettings(document, file: file, role: .user)
            let section = SettingsDocument.SectionName(name: app == nil ? "location" : "app", app: app?.rawValue)
            Self.edit(&lines, document: document, section: section, setting: setting, removing: removing)
            let content = lines.bytes
            try verify(content, against: document, section: section, setting: setting, removing: removing)
            try directory.replace(name, with: content, durable: true)
            let written = try? directory.read(name, owner: .userOrRoot, limit: SettingsFiles.sizeLimit)
            guard written == content else { throw problem("changed by something else while it was written; try again") }
            withExtendedLifetime(lock) {}
        } catch let error as DirectoryHandle.Failure {
            throw problem(error.description)
        } catch let error as GPSLocationError {
            throw error
        } catch {
            throw problem(String(describing: error))
        }
    }

    /// Changes `lines`: changed keys in place, new keys after the section's last key (or in a new
    /// section at the end), removed keys' lines gone.
    private static func edit(
        _ lines: inout SettingsLines, document: SettingsDocument, section: SettingsDocument.SectionName,
        setting: [UserSetting], removing: [UserSetting.Key]
    ) {
        var dropped: Set<Int> = []
        var pending = setting
        for entry in document.entries where entry.section == section {
            if removing.contains(where: { $0.rawValue == entry.key }) {
                dropped.insert(entry.line - 1)
            } else if let index = pending.firstIndex(where: { $0.key.rawValue == entry.key }) {
                // Only the value changes: the key, the spacing and an inline comment stay.
                let content = lines.lines[entry.line - 1].content
                lines.lines[entry.line - 1].content =
                    Array(content[..<entry.valueBytes.lowerBound]) + Array(pending[index].value.utf8)
                    + Array(content[entry.valueBytes.upperBound...])
                pending.remove(at: index)
            }
        }
        if !pending.isEmpty {
            let newLines = pending.map { Array("\($0.key.rawValue) = \($0.value)".utf8) }
            if let header = document.headers.last(where: { $0.section == section }) {
                // After the last key of the section (or its header), before trailing blanks and comments.
                let lastLine = document.entries.filter { $0.section == section }.map(\.line).max() ?? header.line
                lines.insert(newLines, at: lastLine)
            } else {
                var block = [Array(section.description.utf8)] + newLines
                if let last = lines.lines.last, last.content.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) {
                    block.insert([], at: 0)
                }
                lines.insert(block, at: lines.lines.count)
            }
        }
        lines.lines = lines.lines.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    /// Parses `content` as the file it would become, and checks that it says exactly what the
    /// old file said with the change applied: the same keys and values in every section.
    func verify(
        _ content: [UInt8], against document: SettingsDocument, section: SettingsDocument.SectionName,
        setting: [UserSetting], removing: [UserSetting.Key]
    ) throws(GPSLocationError) {
        let written: SettingsDocument
        do {
            written = try SettingsDocument(SettingsLines(content), file: file)
            _ = try LocationSettings(written, file: file, role: .user)
        } catch {
            throw .invalidSettings(
                SettingsProblem(file: file, message: "not written: the change would make the file unreadable (\(error))"))
        }
        var expected = Self.values(of: document)
        for key in removing { expected[section]?[key.rawValue] = nil }
        for change in setting { expected[section, default: [:]][change.key.rawValue] = change.value }
        guard Self.values(of: written) == expected.filter({ !$0.value.isEmpty }) else {
            throw .invalidSettings(
                SettingsProblem(file: file, message: "not written: the result would not read back as exactly the change asked for"))
        }
    }

    /// Every section's keys and values.
    private static func values(of document: SettingsDocument) -> [SettingsDocument.SectionName: [String: String]] {
        Dictionary(grouping: document.entries, by: \.section).mapValues { entries in
            Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
        }
    }
}
