import Foundation
import Testing
@testable import GPSLocation

struct UserSettingsEditorTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-editor-\(UUID().uuidString)")
    private var file: String { directory.appendingPathComponent("locate/locate.conf").path }

    private func content() throws -> String { try String(contentsOfFile: file, encoding: .utf8) }

    @Test func createsTheFileAndItsDirectoryPrivately() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try UserSettingsEditor(file: file).update(app: nil, setting: [.authorization(.whenInUse)])
        #expect(try content() == "[location]\nauthorization = when-in-use\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("locate").path)
        #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func keepsCommentsAndOtherSectionsAndChangesOnlyItsKeys() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = "# my settings\n[location]\nauthorization = denied   # said no\naccuracy = reduced\n\n[fallback]\nlatitude = 1\n"
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("locate"), withIntermediateDirectories: true)
        try original.write(toFile: file, atomically: true, encoding: .utf8)
        let editor = UserSettingsEditor(file: file)
        try editor.update(app: nil, setting: [.authorization(.always)])
        #expect(try content() == "# my settings\n[location]\nauthorization = always\naccuracy = reduced\n\n[fallback]\nlatitude = 1\n")
        try editor.update(app: AppName("weather"), setting: [.authorization(.whenInUse)])
        #expect(try content().hasSuffix("latitude = 1\n\n[app \"weather\"]\nauthorization = when-in-use\n"))
        try editor.update(app: nil, setting: [], removing: [.authorization, .accuracy])
        #expect(try content().hasPrefix("# my settings\n[location]\n\n[fallback]\n"))
    }

    @Test func leavesAMalformedFileAlone() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("locate"), withIntermediateDirectories: true)
        try "[location]\nauthorization = sometimes\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try UserSettingsEditor(file: file).update(app: nil, setting: [.authorization(.denied)]) }
        #expect(try content() == "[location]\nauthorization = sometimes\n")
    }
}

/// The editor's second line of defence: what it writes must read back as exactly the change.
struct UserSettingsEditorVerificationTests {
    private let editor = UserSettingsEditor(file: "/home/u/locate.conf")
    private let location = SettingsDocument.SectionName(name: "location", app: nil)

    private func document(_ text: String) throws -> SettingsDocument {
        try SettingsDocument(bytes: Array(text.utf8), file: "/home/u/locate.conf")
    }

    @Test func acceptsExactlyTheChange() throws {
        let original = try document("# mine\n[location]\nauthorization = denied\n")
        try editor.verify("# mine\n[location]\nauthorization = always\n", against: original, section: location,
                          setting: [.authorization(.always)], removing: [])
    }

    @Test(arguments: [
        "[location]\nauthorization = always\n[app \"y\"]\nauthorization = always\n",  // a section more
        "[location]\nauthorization = always\naccuracy = reduced\n",  // a key more
        "[location]\nauthorization = when-in-use\n",  // another value
        "[location]\n",  // the key lost
        "[location]\nauthorization = always\n[fallback]\nlatitude = 95\n",  // unreadable
    ])
    func refusesAnythingElse(written: String) throws {
        let original = try document("[location]\nauthorization = denied\n")
        #expect(throws: ConfigurationError.self) {
            try editor.verify(written, against: original, section: location, setting: [.authorization(.always)], removing: [])
        }
    }
}
