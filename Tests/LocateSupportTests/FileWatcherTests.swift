import Foundation
import LocateSupport
import Testing

/// The watcher's ticks alone (as when inotify is unavailable or misses an event) never lose a change.
struct FileWatcherTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-watch-\(UUID().uuidString)")

    private var userFile: String { directory.path + "/locate.conf" }
    private var policyFile: String { directory.path + "/policy.conf" }

    private func files() throws -> [String] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return [userFile, policyFile]
    }

    @Test(arguments: [true, false])
    func everyKindOfChangeIsSeen(usesInotify: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try files()
        let watcher = FileWatcher(files, usesInotify: usesInotify)
        #expect(!watcher.filesChanged(), "nothing changed yet")
        let changes: [(String, () throws -> Void)] = [
            ("created", { try "[location]\nauthorization = always\n".write(toFile: userFile, atomically: false, encoding: .utf8) }),
            (
                "edited in place, same size",
                { try "[location]\nauthorization = denied\n".write(toFile: userFile, atomically: false, encoding: .utf8) }
            ),
            (
                "replaced by rename",
                { try "[location]\nauthorization = always\n".write(toFile: userFile, atomically: true, encoding: .utf8) }
            ),
            ("a policy appears", { try "[location]\nservices = off\n".write(toFile: policyFile, atomically: true, encoding: .utf8) }),
            ("removed", { try FileManager.default.removeItem(atPath: userFile) }),
        ]
        for (name, change) in changes {
            try change()
            #expect(watcher.filesChanged(), "\(name)")
            #expect(!watcher.filesChanged(), "\(name): reported once")
        }
    }

    @Test func aLinkPointedElsewhereIsSeenWithoutInotify() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try files()
        for name in ["a.conf", "b.conf"] {
            try "[location]\nauthorization = always\n".write(toFile: directory.path + "/" + name, atomically: false, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: userFile, withDestinationPath: "a.conf")
        let watcher = FileWatcher(files, usesInotify: false)
        try FileManager.default.removeItem(atPath: userFile)
        try FileManager.default.createSymbolicLink(atPath: userFile, withDestinationPath: directory.path + "/b.conf")
        #expect(watcher.filesChanged())
    }

    @Test func watchesTheDirectoriesOfEveryLinkOnTheWay() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try files()
        try FileManager.default.createDirectory(atPath: directory.path + "/dotfiles", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: userFile, withDestinationPath: "dotfiles/locate.conf")
        #expect(Set(FileWatcher.directoriesToWatch(userFile)) == [directory.path, directory.path + "/dotfiles"])
    }
}
