import GPSLocation
import LocateSupport

/// The borders of countries and of the states of the eight largest, from Debian's `gmt-dcw`: the
/// Digital Chart of the World (1:1,000,000) as the GMT team keeps it, one netCDF-4 file read
/// through libnetcdf (`NetCDFLibrary`), made ready for `BorderGrid`:
///
/// - **Regions**: each country of `dcw-countries.txt`, except the eight that have states in
///   `dcw-states.txt` (AR AU BR CA CN IN RU US), which are their states instead (finer lines, and
///   the state is known). China's states `HK` and `MO` are the countries Hong Kong and Macao
///   (the data has no country polygon for them); its state `TW` is left to the country Taiwan.
/// - **Rings**: a tag's points split where a point is 65535 (a new ring). A ring drawn twice in
///   one region is kept once (so that an enclave or lake the data meant as a hole is one: Llívia,
///   Büsingen). A ring round a pole (Antarctica) is closed through the pole. Longitudes are
///   unwrapped along each ring; a ring that reaches past 180° is kept a second time 360° to the
///   west, so that both sides of the antimeridian have it.
/// - **Simplified** (Douglas–Peucker) by ``tolerance``: no line moves more than that, far less
///   than the data's own error (0.5–2 km at 1:1,000,000), and seven in eight points go.
enum BorderData {
    /// Where gmt-dcw keeps its files.
    static let directory = "/usr/share/gmt-dcw"
    /// The files the borders come from (to stamp what is derived from them).
    static let files = [directory + "/dcw-gmt.nc", directory + "/dcw-countries.txt", directory + "/dcw-states.txt"]
    /// How far simplification may move a line, in metres.
    static let tolerance = 150.0

    /// China's states that are countries of their own in ISO 3166-1, and the one the data also
    /// has as a country.
    private static let statesAsCountries = ["CNHK": "HK", "CNMO": "MO"]
    private static let statesLeftToCountries: Set<String> = ["CNTW"]

    /// A region: a country, or a state of one.
    struct Region: Sendable, Equatable {
        /// ISO 3166-1 alpha-2 (or `XK`, Kosovo).
        var countryCode: String
        /// The state's code, the part after the hyphen of its ISO 3166-2 code (`TX`, `ON`,
        /// `MOW`); empty for a country.
        var stateCode: String
        /// The state's name in `dcw-states.txt`; empty for a country.
        var stateName: String
        /// The region's area in square degrees scaled by the cosine of latitude (to order
        /// regions by size: the smaller one wins where two overlap).
        var area: Double
    }

    /// One closed ring: its region and points (the last equals the first), in degrees.
    struct Ring: Sendable {
        var region: Int
        var longitudes: [Double]
        var latitudes: [Double]
    }

