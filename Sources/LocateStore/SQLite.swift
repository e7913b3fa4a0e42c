internal import CSQLite
import LocateSupport

// The libsqlite3 boundary: the only Swift file that touches libsqlite3. The library is opened
// with dlopen when the first database is (see shim.h). A `Database` is one connection, used by
// one thread at a time (its owner's); SQLite's own locks keep several processes apart.

/// libsqlite3's functions, looked up once in the shared object.
private struct SQLiteLibrary {
    let open: CSQLite_open_v2
    let close: CSQLite_close_v2
    let extendedResultCodes: CSQLite_extended_result_codes
    let busyTimeout: CSQLite_busy_timeout
    let errorMessage: CSQLite_errmsg
    let errorString: CSQLite_errstr
    let exec: CSQLite_exec
    let prepare: CSQLite_prepare_v2
    let step: CSQLite_step
    let reset: CSQLite_reset
    let finalize: CSQLite_finalize
    let bindInt64: CSQLite_bind_int64
    let bindDouble: CSQLite_bind_double
    let bindNull: CSQLite_bind_null
    let bindText: CSQLite_bind_text
    let bindBlob: CSQLite_bind_blob
    let columnInt64: CSQLite_column_int64
    let columnDouble: CSQLite_column_double
    let columnText: CSQLite_column_text
    let columnBlob: CSQLite_column_blob
    let columnBytes: CSQLite_column_bytes
    let columnType: CSQLite_column_type
    let columnCount: CSQLite_column_count
    let changes: CSQLite_changes

    /// The library, or why it cannot be had.
    static let loaded: Result<SQLiteLibrary, StoreError> = {
        do throws(DynamicLibrary.Failure) {
            let shared = try DynamicLibrary(["libsqlite3.so.0", "libsqlite3.so"], package: "libsqlite3-0")
            return .success(
                SQLiteLibrary(
                    open: try shared.symbol("sqlite3_open_v2", as: CSQLite_open_v2.self),
                    close: try shared.symbol("sqlite3_close_v2", as: CSQLite_close_v2.self),
                    extendedResultCodes: try shared.symbol("sqlite3_extended_result_codes", as: CSQLite_extended_result_codes.self),
                    busyTimeout: try shared.symbol("sqlite3_busy_timeout", as: CSQLite_busy_timeout.self),
                    errorMessage: try shared.symbol("sqlite3_errmsg", as: CSQLite_errmsg.self),
                    errorString: try shared.symbol("sqlite3_errstr", as: CSQLite_errstr.self),
                    exec: try shared.symbol("sqlite3_exec", as: CSQLite_exec.self),
                    prepare: try shared.symbol("sqlite3_prepare_v2", as: CSQLite_prepare_v2.self),
                    step: try shared.symbol("sqlite3_step", as: CSQLite_step.self),
                    reset: try shared.symbol("sqlite3_reset", as: CSQLite_reset.self),
                    finalize: try shared.symbol("sqlite3_finalize", as: CSQLite_finalize.self),
                    bindInt64: try shared.symbol("sqlite3_bind_int64", as: CSQLite_bind_int64.self),
                    bindDouble: try shared.symbol("sqlite3_bind_double", as: CSQLite_bind_double.self),
                    bindNull: try shared.symbol("sqlite3_bind_null", as: CSQLite_bind_null.self),
                    bindText: try shared.symbol("sqlite3_bind_text", as: CSQLite_bind_text.self),
                    bindBlob: try shared.symbol("sqlite3_bind_blob", as: CSQLite_bind_blob.self),
                    columnInt64: try shared.symbol("sqlite3_column_int64", as: CSQLite_column_int64.self),
                    columnDouble: try shared.symbol("sqlite3_column_double", as: CSQLite_column_double.self),
                    columnText: try shared.symbol("sqlite3_column_text", as: CSQLite_column_text.self),
                    columnBlob: try shared.symbol("sqlite3_column_blob", as: CSQLite_column_blob.self),
                    columnBytes: try shared.symbol("sqlite3_column_bytes", as: CSQLite_column_bytes.self),
                    columnType: try shared.symbol("sqlite3_column_type", as: CSQLite_column_type.self),
                    columnCount: try shared.symbol("sqlite3_column_count", as: CSQLite_column_count.self),
                    changes: try shared.symbol("sqlite3_changes", as: CSQLite_changes.self)))
        } catch {
            return .failure(StoreError(.unusable, error.description))
        }
    }()
}

