import LocateSupport

/// Where this machine was: the points `locate record` kept, in the user's store beside the outbox
/// (see ``UserStore``). Each point is one admitted fix, committed with the disk's word before the
/// next is taken; read back in time order, between two times; forgotten before a time.
///
/// The history is the user's own data: reading it is a location request of the reading app,
/// which the command checks before it reads (a denied app gets nothing, a reduced one cells).
/// One `History` is one connection, used by one thread at a time; several processes may share
/// the file (SQLite's locks).
package final class History {
    /// One point as kept: its time (Unix seconds), position, and what the receiver knew of it.
    package struct Point: Sendable, Equatable {
        package var time: Double
        package var latitude: Double
        package var longitude: Double
        package var altitude: Double?
        package var horizontalAccuracy: Double?
        /// Metres a second, and degrees from true north.
        package var speed: Double?
        package var course: Double?
        /// Whether the point was a reduced-accuracy cell when it was taken.
        package var isReduced: Bool

        package init(
            time: Double, latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
            speed: Double? = nil, course: Double? = nil, isReduced: Bool = false
        ) {
            (self.time, self.latitude, self.longitude, self.altitude) = (time, latitude, longitude, altitude)
            (self.horizontalAccuracy, self.speed, self.course, self.isReduced) = (horizontalAccuracy, speed, course, isReduced)
        }
    }

    private let directory: DirectoryHandle
    private let database: Database

    /// The history in the store under `directory`, created when missing (and the directory with
    /// it when `create`).
    /// - Throws: `StoreError`: `.refused` for a directory or file that cannot be trusted,
    ///   `.damaged` for a file that is not this store's, `.io` for a full or failing disk.
    package init(directory path: String, create: Bool = true) throws(StoreError) {
        directory = try UserStore.directory(path, create: create)
        database = try UserStore.open(directory)
    }

    /// Whether a store exists under `directory` (a reader with none has nothing to read).
    package static func exists(directory path: String) -> Bool {
        !FileSignature(path: path + "/" + UserStore.fileName).link.isMissing
    }

    /// Keeps `points` in one transaction, committed (with the disk's word) before it returns.
    package func append(_ points: [Point]) throws(StoreError) {
        guard !points.isEmpty else { return }
        try database.transaction { () throws(StoreError) in
            for point in points {
                try database.query(
                    "INSERT INTO history (time, lat, lon, alt, h_acc, speed, course, reduced) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .real(point.time), .real(point.latitude), .real(point.longitude), .optional(point.altitude),
                        .optional(point.horizontalAccuracy), .optional(point.speed), .optional(point.course),
                        .integer(point.isReduced ? 1 : 0),
                    ])
            }
        }
    }

    /// The points from `start` up to (not including) `end`, in time order (Unix seconds; `nil`: no bound).
    package func points(from start: Double? = nil, to end: Double? = nil) throws(StoreError) -> [Point] {
        try database.query(
            "SELECT time, lat, lon, alt, h_acc, speed, course, reduced FROM history WHERE time >= ? AND time < ? ORDER BY time, rowid",
            [.real(start ?? -.greatestFiniteMagnitude), .real(end ?? .greatestFiniteMagnitude)]
        ).compactMap { row in
            guard row.count == 8, let time = row[0].number, let latitude = row[1].number, let longitude = row[2].number,
                case .integer(let reduced) = row[7]
            else { return nil }
            return Point(
                time: time, latitude: latitude, longitude: longitude, altitude: row[3].number, horizontalAccuracy: row[4].number,
                speed: row[5].number, course: row[6].number, isReduced: reduced != 0)
        }
    }

    /// Deletes the points before `time` (every point when `nil`), their bytes too (secure_delete,
    /// and the log emptied into the file).
    /// - Returns: how many were deleted.
    @discardableResult
    package func forget(before time: Double?) throws(StoreError) -> Int {
        try UserStore.scrub(database) { () throws(StoreError) in
            if let time {
                try database.query("DELETE FROM history WHERE time < ?", [.real(time)])
            } else {
                try database.query("DELETE FROM history")
            }
        }
    }
}
