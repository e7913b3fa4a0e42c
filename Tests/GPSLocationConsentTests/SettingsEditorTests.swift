import Foundation
import GPSLocation
import Glibc
import Synchronization
import Testing

@testable import GPSLocationConsent

/// The editor writes the user's file as a person would, in locked transactions, on the reader's
/// own line model.
struct SettingsEditorTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-editor-\(UUID().uuidString)")
    private var file: String { directory.appendingPathComponent("locate/locate.conf").path }

    private func content() throws -> String { try String(contentsOfFile: file, encoding: .utf8) }

    private func write(_ text: String, to path: String? = nil) throws {
        let path = path ?? file
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func createsTheFileAndItsDirectoryPrivately() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try SettingsEditor(file: file).update(app: nil, setting: [.authorization(.authorizedWhenInUse)])
        #expect(try content() == "[location]\nauthorization = when-in-use\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("locate").path)
        #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func keepsCommentsAndOtherSectionsAndChangesOnlyItsKeys() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("# my settings\n[location]\nauthorization = denied   # said no\naccuracy = reduced\n\n[fallback]\nlatitude = 1\n")
        let editor = SettingsEditor(file: file)
        try editor.update(app: nil, setting: [.authorization(.authorizedAlways)])
        #expect(
            try content()
                == "# my settings\n[location]\nauthorization = always   # said no\naccuracy = reduced\n\n[fallback]\nlatitude = 1\n",
            "the inline comment stays on the line that changed")
        try write("[location]\n  authorization=\"denied\"\t; quoted\n")
        try editor.update(app: nil, setting: [.authorization(.authorizedWhenInUse)])
        #expect(try content() == "[location]\n  authorization=when-in-use\t; quoted\n", "only the value changes")
        try write("# my settings\n[location]\nauthorization = always   # said no\naccuracy = reduced\n\n[fallback]\nlatitude = 1\n")
        try editor.update(app: AppName("weather"), setting: [.authorization(.authorizedWhenInUse)])
        #expect(try content().hasSuffix("latitude = 1\n\n[app \"weather\"]\nauthorization = when-in-use\n"))
        try editor.update(app: nil, setting: [], removing: [.authorization, .accuracy])
        #expect(try content().hasPrefix("# my settings\n[location]\n\n[fallback]\n"))
    }

    /// Whatever the reader accepts, the editor edits, changing only its own lines.
    @Test(arguments: [
        ("CRLF", "# mine\r\n[location]\r\nauthorization = always\r\n", "# mine\r\n[location]\r\nauthorization = denied\r\n"),
        ("no final line end", "[location]\nauthorization = always", "[location]\nauthorization = denied"),
        ("byte-order mark", "\u{FEFF}[location]\nauthorization = always\n", "\u{FEFF}[location]\nauthorization = denied\n"),
        ("tabs", "[location]\n\tauthorization\t=\talways\t# tab\n", "[location]\n\tauthorization\t=\tdenied\t# tab\n"),
        (
            "CRLF, a new section", "[fallback]\r\nlatitude = 1\r\nlongitude = 2",
            "[fallback]\r\nlatitude = 1\r\nlongitude = 2\r\n\r\n[location]\r\nauthorization = denied\r\n"
        ),
        (
            "mixed line ends", "[fallback]\nlatitude = 1\r\n[location]\r\nauthorization = always\n",
            "[fallback]\nlatitude = 1\r\n[location]\r\nauthorization = denied\n"
        ),
    ])
    func editsAnyFileTheReaderAccepts(kind: String, original: String, edited: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write(original)
        _ = try LocationSettings(SettingsLines(Array(original.utf8)), file: file, role: .user)
        try SettingsEditor(file: file).update(app: nil, setting: [.authorization(.denied)])
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: file))) == Array(edited.utf8), "\(kind)")
        let reread = try LocationSettings(SettingsLines(Array(edited.utf8)), file: file, role: .user)
        #expect(reread.location.authorization?.value == .denied, "\(kind)")
    }

    @Test func leavesAMalformedFileAlone() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("[location]\nauthorization = sometimes\n")
        #expect(throws: GPSLocationError.self) { try SettingsEditor(file: file).update(app: nil, setting: [.authorization(.denied)]) }
        #expect(try content() == "[location]\nauthorization = sometimes\n")
    }

    @Test func throughASymbolicLinkEditsTheTargetAndKeepsTheLink() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("dotfiles/locate.conf").path
        try write("[location]\nauthorization = always\n", to: target)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "../dotfiles/locate.conf")
        try SettingsEditor(file: file).update(app: nil, setting: [.authorization(.denied)])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file) == "../dotfiles/locate.conf", "the link stays")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "[location]\nauthorization = denied\n")
    }

    @Test func concurrentEditsFromManyThreadsAllLand() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let failures = Mutex<[String]>([])
        let file = file
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            do {
                try SettingsEditor(file: file).update(app: AppName("app\(index)"), setting: [.authorization(.authorizedAlways)])
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let settings = try LocationSettings(SettingsLines(Array(Data(contentsOf: URL(fileURLWithPath: file)))), file: file, role: .user)
        #expect(settings.apps.count == 20, "every transaction landed")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (file as NSString).deletingLastPathComponent)
        #expect(Set(leftovers) == ["locate.conf", ".locate.conf.lock"], "no temporary file left behind")
    }

    @Test(arguments: ["world-writable", "group-writable", "foreign", "FIFO"])
    func refusesAFileItMustNotTrust(kind: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("[location]\nauthorization = always\n")
        switch kind {
        case "world-writable": chmod(file, 0o666)
        case "group-writable": chmod(file, 0o620)
        case "foreign": #expect(chown(file, 65534, 65534) == 0 || geteuid() != 0)
        default:
            try FileManager.default.removeItem(atPath: file)
            #expect(mkfifo(file, 0o600) == 0)
        }
        if kind == "foreign", geteuid() != 0 { return }  // only root can give a file away
        #expect { try SettingsEditor(file: file).update(app: nil, setting: [.authorization(.denied)]) } throws: { error in
            guard case .invalidSettings(let problem) = error as? GPSLocationError else { return false }
            return problem.file == file
        }
        if kind != "FIFO" { #expect(try content() == "[location]\nauthorization = always\n", "left as it was") }
    }
}

/// The editor's second line of defence: what it writes must read back as exactly the change.
struct SettingsEditorVerificationTests {
    private let editor = SettingsEditor(file: "/home/u/locate.conf")
    private let location = SettingsDocument.SectionName(name: "location", app: nil)

    private func document(_ text: String) throws -> SettingsDocument {
        try SettingsDocument(SettingsLines(Array(text.utf8)), file: "/home/u/locate.conf")
    }

    @Test func acceptsExactlyTheChange() throws {
        let original = try document("# mine\n[location]\nauthorization = denied\n")
        try editor.verify(
            Array("# mine\n[location]\nauthorization = always\n".utf8), against: original, section: location,
            setting: [.authorization(.authorizedAlways)], removing: [])
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
        #expect(throws: GPSLocationError.self) {
            try editor.verify(
                Array(written.utf8), against: original, section: location, setting: [.authorization(.authorizedAlways)], removing: [])
        }
    }
}