/// Why a store cannot be opened, read or written.
package struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for the exit status a command gives it.
    package enum Kind: Sendable, Equatable {
        /// The library is missing, or the file cannot be opened (permissions, a directory).
        case unusable
        /// The file or the directory it is in is not this user's alone: nothing is read or written.
        case refused
        /// The file is not a database, not this store's, or damaged: refused, not repaired.
        case damaged
        /// The disk is full or failed a read or write: nothing more can be kept.
        case io
        /// Another process held the database longer than the wait.
        case busy
        /// Another process sends this destination's queue now (a second `locate publish` to it).
        case inUse
    }

    package let kind: Kind
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// A value of a column or a parameter.
package enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// `value` as a real, or null.
    package static func optional(_ value: Double?) -> SQLValue { value.map { .real($0) } ?? .null }

    /// The number a column holds (an integer or a real), or `nil` (null, text, a blob).
    package var number: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}

/// One connection to a database file, owned by one thread at a time; its prepared statements
/// are kept for the connection's life (a queue's few statements, run thousands of times).
package final class Database {
    /// The file, for messages.
    package let path: String
    private let library: SQLiteLibrary
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (or creates, mode 0600 under the caller's private directory) the database at
    /// `path`; a symbolic link is refused.
    /// - Parameter busyTimeout: how long a statement waits for another process's lock.
    /// - Throws: `StoreError` naming the file.
    package init(path: String, busyTimeout: Duration = .seconds(5)) throws(StoreError) {
        let library = try SQLiteLibrary.loaded.get()
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        let status = library.open(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let words = handle.flatMap { library.errorMessage($0) }.map { String(cString: $0) } ?? library.describe(status)
            if let handle { _ = library.close(handle) }
            throw StoreError(Self.kind(of: status), "\(path): \(words)")
        }
        (self.path, self.library, self.handle) = (path, library, handle)
        _ = library.extendedResultCodes(handle, 1)
        _ = library.busyTimeout(handle, Int32(clamping: busyTimeout.millisecondsRoundedUp))
    }

    deinit {
        for statement in statements.values { _ = library.finalize(statement) }
        _ = library.close(handle)
    }

    /// Runs `sql` (one or more statements, no parameters, no rows wanted).
    package func execute(_ sql: String) throws(StoreError) {
        let status = library.exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw failure(status) }
    }

    /// Runs the one statement `sql` with `parameters` (`?` in order) and returns its rows.
    @discardableResult
    package func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        let statement = try prepared(sql)
        defer { _ = library.reset(statement) }
        for (index, value) in parameters.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 =
                switch value {
                case .integer(let number): library.bindInt64(statement, position, number)
                case .real(let number): library.bindDouble(statement, position, number)
                case .text(let text): library.bindText(statement, position, text, -1, CSQLite_transient())
                case .blob(let bytes):
                    bytes.withUnsafeBytes { library.bindBlob(statement, position, $0.baseAddress, Int32($0.count), CSQLite_transient()) }
                // Bound, not left out: a statement is kept and reused, with its last values until rebound.
                case .null: library.bindNull(statement, position)
                }
            guard status == SQLITE_OK else { throw failure(status) }
        }
        var rows: [[SQLValue]] = []
        while true {
            let status = library.step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status) }
            rows.append(row(of: statement))
        }
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    package var changes: Int { Int(library.changes(handle)) }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`: the write lock is taken first), committed
    /// when it returns (with the disk's word, under `synchronous = FULL`), rolled back when it throws.
    package func transaction<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = library.prepare(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status) }
        statements[sql] = statement
        return statement
    }

    private func row(of statement: OpaquePointer) -> [SQLValue] {
        (0..<library.columnCount(statement)).map { column -> SQLValue in
            switch library.columnType(statement, column) {
            case SQLITE_INTEGER: return .integer(library.columnInt64(statement, column))
            case SQLITE_FLOAT: return .real(library.columnDouble(statement, column))
            case SQLITE_TEXT:
                return .text(library.columnText(statement, column).map { String(cString: $0) } ?? "")
            case SQLITE_BLOB:
                let count = Int(library.columnBytes(statement, column))
                guard count > 0, let bytes = library.columnBlob(statement, column) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
            default: return .null
            }
        }
    }

    private func failure(_ status: Int32) -> StoreError {
        StoreError(
            Self.kind(of: status), "\(path): \(library.errorMessage(handle).map { String(cString: $0) } ?? library.describe(status))")
    }

    private static func kind(of status: Int32) -> StoreError.Kind {
        switch status & 0xff {
        case SQLITE_FULL, SQLITE_IOERR: .io
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_FORMAT: .damaged
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        default: .unusable
        }
    }
}

extension SQLiteLibrary {
    fileprivate func describe(_ status: Int32) -> String {
        errorString(status).map { String(cString: $0) } ?? "error \(status)"
    }
}