    /// Every region and ring of the system's gmt-dcw, and the path of the library that read it.
    /// - Throws: `GPSLocationError.placeDataUnavailable` when gmt-dcw or libnetcdf is missing or
    ///   the file cannot be read.
    static func load(directory: String = directory) throws(GPSLocationError) -> (regions: [Region], rings: [Ring], libraryPath: String) {
        func lines(_ name: String) throws(GPSLocationError) -> [[String]] {
            guard let bytes = (try? TrustedFile.read(directory + "/" + name, owner: .anyone, limit: 1 << 20)).flatMap({ $0 }) else {
                throw .placeDataUnavailable(reason: "cannot read \(directory)/\(name) (install gmt-dcw)")
            }
            return bytes.split(separator: UInt8(ascii: "\n")).filter { $0.first != UInt8(ascii: "#") }.map { line in
                line.split(separator: UInt8(ascii: " "), maxSplits: 2).map { String(decoding: $0, as: UTF8.self) }
            }
        }
        func isCode(_ text: String, _ lengths: ClosedRange<Int>) -> Bool {
            lengths.contains(text.utf8.count)
                && text.utf8.allSatisfy {
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                }
        }
        let countries = try lines("dcw-countries.txt").compactMap { $0.count >= 2 && isCode($0[1], 2...2) ? $0[1] : nil }
        let states = try lines("dcw-states.txt").compactMap { fields in
            fields.count >= 2 && isCode(fields[0], 2...2) && isCode(fields[1], 1...3)
                ? (country: fields[0], state: fields[1], name: fields.count > 2 ? fields[2] : fields[1]) : nil
        }
        let withStates = Set(states.map(\.country))
        var tags: [(tag: String, region: Region)] = countries.filter { !withStates.contains($0) }.map {
            ($0, Region(countryCode: $0, stateCode: "", stateName: "", area: 0))
        }
        for state in states where !statesLeftToCountries.contains(state.country + state.state) {
            let tag = state.country + state.state
            let region = statesAsCountries[tag].map { Region(countryCode: $0, stateCode: "", stateName: "", area: 0) }
            tags.append((tag, region ?? Region(countryCode: state.country, stateCode: state.state, stateName: state.name, area: 0)))
        }
        let (packed, libraryPath) = try NetCDFLibrary.readTags(tags.map(\.tag), path: directory + "/dcw-gmt.nc")
        var regions: [Region] = []
        var rings: [Ring] = []
        for (tag, region) in tags {
            guard let data = packed[tag], data.longitudeScale > 0, data.latitudeScale > 0 else { continue }
            var kept = region
            let made = self.rings(of: data, region: regions.count)
            kept.area = made.reduce(0) { $0 + $1.area }
            regions.append(kept)
            rings += made.map(\.ring)
        }
        guard !rings.isEmpty else { throw .placeDataUnavailable(reason: "\(directory)/dcw-gmt.nc has no borders this build can read") }
        return (regions, rings, libraryPath)
    }

    /// The rings of one tag (see above), simplified, each with its area (holes negative).
    static func rings(of data: NetCDFLibrary.PackedTag, region: Int) -> [(ring: Ring, area: Double)] {
        var seen: Set<[UInt32]> = []
        var made: [(ring: Ring, area: Double)] = []
        var start = 0
        let count = min(data.longitudes.count, data.latitudes.count)
        while start < count {
            guard data.longitudes[start] == 65535 else {
                start += 1
                continue
            }
            let isHole = data.latitudes[start] == 1
            var end = start + 1
            while end < count, data.longitudes[end] != 65535 { end += 1 }
            let packed = (start + 1..<end).map { UInt32(data.longitudes[$0]) << 16 | UInt32(data.latitudes[$0]) }
            start = end
            // The same ring may be drawn from another point or the other way round.
            guard packed.count >= 3, seen.insert(packed.sorted()).inserted else { continue }
            var longitudes = packed.map { Double($0 >> 16) / data.longitudeScale + data.longitudeMinimum }
            var latitudes = packed.map { Double($0 & 0xFFFF) / data.latitudeScale + data.latitudeMinimum }
            closeRound(&longitudes, &latitudes)
            let simplified = simplify(longitudes, latitudes)
            var ring = Ring(region: region, longitudes: simplified.longitudes, latitudes: simplified.latitudes)
            let area = abs(Self.area(ring)) * (isHole ? -1 : 1)
            let west = ring.longitudes.min() ?? 0
            let shift = ((west + 180) / 360).rounded(.down) * 360
            if shift != 0 { ring.longitudes = ring.longitudes.map { $0 - shift } }
            made.append((ring, area))
            if (ring.longitudes.max() ?? 0) > 180 {
                var copy = ring
                copy.longitudes = ring.longitudes.map { $0 - 360 }
                made.append((copy, 0))
            }
        }
        return made
    }

