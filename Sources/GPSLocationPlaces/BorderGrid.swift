import LocateSupport

/// The spatial index of the borders, as the bytes of the place index's border section, so that a
/// point's region is found in a few microseconds: a grid of 1° cells, each a quadtree whose
/// leaves are either wholly inside one region (or in none: the sea) or hold the few pieces of
/// border that cross them and the regions their centre is in. A point's region is then its
/// leaf's centre's, changed by each border piece crossed on the way from the centre to the point
/// (`BorderIndex`).
///
/// Layout (little-endian, offsets from the section's start):
///
///     u32 vertex count, u32 vertex table offset, u32 cell table offset, u32 the section's size
///     vertex table: i32 longitude, i32 latitude (microdegrees) per vertex; ring after ring,
///                   each closed (edge k joins vertex k and k + 1 within a ring)
///     cell table:   360 × 180 entries, row by row from (-180°, -90°)
///     entry (u32):  low 2 bits 0: the whole cell is in region (entry >> 2) - 1 (0: in none);
///                   1: a leaf at offset entry & ~3; 2: a node at offset entry & ~3, four entries
///                   (south-west, south-east, north-west, north-east)
///     leaf:         u16 count of regions its centre is in, u16 count of chains, those regions
///                   (u16 each, ascending), padding to 4 bytes, then the chains, by region
///                   ascending: u16 region, u16 edge count, u32 first vertex
///
/// Regions are numbered smallest first, so where the data has two regions overlap (Åland in
/// Finland and in itself), the smaller one is the answer.
enum BorderGrid {
    static let columns = 360
    static let rows = 180
    /// A cell with more border edges than this is split in four, down to ``maximumDepth``.
    static let leafEdges = 16
    static let maximumDepth = 8

    /// The section's bytes for `rings`, whose regions are numbered smallest first.
    static func encode(_ rings: [BorderData.Ring]) -> [UInt8] {
        var builder = Builder(rings: rings)
        return builder.encode()
    }

    /// The crossings of the way from (`fromX`, `fromY`) to (`toX`, `toY`), first along the
    /// parallel, then along the meridian, with the edge from (`ax`, `ay`) to (`bx`, `by`): 1 for
    /// an odd number, else 0 (the same rule at build and lookup, so that they agree).
    @inline(__always)
    static func crosses(
        fromX: Double, fromY: Double, toX: Double, toY: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
    ) -> Int {
        var count = 0
        if (ay > fromY) != (by > fromY) {
            let x = ax + (fromY - ay) * (bx - ax) / (by - ay)
            if x >= min(fromX, toX), x < max(fromX, toX) { count += 1 }
        }
        if (ax > toX) != (bx > toX) {
            let y = ay + (toX - ax) * (by - ay) / (bx - ax)
            if y >= min(fromY, toY), y < max(fromY, toY) { count += 1 }
        }
        return count & 1
    }

    private struct Builder {
        var longitudes: [Double] = []
        var latitudes: [Double] = []
        var microdegrees: [Int32] = []
        /// The region of the edge starting at each vertex, or -1 at a ring's last vertex.
        var edgeRegion: [Int32] = []
        var output: [UInt8] = []

        init(rings: [BorderData.Ring]) {
            for ring in rings {
                for (longitude, latitude) in zip(ring.longitudes, ring.latitudes) {
                    let x = Int32((longitude * 1e6).rounded())
                    let y = Int32((max(-90, min(90, latitude)) * 1e6).rounded())
                    microdegrees += [x, y]
                    longitudes.append(Double(x) / 1e6)
                    latitudes.append(Double(y) / 1e6)
                    edgeRegion.append(Int32(ring.region))
                }
                edgeRegion[edgeRegion.count - 1] = -1
            }
        }

        /// Whether the edge from vertex `edge` meets the rectangle (a hair larger than it).
        func meets(_ edge: Int, west: Double, south: Double, size: Double) -> Bool {
            let margin = 1e-9
            let (x0, y0) = (longitudes[edge], latitudes[edge])
            let (dx, dy) = (longitudes[edge + 1] - x0, latitudes[edge + 1] - y0)
            var (low, high) = (0.0, 1.0)
            for (p, q) in [
                (-dx, x0 - (west - margin)), (dx, west + size + margin - x0), (-dy, y0 - (south - margin)),
                (dy, south + size + margin - y0),
            ] {
                if p == 0 {
                    if q < 0 { return false }
                } else {
                    let t = q / p
                    if p < 0 { low = max(low, t) } else { high = min(high, t) }
                    if low > high { return false }
                }
            }
            return true
        }

        mutating func encode() -> [UInt8] {
            let vertexCount = longitudes.count
            let cellTable = 16 + vertexCount * 8
            output.reserveCapacity(cellTable + Self.cellCount * 4)
            for value in [vertexCount, 16, cellTable, 0] { append32(value) }
            for value in microdegrees { append32(Int(UInt32(bitPattern: value))) }
            output += [UInt8](repeating: 0, count: Self.cellCount * 4)

            var cells = [[Int32]](repeating: [], count: Self.cellCount)
            for edge in 0..<vertexCount where edgeRegion[edge] >= 0 {
                let (x0, x1) = (min(longitudes[edge], longitudes[edge + 1]), max(longitudes[edge], longitudes[edge + 1]))
                let (y0, y1) = (min(latitudes[edge], latitudes[edge + 1]), max(latitudes[edge], latitudes[edge + 1]))
                let (west, east) = (max(Int((x0 + 180).rounded(.down)), 0), min(Int((x1 + 180).rounded(.down)), BorderGrid.columns - 1))
                let (south, north) = (max(Int((y0 + 90).rounded(.down)), 0), min(Int((y1 + 90).rounded(.down)), BorderGrid.rows - 1))
                guard west <= east, south <= north else { continue }
                let (columns, rows) = (west...east, south...north)
                for row in rows {
                    for column in columns
                    where columns.count == 1 && rows.count == 1
                        || meets(edge, west: Double(column - 180), south: Double(row - 90), size: 1)
                    {
                        cells[row * BorderGrid.columns + column].append(Int32(edge))
                    }
                }
            }
            let centres = centreRegions()
            for row in 0..<BorderGrid.rows {
                for column in 0..<BorderGrid.columns {
                    let cell = row * BorderGrid.columns + column
                    let entry = build(
                        west: Double(column - 180), south: Double(row - 90), size: 1, edges: cells[cell], centre: centres[cell], depth: 0)
                    put32(entry, at: cellTable + cell * 4)
                }
            }
            put32(output.count, at: 12)
            return output
        }

