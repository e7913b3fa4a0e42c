import LocateSupport

/// The device states of a named fleet monitor (`locate monitor --subscribe --name NAME --by KEY`),
/// in the user's store (see ``UserStore``): each device's detector state as bytes and the time of
/// the last message it took, kept for the monitor and the definition it was made under (its
/// regions, its radius and dwell), so that a restart, SIGKILL included, goes on from them. A
/// monitor of another definition starts afresh: the states of the old one are deleted.
///
/// One monitor of a name at a time (a lock beside the store); one connection, one thread at a time.
package final class FleetStates {
    /// One device's kept state.
    package struct Row: Sendable, Equatable {
        package var device: String
        /// The time (Unix seconds) of the last message of the device taken, when it had one.
        package var lastTime: Double?
        package var state: [UInt8]

        package init(device: String, lastTime: Double?, state: [UInt8]) {
            (self.device, self.lastTime, self.state) = (device, lastTime, state)
        }
    }

    package let monitor: String
    package let definition: String
    /// How many states of the monitor under another definition were deleted when it opened.
    package private(set) var droppedForAnotherDefinition = 0
    private let database: Database
    /// Held while the states are open: one monitor of a name at a time.
    private let lock: FileLock

    /// The states of `monitor` under `definition`, in the store under `directory` (made when missing).
    /// - Throws: `StoreError`: `.refused` for a directory or file that cannot be trusted,
    ///   `.damaged` for a file that is not this store's, `.io` for a full or failing disk,
    ///   `.inUse` while another process runs this monitor.
    package init(directory path: String, monitor: String, definition: String) throws(StoreError) {
        let directory = try UserStore.directory(path, create: true)
        do throws(DirectoryHandle.Failure) {
            lock = try directory.lock(".fleet-\(UserStore.fingerprint(monitor)).lock", exclusive: true, timeout: .milliseconds(200))
        } catch {
            throw StoreError(.inUse, "another process runs the monitor \(monitor) now (\(error.description))")
        }
        database = try UserStore.open(directory)
        (self.monitor, self.definition) = (monitor, definition)
        droppedForAnotherDefinition = try UserStore.scrub(database) { () throws(StoreError) in
            try database.query("DELETE FROM fleet_state WHERE monitor = ? AND definition != ?", [.text(monitor), .text(definition)])
        }
    }

    /// Every device's kept state.
    package func load() throws(StoreError) -> [Row] {
        try database.query("SELECT device, last_time, state FROM fleet_state WHERE monitor = ?", [.text(monitor)]).compactMap { row in
            guard row.count == 3, case .text(let device) = row[0] else { return nil }
            let state: [UInt8] =
                switch row[2] {
                case .blob(let bytes): bytes
                default: []
                }
            return Row(device: device, lastTime: row[1].number, state: state)
        }
    }

    /// Keeps `rows` (replacing what each device had), in one transaction committed with the
    /// disk's word before it returns.
    package func save(_ rows: [Row]) throws(StoreError) {
        guard !rows.isEmpty else { return }
        try database.transaction { () throws(StoreError) in
            for row in rows {
                try database.query(
                    "INSERT OR REPLACE INTO fleet_state (monitor, device, definition, last_time, state) VALUES (?, ?, ?, ?, ?)",
                    [.text(monitor), .text(row.device), .text(definition), .optional(row.lastTime), .blob(row.state)])
            }
        }
    }
}
