import LocateSupport

/// Messages admitted for sending and not yet acknowledged, kept on disk so that a power cut, a
/// crash or a restart during an outage loses none: each is committed (with the disk's word,
/// `synchronous = FULL`) before it is sent, deleted once the destination acknowledged it, and
/// read back, in order, by the next run for the same destination and app.
///
/// One table of the user's store, `$XDG_STATE_HOME/locate/store.sqlite` (the state directory's
/// trust rules: this user's alone, the way to it changeable by no one else; the file refused
/// when it is not this store's). Rows are kept per destination (a broker URL and topic, an
/// HTTP URL) and per app (whose permission the positions were taken under), so a revoke of
/// one app deletes that app's positions, and a run sends only its own destination's.
///
/// An `Outbox` is one connection, used by one thread at a time (a client's loop); several
/// processes may share the file (SQLite's locks).
package final class Outbox {
    /// One message as kept: where it goes, what it says, how, and whether it carries a
    /// position (a status or a clear does not, and is never deleted by a revoke).
    package struct Entry: Sendable, Equatable {
        package var topic: String
        package var payload: [UInt8]
        package var qos: Int32
        package var retain: Bool
        package var carriesPosition: Bool

        package init(topic: String, payload: [UInt8], qos: Int32, retain: Bool, carriesPosition: Bool) {
            (self.topic, self.payload, self.qos, self.retain, self.carriesPosition) = (topic, payload, qos, retain, carriesPosition)
        }
    }

    /// The store's file in the state directory.
    package static let fileName = "store.sqlite"
    /// The store's mark in the file's header (`PRAGMA application_id`: "LOCA"), and the version of
    /// its tables: a database that is not this store's, or of a later version, is refused.
    static let applicationID: Int64 = 0x4C4F_4341
    static let version: Int64 = 1

    /// Where this outbox's messages go, and whose permission they were taken under.
    package let destination: String
    package let app: String
    private let database: Database

    /// The outbox of `destination` for `app` in the store under `directory`, created when missing.
    /// - Throws: `StoreError`: `.refused` for a directory or file that cannot be trusted,
    ///   `.damaged` for a file that is not this store's, `.io` for a full or failing disk.
    package init(directory: String, destination: String, app: String) throws(StoreError) {
        database = try Self.open(directory: directory, create: true)
        (self.destination, self.app) = (destination, app)
    }

    /// The messages kept for this destination and app, oldest first, with their ids.
    package func kept() throws(StoreError) -> [(id: Int64, entry: Entry)] {
        try database.query(
            "SELECT id, topic, payload, qos, retain, position FROM outbox WHERE destination = ? AND app = ? ORDER BY id",
            [.text(destination), .text(app)]
        ).compactMap { row in
            guard row.count == 6, case .integer(let id) = row[0], case .text(let topic) = row[1], case .integer(let qos) = row[3],
                case .integer(let retain) = row[4], case .integer(let position) = row[5]
            else { return nil }
            let payload: [UInt8] =
                switch row[2] {
                case .blob(let bytes): bytes
                case .text(let text): Array(text.utf8)
                default: []
                }
            return (
                id, Entry(topic: topic, payload: payload, qos: Int32(clamping: qos), retain: retain != 0, carriesPosition: position != 0)
            )
        }
    }

    /// Keeps `entries`, in order, in one transaction committed before it returns.
    /// - Returns: their ids, in the same order.
    package func append(_ entries: [Entry]) throws(StoreError) -> [Int64] {
        guard !entries.isEmpty else { return [] }
        return try database.transaction { () throws(StoreError) -> [Int64] in
            var ids: [Int64] = []
            ids.reserveCapacity(entries.count)
            for entry in entries {
                let rows = try database.query(
                    "INSERT INTO outbox (destination, app, topic, payload, qos, retain, position) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    [
                        .text(destination), .text(app), .text(entry.topic), .blob(entry.payload), .integer(Int64(entry.qos)),
                        .integer(entry.retain ? 1 : 0), .integer(entry.carriesPosition ? 1 : 0),
                    ])
                guard case .integer(let id)? = rows.first?.first else {
                    throw StoreError(.damaged, "\(database.path): no id for a new row")
                }
                ids.append(id)
            }
            return ids
        }
    }

    /// Deletes the messages `ids` (acknowledged, dropped or no longer admitted), in one transaction.
    /// - Parameter scrubbing: leave none of their bytes on disk (a revoke): the commit is flushed
    ///   and the log emptied too. Otherwise the commit is not flushed on its own.
    package func remove(_ ids: some Collection<Int64>, scrubbing: Bool = false) throws(StoreError) {
        guard !ids.isEmpty else { return }
        let delete = { () throws(StoreError) in
            for id in ids { try self.database.query("DELETE FROM outbox WHERE id = ?", [.integer(id)]) }
        }
        if scrubbing {
            _ = try Self.scrub(database, delete)
        } else {
            // Without the disk's word (WAL and NORMAL: never a damaged file, only a delete a power
            // cut may undo, which sends a record twice, as QoS 1 may anyway): the next record's
            // commit flushes it, and the sender does not wait a flush for every acknowledgement.
            try database.execute("PRAGMA synchronous = NORMAL")
            defer { try? database.execute("PRAGMA synchronous = FULL") }
            try database.transaction(delete)
        }
    }

    /// Deletes every position kept for this app (all destinations): a revoke.
    /// - Returns: how many were deleted.
    @discardableResult
    package func removePositions() throws(StoreError) -> Int {
        try Self.scrub(database) { () throws(StoreError) in
            try database.query("DELETE FROM outbox WHERE app = ? AND position = 1", [.text(app)])
        }
    }

    /// Deletes the positions kept under `directory` for `app` (every app's when `nil`), if the
    /// store exists: a revoke seen when no outbox is open (`locate permission deny`, a refusal
    /// read from the settings).
    /// - Returns: how many were deleted.
    @discardableResult
    package static func removePositions(directory: String, app: String?) throws(StoreError) -> Int {
        guard !FileSignature(path: directory + "/" + fileName).link.isMissing else { return 0 }
        let database = try open(directory: directory, create: false)
        return try scrub(database) { () throws(StoreError) in
            if let app {
                try database.query("DELETE FROM outbox WHERE app = ? AND position = 1", [.text(app)])
            } else {
                try database.query("DELETE FROM outbox WHERE position = 1")
            }
        }
    }

    /// Runs the deletion `delete` in one transaction, then empties the write-ahead log (whose
    /// older frames still hold the rows) into the file, where secure_delete zeroed them.
    /// - Returns: how many rows were deleted.
    private static func scrub(_ database: Database, _ delete: () throws(StoreError) -> Void) throws(StoreError) -> Int {
        let deleted = try database.transaction { () throws(StoreError) -> Int in
            try delete()
            return database.changes
        }
        guard deleted > 0 else { return 0 }
        // A reader of another process may hold the log a moment: its frames are then overwritten by the next commits.
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return deleted
    }

    /// The store under `directory`, checked and made ready.
    private static func open(directory: String, create: Bool) throws(StoreError) -> Database {
        do throws(DirectoryHandle.Failure) {
            _ = try DirectoryHandle(path: directory, create: create, isPrivate: true)
        } catch {
            throw StoreError(.refused, "\(directory) \(error.description)")
        }
        let path = directory + "/" + fileName
        do throws(TrustedFile.Refusal) {
            try TrustedFile.checkPath(path, to: .file, owner: .user)
        } catch {
            throw StoreError(.refused, "\(path) \(error.description)")
        }
        let database = try Database(path: path)
        guard case .integer(let id)? = try database.query("PRAGMA application_id").first?.first,
            case .integer(let version)? = try database.query("PRAGMA user_version").first?.first,
            case .integer(let tables)? = try database.query("SELECT count(*) FROM sqlite_schema").first?.first
        else { throw StoreError(.damaged, "\(path) does not answer as a database") }
        guard (id == applicationID && version <= Self.version) || (id == 0 && version == 0 && tables == 0) else {
            throw StoreError(.damaged, "\(path) is not locate's store (or one of a later version): refused, not changed")
        }
        // WAL: a commit is one append and one flush; FULL: the flush is the disk's word, so a
        // power cut keeps every commit.
        // secure_delete: a deleted row's bytes are overwritten, not left in a free page (a revoked
        // position must not stay on disk).
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
        if id == 0 {
            try database.transaction { () throws(StoreError) in
                try database.execute(
                    """
                    CREATE TABLE IF NOT EXISTS outbox (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, destination TEXT NOT NULL, app TEXT NOT NULL, topic TEXT NOT NULL,
                        payload BLOB NOT NULL, qos INTEGER NOT NULL, retain INTEGER NOT NULL, position INTEGER NOT NULL);
                    CREATE INDEX IF NOT EXISTS outbox_by_destination ON outbox (destination, app, id);
                    PRAGMA application_id = \(applicationID);
                    PRAGMA user_version = \(version);
                    """)
            }
        }
        return database
    }
}
