import LocateSupport

/// The border section of the place index (laid out by `BorderGrid`), read where it lies in the
/// mapped file: a lookup touches only the pages of its cell. Every offset read from the file is
/// checked against its end and every walk is bounded, so a damaged file gives a wrong region or
/// none, never a crash or a hang.
struct BorderIndex: Sendable {
    private let file: MappedBytes
    private let base: Int
    private let vertexCount: Int
    private let vertices: Int
    private let cells: Int

    /// The section at `offset` in `file`, which must end where the file does, or `nil` when it
    /// does not or its tables do not fit in it.
    init?(file: MappedBytes, offset: Int) {
        guard offset >= 0, offset <= file.count - 16 else { return nil }
        let vertexCount = file.word(offset)
        let vertices = file.word(offset + 4)
        let cells = file.word(offset + 8)
        let size = file.count - offset
        guard file.word(offset + 12) == size, vertexCount <= 100_000_000, vertices >= 16, vertices <= size,
            vertexCount * 8 <= size - vertices, cells >= 16, cells <= size, BorderGrid.columns * BorderGrid.rows * 4 <= size - cells
        else { return nil }
        self.file = file
        base = offset
        self.vertexCount = vertexCount
        self.vertices = vertices
        self.cells = cells
    }

    /// The region `latitude`, `longitude` (degrees) is in, or `nil` for none (the sea).
    func region(latitude: Double, longitude: Double) -> Int? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return nil }
        let x = longitude >= 180 ? longitude - 360 : longitude
        let column = min(max(Int((x + 180).rounded(.down)), 0), BorderGrid.columns - 1)
        let row = min(max(Int((latitude + 90).rounded(.down)), 0), BorderGrid.rows - 1)
        var entry = file.word(base + cells + (row * BorderGrid.columns + column) * 4)
        var (west, south, size) = (Double(column - 180), Double(row - 90), 1.0)
        for _ in 0...BorderGrid.maximumDepth {
            switch entry & 3 {
            case 0:
                let region = (entry >> 2) - 1
                return region >= 0 ? region : nil
            case 1:
                return leafRegion(at: base + entry & ~3, x, latitude, centreX: west + size / 2, centreY: south + size / 2)
            case 2:
                size /= 2
                let east = x >= west + size
                let north = latitude >= south + size
                if east { west += size }
                if north { south += size }
                entry = file.word(base + (entry & ~3) + ((north ? 2 : 0) + (east ? 1 : 0)) * 4)
            default:
                return nil
            }
        }
        return nil
    }

    /// The region of (`x`, `y`) in the leaf at `offset`: for each region in turn, smallest
    /// first, the parity of the leaf's centre changed by the crossings of its chains on the way
    /// from the centre; the first that holds the point.
    private func leafRegion(at offset: Int, _ x: Double, _ y: Double, centreX: Double, centreY: Double) -> Int? {
        let centreCount = file.short(offset)
        let chainCount = file.short(offset + 2)
        let chains = offset + 4 + (centreCount + centreCount % 2) * 2
        guard chains + chainCount * 8 <= file.count else { return nil }
        var centreIndex = 0
        var chainIndex = 0
        while centreIndex < centreCount || chainIndex < chainCount {
            let centreRegion = centreIndex < centreCount ? file.short(offset + 4 + centreIndex * 2) : Int.max
            let chainRegion = chainIndex < chainCount ? file.short(chains + chainIndex * 8) : Int.max
            let region = min(centreRegion, chainRegion)
            var parity = 0
            if centreRegion == region {
                parity = 1
                centreIndex += 1
            }
            while chainIndex < chainCount, file.short(chains + chainIndex * 8) == region {
                let chain = chains + chainIndex * 8
                let edges = file.short(chain + 2)
                let first = file.word(chain + 4)
                chainIndex += 1
                guard first < vertexCount, edges <= vertexCount - 1 - first else { continue }
                var vertex = base + vertices + first * 8
                var (ax, ay) = (
                    Double(Int32(truncatingIfNeeded: file.word(vertex))) / 1e6,
                    Double(Int32(truncatingIfNeeded: file.word(vertex + 4))) / 1e6
                )
                for _ in 0..<edges {
                    vertex += 8
                    let (bx, by) = (
                        Double(Int32(truncatingIfNeeded: file.word(vertex))) / 1e6,
                        Double(Int32(truncatingIfNeeded: file.word(vertex + 4))) / 1e6
                    )
                    parity ^= BorderGrid.crosses(fromX: x, fromY: y, toX: centreX, toY: centreY, ax, ay, bx, by)
                    (ax, ay) = (bx, by)
                }
            }
            if parity == 1 { return region }
        }
        return nil
    }

    /// The region whose border is nearest to `latitude`, `longitude` (degrees) within `range`
    /// metres, and how far that border is, or `nil` when none is that near. For a point in no
    /// region: the coast it is off.
    func nearestRegion(latitude: Double, longitude: Double, within range: Double) -> (region: Int, distance: Double)? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, range > 0 else { return nil }
        let metresPerDegree = 111_195.0
        let scale = max(cos(latitude * .pi / 180), 0.01)
        let reachY = range / metresPerDegree
        let reachX = min(reachY / scale, 180)
        let x = longitude >= 180 ? longitude - 360 : longitude
        var best: (region: Int, squared: Double)? = nil
        let limit = reachY * reachY
        let south = max(Int((latitude - reachY + 90).rounded(.down)), 0)
        let north = min(Int((latitude + reachY + 90).rounded(.down)), BorderGrid.rows - 1)
        let west = Int((x - reachX + 180).rounded(.down))
        let east = Int((x + reachX + 180).rounded(.down))
        guard south <= north else { return nil }
        for row in south...north {
            for wrapped in west...max(west, min(east, west + BorderGrid.columns - 1)) {
                let column = ((wrapped % BorderGrid.columns) + BorderGrid.columns) % BorderGrid.columns
                // The point as seen from this cell's side of the antimeridian.
                let shift = Double(column - wrapped) * 1
                var pending = [
                    (
                        entry: file.word(base + cells + (row * BorderGrid.columns + column) * 4), west: Double(column - 180),
                        south: Double(row - 90), size: 1.0, depth: 0
                    )
                ]
                while let square = pending.popLast() {
                    let px = x + shift
                    guard px + reachX >= square.west, px - reachX <= square.west + square.size, latitude + reachY >= square.south,
                        latitude - reachY <= square.south + square.size
                    else { continue }
                    switch square.entry & 3 {
                    case 1:
                        nearest(inLeaf: base + square.entry & ~3, px, latitude, scale: scale, limit: limit, best: &best)
                    case 2 where square.depth < BorderGrid.maximumDepth:
                        let half = square.size / 2
                        for child in 0..<4 {
                            pending.append(
                                (
                                    file.word(base + (square.entry & ~3) + child * 4), square.west + (child & 1 == 1 ? half : 0),
                                    square.south + (child >= 2 ? half : 0), half, square.depth + 1
                                ))
                        }
                    default: continue
                    }
                }
            }
        }
        return best.map { ($0.region, $0.squared.squareRoot() * metresPerDegree) }
    }

    private func nearest(
        inLeaf offset: Int, _ x: Double, _ y: Double, scale: Double, limit: Double, best: inout (region: Int, squared: Double)?
    ) {
        let centreCount = file.short(offset)
        let chainCount = file.short(offset + 2)
        let chains = offset + 4 + (centreCount + centreCount % 2) * 2
        guard chains + chainCount * 8 <= file.count else { return }
        for index in 0..<chainCount {
            let chain = chains + index * 8
            let region = file.short(chain)
            let edges = file.short(chain + 2)
            let first = file.word(chain + 4)
            guard first < vertexCount, edges <= vertexCount - 1 - first else { continue }
            var vertex = base + vertices + first * 8
            var (ax, ay) = (
                (Double(Int32(truncatingIfNeeded: file.word(vertex))) / 1e6 - x) * scale,
                Double(Int32(truncatingIfNeeded: file.word(vertex + 4))) / 1e6 - y
            )
            for _ in 0..<edges {
                vertex += 8
                let (bx, by) = (
                    (Double(Int32(truncatingIfNeeded: file.word(vertex))) / 1e6 - x) * scale,
                    Double(Int32(truncatingIfNeeded: file.word(vertex + 4))) / 1e6 - y
                )
                let (dx, dy) = (bx - ax, by - ay)
                let length = dx * dx + dy * dy
                let t = length > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length)) : 0
                let (ex, ey) = (ax + t * dx, ay + t * dy)
                let squared = ex * ex + ey * ey
                if squared <= limit, squared < best?.squared ?? .infinity { best = (region, squared) }
                (ax, ay) = (bx, by)
            }
        }
    }
}
