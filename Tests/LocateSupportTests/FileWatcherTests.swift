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

    /// Writes `text` to `path` in place, or into a new file renamed over it, through a descriptor
    /// no program another test spawns meanwhile can inherit (Foundation's writes need not
    /// be close-on-exec, and a child's late close of an inherited one is a real, later close-write
    /// event).
    private func write(_ text: String, to path: String, replacing: Bool) throws {
        let target = replacing ? path + ".new" : path
        let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let written = text.utf8CString.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        guard written == text.utf8.count, !replacing || rename(target, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test(arguments: [true, false])
    func everyKindOfChangeIsSeen(usesInotify: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try files()
        let watcher = FileWatcher(files, usesInotify: usesInotify)
        #expect(!watcher.filesChanged(), "nothing changed yet")
        let changes: [(String, () throws -> Void)] = [
            ("created", { try write("[location]\nauthorization = always\n", to: userFile, replacing: false) }),
            (
                "edited in place, same size",
                { try write("[location]\nauthorization = denied\n", to: userFile, replacing: false) }
            ),
            (
                "replaced by rename",
                { try write("[location]\nauthorization = always\n", to: userFile, replacing: true) }
            ),
            ("a policy appears", { try write("[location]\nservices = off\n", to: policyFile, replacing: true) }),
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
