import LocateSupport

/// The border section of the place index (laid out by `BorderGrid`), read from the file as a
/// lookup needs it: its cell's entry, few nodes, leaf and vertices (positioned reads, two a point
/// on average), so the 20-odd MB of borders cost the process no memory and opening it no time. Every offset read from the file is checked against its end and every walk is bounded,
/// so a damaged file gives a wrong region or none, never a crash or a hang.
struct BorderIndex: Sendable {
    private let file: FileBytes
    private let base: Int
    private let vertexCount: Int
    private let vertices: Int
    private let cells: Int

    /// The section at `offset` in `file`, which must end where the file does, or `nil` when it
    /// does not or its tables do not fit in it.
    init?(file: FileBytes, offset: Int) {
        guard offset >= 0, offset <= file.count - 16 else { return nil }
        let header = file.bytes(offset..<(offset + 16))
        let (vertexCount, vertices) = (ByteWords.word(header, at: 0), ByteWords.word(header, at: 4))
        let cells = ByteWords.word(header, at: 8)
        let size = file.count - offset
        let cellBytes = BorderGrid.columns * BorderGrid.rows * 4
        guard ByteWords.word(header, at: 12) == size, vertexCount <= 100_000_000, vertices >= 16, vertices <= size,
            vertexCount * 8 <= size - vertices, cells >= 16, cells <= size, cellBytes <= size - cells
        else { return nil }
        self.file = file
        base = offset
        self.vertexCount = vertexCount
        self.vertices = vertices
        self.cells = offset + cells
    }

    /// The region `latitude`, `longitude` (degrees) is in, or `nil` for none (the sea).
    func region(latitude: Double, longitude: Double) -> Int? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return nil }
        let x = longitude >= 180 ? longitude - 360 : longitude
        let column = min(max(Int((x + 180).rounded(.down)), 0), BorderGrid.columns - 1)
        let row = min(max(Int((latitude + 90).rounded(.down)), 0), BorderGrid.rows - 1)
        var entry = file.word(cells + (row * BorderGrid.columns + column) * 4)
        var (west, south, size) = (Double(column - 180), Double(row - 90), 1.0)
        for _ in 0...BorderGrid.maximumDepth {
            switch entry & 3 {
            case 0:
                let region = (entry >> 2) - 1
                return region >= 0 ? region : nil
            case 1:
                guard let leaf = leaf(at: base + (entry & ~3)) else { return nil }
                return region(in: leaf, x, latitude, centreX: west + size / 2, centreY: south + size / 2)
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

    /// A leaf read: the regions its centre is in (ascending), and its chains (by region
    /// ascending), each with its vertices in degrees.
    private struct Leaf {
        var centre: [Int] = []
        var chains: [(region: Int, longitudes: [Double], latitudes: [Double])] = []
    }

    /// The leaf at `offset`, or `nil` when it does not fit in the file.
    private func leaf(at offset: Int) -> Leaf? {
        let header = file.bytes(offset..<(offset + 4))
        guard header.count == 4 else { return nil }
        let (centreCount, chainCount) = (ByteWords.short(header, at: 0), ByteWords.short(header, at: 2))
        let centreSize = (centreCount + centreCount % 2) * 2
        let body = file.bytes((offset + 4)..<(offset + 4 + centreSize + chainCount * 8))
        guard body.count == centreSize + chainCount * 8 else { return nil }
        var leaf = Leaf()
        leaf.centre = (0..<centreCount).map { ByteWords.short(body, at: $0 * 2) }
        for index in 0..<chainCount {
            let chain = centreSize + index * 8
            let (edges, first) = (ByteWords.short(body, at: chain + 2), ByteWords.word(body, at: chain + 4))
            guard first < vertexCount, edges <= vertexCount - 1 - first else { continue }
            let start = base + vertices + first * 8
            let points = file.bytes(start..<(start + (edges + 1) * 8))
            guard points.count == (edges + 1) * 8 else { continue }
            let longitudes = (0...edges).map { Double(Int32(truncatingIfNeeded: ByteWords.word(points, at: $0 * 8))) / 1e6 }
            let latitudes = (0...edges).map { Double(Int32(truncatingIfNeeded: ByteWords.word(points, at: $0 * 8 + 4))) / 1e6 }
            leaf.chains.append((ByteWords.short(body, at: chain), longitudes, latitudes))
        }
        return leaf
    }

    /// The region of (`x`, `y`) in `leaf`: for each region in turn, smallest first, the parity
    /// of the leaf's centre changed by the crossings of its chains on the way from the centre;
    /// the first that holds the point.
    private func region(in leaf: Leaf, _ x: Double, _ y: Double, centreX: Double, centreY: Double) -> Int? {
        var (centreIndex, chainIndex) = (0, 0)
        while centreIndex < leaf.centre.count || chainIndex < leaf.chains.count {
            let centreRegion = centreIndex < leaf.centre.count ? leaf.centre[centreIndex] : Int.max
            let chainRegion = chainIndex < leaf.chains.count ? leaf.chains[chainIndex].region : Int.max
            let region = min(centreRegion, chainRegion)
            var parity = 0
            if centreRegion == region {
                parity = 1
                centreIndex += 1
            }
            while chainIndex < leaf.chains.count, leaf.chains[chainIndex].region == region {
                let chain = leaf.chains[chainIndex]
                chainIndex += 1
                for edge in 0..<(chain.longitudes.count - 1) {
                    parity ^= BorderGrid.crosses(
                        fromX: x, fromY: y, toX: centreX, toY: centreY, chain.longitudes[edge], chain.latitudes[edge],
                        chain.longitudes[edge + 1], chain.latitudes[edge + 1])
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
                        entry: file.word(cells + (row * BorderGrid.columns + column) * 4), west: Double(column - 180),
                        south: Double(row - 90),
                        size: 1.0, depth: 0
                    )
                ]
                while let square = pending.popLast() {
                    let px = x + shift
                    guard px + reachX >= square.west, px - reachX <= square.west + square.size, latitude + reachY >= square.south,
                        latitude - reachY <= square.south + square.size
                    else { continue }
                    switch square.entry & 3 {
                    case 1:
                        if let leaf = leaf(at: base + (square.entry & ~3)) {
                            nearest(in: leaf, px, latitude, scale: scale, limit: limit, best: &best)
                        }
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

    /// Keeps in `best` the region of the edge of `leaf` nearest to (`x`, `y`) if it is nearer
    /// than `best` and within `limit` (squared degrees of latitude; longitudes scaled by `scale`).
    private func nearest(in leaf: Leaf, _ x: Double, _ y: Double, scale: Double, limit: Double, best: inout (region: Int, squared: Double)?)
    {
        for chain in leaf.chains {
            var (ax, ay) = ((chain.longitudes[0] - x) * scale, chain.latitudes[0] - y)
            for vertex in 1..<chain.longitudes.count {
                let (bx, by) = ((chain.longitudes[vertex] - x) * scale, chain.latitudes[vertex] - y)
                let (dx, dy) = (bx - ax, by - ay)
                let length = dx * dx + dy * dy
                let t = length > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length)) : 0
                let (ex, ey) = (ax + t * dx, ay + t * dy)
                let squared = ex * ex + ey * ey
                if squared <= limit, squared < best?.squared ?? .infinity { best = (chain.region, squared) }
                (ax, ay) = (bx, by)
            }
        }
    }
}
