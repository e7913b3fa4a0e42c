import Foundation
import LocateSupport
import Testing

@testable import LocateStore

/// The outbox on disk: what is appended is there, in order, for the next connection to the
/// file; each destination and app sees only its own; a revoke deletes positions, not statuses;
/// a file or directory that is not this user's store is refused, not changed.
final class OutboxTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-outbox-\(UUID().uuidString)").path

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    private func entry(_ text: String, position: Bool = true) -> Outbox.Entry {
        Outbox.Entry(topic: "locate/van", payload: Array(text.utf8), qos: 1, retain: text.hasPrefix("r"), carriesPosition: position)
    }

    private func texts(_ outbox: Outbox) throws -> [String] {
        try outbox.kept().map { String(decoding: $0.entry.payload, as: UTF8.self) }
    }

    @Test func whatIsAppendedIsKeptInOrderForTheNextConnection() throws {
        do {
            let first = try Outbox(directory: directory, destination: "mqtt://broker/locate/van", app: "publish")
            let ids = try first.append((0..<5).map { entry("fix \($0)") })
            #expect(ids.count == 5 && ids == ids.sorted())
            try first.remove([ids[1], ids[3]])
            _ = try first.append([entry("status", position: false), entry("retained")])
            // One sender a queue: while it is open, no other connection gets it.
            do {
                _ = try Outbox(directory: directory, destination: "mqtt://broker/locate/van", app: "publish")
                Issue.record("a second sender opened the same queue")
            } catch {
                #expect(error.kind == .inUse, "\(error)")
            }
        }
        // A second connection (the next run) reads what the first committed.
        let second = try Outbox(directory: directory, destination: "mqtt://broker/locate/van", app: "publish")
        #expect(try texts(second) == ["fix 0", "fix 2", "fix 4", "status", "retained"])
        let kept = try second.kept()
        #expect(kept.map(\.entry) == [0, 2, 4].map { entry("fix \($0)") } + [entry("status", position: false), entry("retained")])
        // The store is this user's alone, its directory too.
        #expect(try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int == 0o700)
        #expect(try FileManager.default.attributesOfItem(atPath: directory + "/store.sqlite")[.posixPermissions] as? Int == 0o600)
    }

    @Test func eachDestinationAndAppSeesItsOwnAndARevokeDeletesPositionsOnly() throws {
        let van = try Outbox(directory: directory, destination: "mqtt://broker/locate/van", app: "publish")
        let boat = try Outbox(directory: directory, destination: "https://traccar/", app: "publish")
        let other = try Outbox(directory: directory, destination: "mqtt://broker/locate/van", app: "tracker")
        _ = try van.append([entry("van 1"), entry("van status", position: false)])
        _ = try boat.append([entry("boat 1")])
        _ = try other.append([entry("other 1")])
        #expect(try texts(van) == ["van 1", "van status"] && texts(boat) == ["boat 1"] && texts(other) == ["other 1"])
        // The app's revoke: its positions, every destination; statuses stay; other apps untouched.
        #expect(try van.removePositions() == 2)
        #expect(try texts(van) == ["van status"] && texts(boat).isEmpty && texts(other) == ["other 1"])
        // Seen with no outbox open (locate permission deny): by app, or every app's.
        _ = try van.append([entry("van 2")])
        #expect(try Outbox.removePositions(directory: directory, app: "tracker") == 1)
        #expect(try texts(van) == ["van status", "van 2"] && texts(other).isEmpty)
        #expect(try Outbox.removePositions(directory: directory, app: nil) == 1)
        #expect(try texts(van) == ["van status"])
        // No store yet: nothing to do, nothing made.
        let elsewhere = directory + "/none"
        #expect(try Outbox.removePositions(directory: elsewhere, app: nil) == 0)
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
    }

    @Test func aFileThatIsNotThisStoreIsRefusedAndLeftAlone() throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/store.sqlite"
        let schemaless = try sqliteDatabase(of: "PRAGMA application_id = \(UserStore.applicationID); PRAGMA user_version = 1;")
        for (bytes, name) in [
            (schemaless, "a database with the store's mark and no outbox"),
            (
                Array("not a database at all, but a text file that is long enough to have a header\n".utf8)
                    + [UInt8](repeating: 0x41, count: 4096), "text"
            ),
            (try sqliteDatabase(of: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');"), "another program's database"),
        ] {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            #expect(throws: StoreError.self, "\(name)") { try Outbox(directory: directory, destination: "d", app: "a") }
            do {
                _ = try Outbox(directory: directory, destination: "d", app: "a")
            } catch {
                #expect(error.kind == .damaged && error.description.contains(path), "\(name): \(error)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "\(name) is not changed")
            try FileManager.default.removeItem(atPath: path)
        }
        // A FIFO, or a store others can write (or read), is refused.
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: StoreError.self) { try Outbox(directory: directory, destination: "d", app: "a") }
        try FileManager.default.removeItem(atPath: path)
        _ = try Outbox(directory: directory, destination: "d", app: "a")
        for mode in [0o660, 0o644, 0o606] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            do {
                _ = try Outbox(directory: directory, destination: "d", app: "a")
                Issue.record("a store of mode \(String(mode, radix: 8)) was used")
            } catch {
                #expect(error.kind == .refused && error.description.contains(path), "\(error)")
            }
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        // A link in the file's place, and a directory others can write, are refused before anything is read.
        let target = directory + "/elsewhere.sqlite"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(throws: StoreError.self) { try Outbox(directory: directory, destination: "d", app: "a") }
        #expect(!FileManager.default.fileExists(atPath: target))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory)
        do {
            _ = try Outbox(directory: directory, destination: "d", app: "a")
            Issue.record("a directory anyone can write was used")
        } catch {
            #expect(error.kind == .refused && error.description.contains(directory), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A revoke leaves nothing sent before it in the write-ahead log either, even when nothing
    /// waited: the log is emptied into the file, where deleted rows are zeroed.
    @Test func aRevokeLeavesNoPositionInTheFilesBytes() throws {
        let secret = "\"lat\":64.1234567"
        do {
            let outbox = try Outbox(directory: directory, destination: "d", app: "a")
            let ids = try outbox.append((0..<50).map { entry("{\(secret),\"n\":\($0)}") })
            // Sent and acknowledged: deleted without a flush of its own, still in the log's frames.
            try outbox.remove(ids)
            #expect(try outbox.kept().isEmpty)
            #expect(try Outbox.removePositions(directory: directory, app: nil) == 0)
        }
        let bytes = ["", "-wal"].compactMap { try? Data(contentsOf: URL(fileURLWithPath: directory + "/store.sqlite" + $0)) }
        #expect(!bytes.isEmpty && bytes.allSatisfy { !String(decoding: $0, as: UTF8.self).contains(secret) })
    }

    /// The bytes of a database another program made, as sqlite3 would write it.
    private func sqliteDatabase(of sql: String) throws -> [UInt8] {
        let path = directory + "/foreign-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        try database.execute(sql)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
