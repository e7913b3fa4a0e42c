import LocateSupport

/// Reduced accuracy (iOS "Precise Location: off"): positions snapped to the centre of a fixed grid
/// cell of about 5.6 km, with everything finer left out.
///
/// The grid is fixed (rows of 0.05° latitude, each cut into cells about as wide as they are tall),
/// so snapping is deterministic: many records from one cell are all the same point, and averaging
/// them gives the cell centre, never the precise position. In a live stream the reducer also keeps
/// the current cell until the receiver is well past its border (hysteresis, so a receiver on a
/// border does not flip between two cells) and lets at most one record through every five minutes.
struct AccuracyReducer {
    /// Cell height in degrees of latitude.
    static let cellDegrees = 0.05
    /// Cell size in metres, reported as the horizontal accuracy of reduced positions.
    static let cellSize = (cellDegrees * 111_195).rounded()
    /// How far past a border (as a fraction of the cell) the receiver must be to change cells.
    static let hysteresis = 0.15
    /// The least time between two records of a live stream.
    static let minimumInterval = Duration.seconds(300)

    /// One cell of the grid. Rows are 0.05° of latitude from pole to pole; each row is cut into
    /// a whole number of equal cells about as wide as they are tall, so the cells tile the globe
    /// exactly, the antimeridian is a border like any other, and every centre is a valid coordinate.
    struct Cell: Hashable {
        let row: Int
        let column: Int

        /// Rows from the south pole (-1800) to the north pole (1799).
        private static let rows = -1800...1799

        init(containingLatitude latitude: Double, longitude: Double) {
            let row = min(max(Int((latitude / AccuracyReducer.cellDegrees).rounded(.down)), Self.rows.lowerBound), Self.rows.upperBound)
            let columns = Self.columns(row: row)
            let column = Int(((longitude + 180) / (360 / Double(columns))).rounded(.down))
            self.row = row
            self.column = min(max(column, 0), columns - 1)
        }

        var centreLatitude: Double { (Double(row) + 0.5) * AccuracyReducer.cellDegrees }
        var centreLongitude: Double { -180 + (Double(column) + 0.5) * Self.width(row: row) }

        /// Whether the position is inside this cell grown by `margin` (a fraction of the cell) on each side.
        func contains(latitude: Double, longitude: Double, margin: Double) -> Bool {
            let latitudeOffset = (latitude - centreLatitude) / AccuracyReducer.cellDegrees
            var longitudeDelta = longitude - centreLongitude
            if longitudeDelta > 180 { longitudeDelta -= 360 }
            if longitudeDelta < -180 { longitudeDelta += 360 }
            // A hair of slack, so a position exactly on a border counts as inside despite rounding.
            let limit = 0.5 + margin + 1e-9
            return abs(latitudeOffset) <= limit && abs(longitudeDelta / Self.width(row: row)) <= limit
        }

        /// How many cells the row has: as many as make them about square, at least one.
        private static func columns(row: Int) -> Int {
            let centre = (Double(row) + 0.5) * AccuracyReducer.cellDegrees
            return max(1, Int((360 * cos(centre * .pi / 180) / AccuracyReducer.cellDegrees).rounded(.down)))
        }

        /// The width of the row's cells in degrees of longitude.
        private static func width(row: Int) -> Double {
            360 / Double(columns(row: row))
        }
    }

    /// `location` snapped to its cell, as a single request releases it (no rate limit, no
    /// hysteresis): the form a fix is judged in under reduced accuracy.
    static func snapped(_ location: Location) -> Location {
        location.snapped(to: Cell(containingLatitude: location.latitude, longitude: location.longitude))
    }

    private var currentCell: Cell?
    private var lastRecord: ContinuousClock.Instant?

    /// The reduced form of `location`, or `nil` when a live stream must not emit a record yet.
    /// - Parameters:
    ///   - now: when the fix arrived; `nil` for a single request, which has no rate limit.
    mutating func reduce(_ location: Location, at now: ContinuousClock.Instant?) -> Location? {
        if let now, let lastRecord, lastRecord.duration(to: now) < Self.minimumInterval { return nil }
        let cell: Cell
        if let currentCell, currentCell.contains(latitude: location.latitude, longitude: location.longitude, margin: Self.hysteresis) {
            cell = currentCell
        } else {
            cell = Cell(containingLatitude: location.latitude, longitude: location.longitude)
        }
        currentCell = cell
        lastRecord = now
        return location.snapped(to: cell)
    }
}

extension Location {
    /// The location at the centre of `cell`, with the cell's size as its accuracy and nothing
    /// finer (altitude, speed, course) kept.
    fileprivate func snapped(to cell: AccuracyReducer.Cell) -> Location {
        Location(
            unchecked: cell.centreLatitude, longitude: cell.centreLongitude, time: time,
            horizontalAccuracy: AccuracyReducer.cellSize, mode: mode, satellitesUsed: satellitesUsed,
            device: device, source: source, accuracy: .reducedAccuracy)
    }
}