        static let cellCount = BorderGrid.columns * BorderGrid.rows

        /// For each cell, the regions its centre is in (odd crossings of the parallel through it,
        /// west of it), ascending.
        func centreRegions() -> [[Int]] {
            var crossings = [[(x: Double, region: Int32)]](repeating: [], count: BorderGrid.rows)
            for edge in 0..<longitudes.count where edgeRegion[edge] >= 0 {
                let (ay, by) = (latitudes[edge], latitudes[edge + 1])
                let first = max(Int((min(ay, by) + 89.5).rounded(.down)), 0)
                let last = min(Int((max(ay, by) + 89.5).rounded(.up)), BorderGrid.rows - 1)
                guard first <= last else { continue }
                for row in first...last {
                    let y = Double(row) - 89.5
                    guard (ay > y) != (by > y) else { continue }
                    let (ax, bx) = (longitudes[edge], longitudes[edge + 1])
                    crossings[row].append((ax + (y - ay) * (bx - ax) / (by - ay), edgeRegion[edge]))
                }
            }
            var result = [[Int]](repeating: [], count: Self.cellCount)
            for row in 0..<BorderGrid.rows {
                let sorted = crossings[row].sorted { $0.x < $1.x }
                var inside: Set<Int> = []
                var next = 0
                for column in 0..<BorderGrid.columns {
                    let x = Double(column) - 179.5
                    while next < sorted.count, sorted[next].x < x {
                        let region = Int(sorted[next].region)
                        if !inside.insert(region).inserted { inside.remove(region) }
                        next += 1
                    }
                    if !inside.isEmpty { result[row * BorderGrid.columns + column] = inside.sorted() }
                }
            }
            return result
        }

        /// The entry of the square at (`west`, `south`) of `size` degrees, whose border edges are
        /// `edges` and whose centre is in the regions `centre`, its nodes and leaves appended.
        mutating func build(west: Double, south: Double, size: Double, edges: [Int32], centre: [Int], depth: Int) -> Int {
            if edges.isEmpty { return ((centre.first ?? -1) + 1) << 2 }
            if edges.count <= BorderGrid.leafEdges || depth == BorderGrid.maximumDepth {
                return leaf(edges: edges, centre: centre)
            }
            let node = output.count
            output += [UInt8](repeating: 0, count: 16)
            let half = size / 2
            let (centreX, centreY) = (west + half, south + half)
            for child in 0..<4 {
                let (childWest, childSouth) = (west + (child & 1 == 1 ? half : 0), south + (child >= 2 ? half : 0))
                let (childX, childY) = (childWest + half / 2, childSouth + half / 2)
                var regions = Set(centre)
                for edge in edges {
                    let e = Int(edge)
                    let crossed = BorderGrid.crosses(
                        fromX: centreX, fromY: centreY, toX: childX, toY: childY, longitudes[e], latitudes[e], longitudes[e + 1],
                        latitudes[e + 1])
                    if crossed == 1 {
                        let region = Int(edgeRegion[e])
                        if !regions.insert(region).inserted { regions.remove(region) }
                    }
                }
                let inside = edges.filter { meets(Int($0), west: childWest, south: childSouth, size: half) }
                let entry = build(
                    west: childWest, south: childSouth, size: half, edges: inside, centre: regions.sorted(), depth: depth + 1)
                put32(entry, at: node + child * 4)
            }
            return node | 2
        }

        /// A leaf of `edges` (ascending) whose centre is in the regions `centre`.
        mutating func leaf(edges: [Int32], centre: [Int]) -> Int {
            var chains: [(region: Int, edges: Int, first: Int)] = []
            for edge in edges.map(Int.init) {
                if let last = chains.last, last.first + last.edges == edge, last.edges < 65_535, Int(edgeRegion[edge]) == last.region {
                    chains[chains.count - 1].edges += 1
                } else {
                    chains.append((Int(edgeRegion[edge]), 1, edge))
                }
            }
            chains.sort { ($0.region, $0.first) < ($1.region, $1.first) }
            let offset = output.count
            append16(centre.count)
            append16(chains.count)
            for region in centre { append16(region) }
            if centre.count % 2 == 1 { append16(0) }
            for chain in chains {
                append16(chain.region)
                append16(chain.edges)
                append32(chain.first)
            }
            return offset | 1
        }

        mutating func append32(_ value: Int) {
            output += [
                UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16),
                UInt8(truncatingIfNeeded: value >> 24),
            ]
        }

        mutating func append16(_ value: Int) {
            output += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }

        mutating func put32(_ value: Int, at offset: Int) {
            for index in 0..<4 { output[offset + index] = UInt8(truncatingIfNeeded: value >> (index * 8)) }
        }
    }
}
