import LocateSupport

/// The user's store, `$XDG_STATE_HOME/locate/store.sqlite`: one SQLite file in the private state
/// directory holding the outbox (``Outbox``), the history (``History``) and the fleet monitors'
/// device states (``FleetStates``), opened and checked here for all. The file and its log must be this user's alone, regular files (made mode 0600 when
/// missing), in a directory no one else can change; a database that is not this store's, or of a
/// later version, is refused, not changed.
enum UserStore {
    /// The store's file in the state directory.
    static let fileName = "store.sqlite"
    /// The store's mark in the file's header (`PRAGMA application_id`: "LOCA"), and the version of
    /// its tables: 1 had the outbox, 2 adds the history, 3 the fleet monitors' states, 4 when each
    /// outbox row was queued.
    static let applicationID: Int64 = 0x4C4F_4341
    static let version: Int64 = 4

    /// The tables of each version, each step from the one before.
    private static let steps: [Int64: String] = [
        1: """
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT, destination TEXT NOT NULL, app TEXT NOT NULL, topic TEXT NOT NULL,
            payload BLOB NOT NULL, qos INTEGER NOT NULL, retain INTEGER NOT NULL, position INTEGER NOT NULL);
        CREATE INDEX outbox_by_destination ON outbox (destination, app, id);
        """,
        2: """
        CREATE TABLE history (
            time REAL NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, alt REAL, h_acc REAL, speed REAL, course REAL,
            reduced INTEGER NOT NULL);
        CREATE INDEX history_by_time ON history (time);
        """,
        3: """
        CREATE TABLE fleet_state (
            monitor TEXT NOT NULL, device TEXT NOT NULL, definition TEXT NOT NULL, last_time REAL, state BLOB NOT NULL,
            PRIMARY KEY (monitor, device)) WITHOUT ROWID;
        """,
        4: """
        ALTER TABLE outbox ADD COLUMN queued_at REAL NOT NULL DEFAULT 0;
        """,
    ]

    /// The private state directory at `path`.
    static func directory(_ path: String, create: Bool) throws(StoreError) -> DirectoryHandle {
        do throws(DirectoryHandle.Failure) {
            return try DirectoryHandle(path: path, create: create, isPrivate: true)
        } catch {
            throw StoreError(.refused, "\(path) \(error.description)")
        }
    }

    /// The store in `directory`, checked and made ready (its tables brought to this version).
    static func open(_ directory: DirectoryHandle) throws(StoreError) -> Database {
        do throws(DirectoryHandle.Failure) {
            try directory.checkPrivateFile(fileName, create: true)
            for suffix in ["-wal", "-shm"] { try directory.checkPrivateFile(fileName + suffix, create: false) }
        } catch {
            throw StoreError(.refused, error.description)
        }
        let path = directory.path + "/" + fileName
        let database = try Database(path: path)
        guard case .integer(let id)? = try database.query("PRAGMA application_id").first?.first,
            case .integer(let version)? = try database.query("PRAGMA user_version").first?.first,
            case .integer(let tables)? = try database.query("SELECT count(*) FROM sqlite_schema").first?.first
        else { throw StoreError(.damaged, "\(path) does not answer as a database") }
        let hasOutbox = try database.query("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'outbox'").first?.first
        guard
            (id == applicationID && (1...Self.version).contains(version) && hasOutbox == .integer(1))
                || (id == 0 && version == 0 && tables == 0)
        else {
            throw StoreError(.damaged, "\(path) is not locate's store (or one of a later version): refused, not changed")
        }
        // WAL: a commit is one append and one flush; FULL: the flush is the disk's word, so a
        // power cut keeps every commit.
        // secure_delete: a deleted row's bytes are overwritten, not left in a free page (a revoked
        // position must not stay on disk).
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
        if version < Self.version {
            try database.transaction { () throws(StoreError) in
                // Another process may have brought it up to date meanwhile: read again inside the transaction.
                guard case .integer(let current)? = try database.query("PRAGMA user_version").first?.first, current < Self.version else {
                    return
                }
                for step in (current + 1)...Self.version { try database.execute(steps[step] ?? "") }
                try database.execute("PRAGMA application_id = \(Self.applicationID); PRAGMA user_version = \(Self.version)")
            }
        }
        return database
    }

    /// Removes the store's files in `directory`.
    static func discard(_ directory: DirectoryHandle) {
        for suffix in ["", "-wal", "-shm"] { directory.remove(fileName + suffix) }
    }

    /// A short name for `parts` (FNV-1a), for the name of a lock file.
    static func fingerprint(_ parts: String...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// Runs the deletion `delete` in one transaction, then empties the write-ahead log (whose
    /// older frames still hold the rows) into the file, where secure_delete zeroed them.
    /// - Returns: how many rows were deleted.
    static func scrub(_ database: Database, _ delete: () throws(StoreError) -> Void) throws(StoreError) -> Int {
        let deleted = try database.transaction { () throws(StoreError) -> Int in
            try delete()
            return database.changes
        }
        // Another process's open read may hold the log a moment: its frames are then overwritten by the next commits.
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return deleted
    }
}
