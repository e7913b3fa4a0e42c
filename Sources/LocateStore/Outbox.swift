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

    /// Where this outbox's messages go, and whose permission they were taken under.
    package let destination: String
    package let app: String
    private let directory: DirectoryHandle
    private let database: Database
    /// Held while this outbox is open: one sender a queue, so no record goes twice or out of order.
    private let lock: FileLock

    /// The outbox of `destination` for `app` in the store under `directory`, created when missing.
    /// - Throws: `StoreError`: `.refused` for a directory or file that cannot be trusted,
    ///   `.damaged` for a file that is not this store's, `.io` for a full or failing disk,
    ///   `.inUse` while another process has this destination's and app's outbox open.
    package init(directory path: String, destination: String, app: String) throws(StoreError) {
        let directory = try UserStore.directory(path, create: true)
        do throws(DirectoryHandle.Failure) {
            lock = try directory.lock(
                ".outbox-\(UserStore.fingerprint(destination, app)).lock", exclusive: true, timeout: .milliseconds(200))
        } catch {
            throw StoreError(.inUse, "another process sends this outbox now (\(error.description))")
        }
        database = try UserStore.open(directory)
        (self.directory, self.destination, self.app) = (directory, destination, app)
    }

    /// Empties the write-ahead log into the file (where deleted rows are zeroed): what a run
    /// sent leaves no copy in the log. For the end of a run.
    package func close() {
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The store's files gone, as the last resort of a revoke that cannot delete rows (a full or
    /// read-only disk): every queue of the store is lost rather than a position kept.
    package func discard() {
        UserStore.discard(directory)
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
                    """
                    INSERT INTO outbox (destination, app, topic, payload, qos, retain, position, queued_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, (julianday('now') - 2440587.5) * 86400.0) RETURNING id
                    """,
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
    ///   and the log emptied too, and when the rows cannot be deleted the store's files go.
    ///   Otherwise the commit is not flushed on its own.
    package func remove(_ ids: some Collection<Int64>, scrubbing: Bool = false) throws(StoreError) {
        guard !ids.isEmpty else { return }
        let delete = { () throws(StoreError) in
            for id in ids { try self.database.query("DELETE FROM outbox WHERE id = ?", [.integer(id)]) }
        }
        if scrubbing {
            do {
                _ = try UserStore.scrub(database, delete)
            } catch {
                discard()
                throw error
            }
        } else {
            // Without the disk's word (WAL and NORMAL: never a damaged file, only a delete a power
            // cut may undo, which sends a record twice, as QoS 1 may anyway): the next record's
            // commit flushes it, and the sender does not wait a flush for every acknowledgement.
            try database.execute("PRAGMA synchronous = NORMAL")
            defer { try? database.execute("PRAGMA synchronous = FULL") }
            try database.transaction(delete)
        }
    }

    /// Deletes the positions kept for this app (all destinations) before `time` (Unix seconds):
    /// those queued before a change of the settings that no run watched.
    /// - Returns: how many were deleted.
    /// When the rows cannot be deleted, the store's files go (``discard()``).
    @discardableResult
    package func removePositions(queuedBefore time: Double) throws(StoreError) -> Int {
        do {
            return try UserStore.scrub(database) { () throws(StoreError) in
                try database.query("DELETE FROM outbox WHERE app = ? AND position = 1 AND queued_at < ?", [.text(app), .real(time)])
            }
        } catch {
            discard()
            throw error
        }
    }

    /// Deletes every position kept for this app (all destinations): a revoke.
    /// - Returns: how many were deleted.
    /// When the rows cannot be deleted, the store's files go (``discard()``).
    @discardableResult
    package func removePositions() throws(StoreError) -> Int {
        do {
            return try UserStore.scrub(database) { () throws(StoreError) in try Self.deletePositions(database, app: app) }
        } catch {
            discard()
            throw error
        }
    }

    /// Deletes the positions kept under `directory` for `app` (every app's when `nil`), if the
    /// store exists: a revoke seen when no outbox is open (`locate permission deny`, a refusal
    /// read from the settings). When they cannot be deleted (a full or read-only disk, a damaged
    /// file), the store's files go: no position outlives a revoke.
    /// - Returns: how many were deleted.
    /// - Throws: `StoreError` when the directory cannot be trusted (nothing is touched; such a
    ///   store is refused by every sender too), or the files could not be removed either.
    @discardableResult
    package static func removePositions(directory path: String, app: String?) throws(StoreError) -> Int {
        guard !FileSignature(path: path + "/" + UserStore.fileName).link.isMissing else { return 0 }
        let directory = try UserStore.directory(path, create: false)
        do {
            let database = try UserStore.open(directory)
            return try UserStore.scrub(database) { () throws(StoreError) in try deletePositions(database, app: app) }
        } catch {
            UserStore.discard(directory)
            guard FileSignature(path: path + "/" + UserStore.fileName).link.isMissing else { throw error }
            return 0
        }
    }

    /// Deletes the positions of `app` (every app's when `nil`), every destination's.
    private static func deletePositions(_ database: Database, app: String?) throws(StoreError) {
        if let app {
            try database.query("DELETE FROM outbox WHERE app = ? AND position = 1", [.text(app)])
        } else {
            try database.query("DELETE FROM outbox WHERE position = 1")
        }
    }
}