    /// Closes the ring, unwrapping its longitudes; a ring that goes once round a pole (its
    /// longitudes jump by 360° an odd number of times) is opened at the jump and closed through
    /// the pole.
    static func closeRound(_ longitudes: inout [Double], _ latitudes: inout [Double]) {
        if longitudes.first == longitudes.last, latitudes.first == latitudes.last, longitudes.count > 1 {
            longitudes.removeLast()
            latitudes.removeLast()
        }
        let count = longitudes.count
        let jumps = (0..<count).filter { abs(longitudes[($0 + 1) % count] - longitudes[$0]) > 180 }
        if jumps.count % 2 == 1, let jump = jumps.first {
            let order = Array(jump + 1..<count) + Array(0...jump)
            longitudes = order.map { longitudes[$0] }
            latitudes = order.map { latitudes[$0] }
        }
        for index in longitudes.indices.dropFirst() {
            longitudes[index] += ((longitudes[index - 1] - longitudes[index]) / 360).rounded() * 360
        }
        if jumps.count % 2 == 1, let first = longitudes.first, let last = longitudes.last {
            let pole = latitudes.reduce(0, +) < 0 ? -90.0 : 90.0
            longitudes += [last, first]
            latitudes += [pole, pole]
        }
        if let first = longitudes.first, let firstLatitude = latitudes.first {
            longitudes.append(first)
            latitudes.append(firstLatitude)
        }
    }

    /// The ring simplified by Douglas–Peucker within ``tolerance`` (distances measured on a
    /// plane scaled by the cosine of each segment's middle latitude); a ring that would keep
    /// fewer than four points is kept whole.
    static func simplify(_ longitudes: [Double], _ latitudes: [Double]) -> (longitudes: [Double], latitudes: [Double]) {
        let count = longitudes.count
        guard count > 4 else { return (longitudes, latitudes) }
        let metresPerDegree = 111_195.0
        let limit = (tolerance / metresPerDegree) * (tolerance / metresPerDegree)
        /// The point between `from` and `to` farthest from the line joining them, and the square
        /// of its distance (in degrees of latitude).
        func farthest(_ from: Int, _ to: Int) -> (index: Int, squared: Double) {
            let scale = cos((latitudes[from] + latitudes[to]) / 2 * .pi / 180)
            let (ax, ay) = (longitudes[from] * scale, latitudes[from])
            let (dx, dy) = (longitudes[to] * scale - ax, latitudes[to] - ay)
            let length = dx * dx + dy * dy
            var worst = (index: from + 1, squared: -1.0)
            for index in (from + 1)..<to {
                let (px, py) = (longitudes[index] * scale - ax, latitudes[index] - ay)
                let t = length > 0 ? max(0, min(1, (px * dx + py * dy) / length)) : 0
                let (ex, ey) = (t * dx - px, t * dy - py)
                let squared = ex * ex + ey * ey
                if squared > worst.squared { worst = (index, squared) }
            }
            return worst
        }
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        // The point farthest from the first splits the closed ring into two open lines.
        let far = farthest(0, count - 1).index
        keep[far] = true
        var pending = [(0, far), (far, count - 1)]
        while let (from, to) = pending.popLast() {
            guard to - from > 1 else { continue }
            let worst = farthest(from, to)
            if worst.squared > limit {
                keep[worst.index] = true
                pending.append((from, worst.index))
                pending.append((worst.index, to))
            }
        }
        let kept = (0..<count).filter { keep[$0] }
        guard kept.count >= 4 else { return (longitudes, latitudes) }
        return (kept.map { longitudes[$0] }, kept.map { latitudes[$0] })
    }

    /// The ring's area by the shoelace formula, in square degrees scaled by the cosine of the
    /// ring's middle latitude (signed by the ring's direction).
    static func area(_ ring: Ring) -> Double {
        guard let south = ring.latitudes.min(), let north = ring.latitudes.max() else { return 0 }
        var sum = 0.0
        for index in ring.longitudes.indices.dropLast() {
            sum += ring.longitudes[index] * ring.latitudes[index + 1] - ring.longitudes[index + 1] * ring.latitudes[index]
        }
        return sum / 2 * cos((south + north) / 2 * .pi / 180)
    }
}
