import GPSLocation
import LocateSupport
import Synchronization

/// One place of the index, in English (its translations are looked up by its id and codes).
struct PlaceRecord: Sendable, Equatable {
    /// The GeoNames id (the key of the place's name in libgeonames' catalogues); empty for a
    /// principal city from tzdata.
    var id: String
    var name: String
    var divisionCode: String
    var division: String
    /// The ISO 3166-2 name of the division (the key of iso-codes' catalogue), or empty.
    var divisionISOName: String
    var countryCode: String
    var country: String
    /// The ISO 3166-1 name of the country (the key of iso-codes' catalogue), or empty.
    var countryISOName: String
    var timeZone: String
    var population: UInt32
    var latitude: Double
    var longitude: Double
}

/// Every place in a compact form laid out for nearest-place searches and read in place: a
/// table of fixed-size rows in the order of an implicit k-d tree over the places' unit vectors
/// (so a lookup visits a few dozen rows, not all of them), beside it the rows' unit vectors, how
/// far each place reaches and the largest reach in each subtree (`KDOrder`), the divisions,
/// countries and time zones once each in tables of their own, the border regions
/// (`BorderData`), the texts, and last the borders' spatial index (`BorderGrid`, read by
/// `BorderIndex`).
///
/// Built once from the system's data (`PlaceIndexBuilder`) and kept in the cache
/// (`$XDG_CACHE_HOME/locate/places.index`, written atomically), stamped with the files it came
/// from: a change to any of them (an upgrade of libgeonames, tzdata or iso-codes) makes it be
/// built again. The kept file is never copied or checked row by row: its places' part is mapped
/// read-only and its borders read where a lookup asks; opening it reads its header (the magic,
/// which names the format, the counts, the sources), which must lay out sections that fill the
/// file exactly; a file that does not is ignored and replaced.
/// Every later read is checked against its section, so a file damaged inside its sections gives
/// a wrong place or none, never a crash.
struct PlaceIndex: Sendable {
    static let magic = Array("LOCATE-PLACES-4\n".utf8)
    /// The index file's name in the cache directory.
    static let fileName = "places.index"

    /// A row: latitude, longitude (micro-degrees), population, GeoNames id, name (offset and
    /// length in the texts), then the indexes of its division, country and time zone, 16 bits each.
    private static let rowSize = 32
    /// A unit vector (three floats), a reach and a subtree's largest reach, one of each a row.
    private static let vectorSize = 12
    private static let reachSize = 4
    private static let tableEntrySize = (division: 24, country: 24, zone: 8)
    private static let regionSize = 40

    /// The places' part of the file (all but the borders).
    private let file: FileBytes
    private let rows: Int
    /// What the tree's searches read of every row.
    let tree: Tree
    private let divisions: (offset: Int, count: Int)
    private let countries: (offset: Int, count: Int)
    private let zones: (offset: Int, count: Int)
    private let texts: (offset: Int, size: Int)
    private let regions: (offset: Int, count: Int)
    /// The borders' spatial index.
    let borders: BorderIndex
    /// The size of the borders' section, the file's last.
    let borderSectionSize: Int
    /// The files the index was built from, with their `stat` stamps then.
    private let sources: [(path: String, stamp: [Int])]
    /// Number of places.
    let count: Int
    /// Where each section of the file starts, in the file's order (`sectionNames`), and its end.
    private let sectionStarts: [Int]
    private static let sectionNames = [
        "header", "rows", "vectors", "reaches", "subtree reaches", "row countries", "row divisions", "divisions", "countries", "zones",
        "regions", "texts", "borders",
    ]
    /// Where each section of the file is, in the file's order, by name.
    var sections: [(name: String, range: Range<Int>)] {
        zip(Self.sectionNames, zip(sectionStarts, sectionStarts.dropFirst())).map { ($0, $1.0..<$1.1) }
    }

    /// The indexes this process has loaded, by path, with the file's `stat` stamp then: an index
    /// file that did not change is not read again. Loads run one at a time under this lock, so
    /// threads that ask for the same missing index at once build it once, and the C libraries it
    /// is built from (not thread-safe in Debian's builds) are only ever read by one thread. (A
    /// list, not a dictionary: a process loads one or two, and a dictionary's generic metadata
    /// cost a lookup a tenth of its instructions.)
    private static let loaded = Mutex<[(path: String, stamp: FileSignature.Stamp, index: PlaceIndex)]>([])

    /// The index kept in the cache directory: loaded, or built and kept. The directory must be
    /// the user's alone (not a link, owned by the user, writable by no one else) and the file
    /// the user's own; otherwise the index is built for this process only, and nothing is
    /// written there.
    /// - Throws: `GPSLocationError.placeDataUnavailable` when there is no valid kept index and
    ///   libgeonames cannot be read.
    static func load(cacheDirectory: String?) throws(GPSLocationError) -> PlaceIndex {
        try loaded.withLock { loaded throws(GPSLocationError) -> PlaceIndex in
            let directory = cacheDirectory.flatMap { try? DirectoryHandle(path: $0, create: true, isPrivate: true) }
            let path = (cacheDirectory ?? "") + "/" + fileName
            let known = loaded.firstIndex { $0.path == path }
            if directory != nil, let known, loaded[known].stamp == FileSignature(path: path).file { return loaded[known].index }
            func keep(_ index: PlaceIndex) {
                let entry = (path, FileSignature(path: path).file, index)
                if let known { loaded[known] = entry } else { loaded.append(entry) }
            }
            if let directory, let file = (try? FileBytes.open(fileName, in: directory, owner: .user, limit: 256 << 20)).flatMap({ $0 }),
                let kept = PlaceIndex(file: file), kept.isCurrent
            {
                keep(kept)
                return kept
            }
            let bytes = try PlaceIndexBuilder.build()
            guard let built = PlaceIndex(bytes: bytes) else {
                throw .placeDataUnavailable(reason: "the system's place data does not make a valid index")
            }
            if let directory {
                try? directory.replace(fileName, with: bytes, durable: false)
                keep(built)
            }
            return built
        }
    }

    /// Which loaded file this index reads: the same for every load that found it loaded.
    var identity: ObjectIdentifier { ObjectIdentifier(file) }

    /// The index in `bytes`, or `nil` when they are not a complete, valid index.
    init?(bytes: [UInt8]) {
        self.init(file: FileBytes(bytes))
    }

    /// The index in `file`, or `nil` when its header is not one of ours or does not lay out
    /// sections that fill the file exactly. Only the header is read now; the rest as lookups
    /// need it, each read checked. The places' part of an open file is mapped read-only (it may
    /// be, as the file is only ever replaced by a rename, in a directory that is the user's
    /// alone); the borders' part is read where a lookup asks.
    init?(file: FileBytes) {
        let bordersOffset = file.word(Self.magic.count + 28)
        guard bordersOffset >= Self.magic.count + 32, bordersOffset <= file.count else { return nil }
        let places = file.mappedPrefix(bordersOffset) ?? file
        var reader = HeaderReader(file: places)
        guard reader.take(Self.magic.count) == Self.magic,
            let count = reader.u32(), count <= 1_000_000,
            let divisionCount = reader.u32(), divisionCount <= 65_536,
            let countryCount = reader.u32(), countryCount <= 65_536,
            let zoneCount = reader.u32(), zoneCount <= 65_536,
            let textSize = reader.u32(),
            let sourceCount = reader.u32(), sourceCount <= 16,
            let regionCount = reader.u32(), regionCount <= 65_535,
            reader.u32() == bordersOffset
        else { return nil }
        var sources: [(path: String, stamp: [Int])] = []
        for _ in 0..<sourceCount {
            guard let pathLength = reader.u32(), pathLength <= 4096, let path = reader.take(pathLength), let stampCount = reader.u32(),
                stampCount <= 32
            else { return nil }
            var stamp: [Int] = []
            for _ in 0..<stampCount {
                guard let value = reader.i64() else { return nil }
                stamp.append(Int(value))
            }
            sources.append((String(decoding: path, as: UTF8.self), stamp))
        }
        let rows = reader.position
        let vectors = rows + count * Self.rowSize
        let reaches = vectors + count * Self.vectorSize
        let subtreeReaches = reaches + count * Self.reachSize
        let rowCountries = subtreeReaches + count * Self.reachSize
        let rowDivisions = rowCountries + count * 2
        let divisions = rowDivisions + count * 2
        let countries = divisions + divisionCount * Self.tableEntrySize.division
        let zones = countries + countryCount * Self.tableEntrySize.country
        let regions = zones + zoneCount * Self.tableEntrySize.zone
        let texts = regions + regionCount * Self.regionSize
        guard texts <= bordersOffset, bordersOffset - texts == textSize,
            let borders = BorderIndex(file: file, offset: bordersOffset)
        else { return nil }
        self.file = places
        self.borders = borders
        borderSectionSize = file.count - bordersOffset
        self.rows = rows
        // What the searches read all over, read where it is mapped (not checked: a damaged
        // float or label only misleads a search; each read stays inside the file).
        tree = Tree(
            file: places, rowCount: count, vectors: vectors, reaches: reaches, subtreeReaches: subtreeReaches,
            rowCountries: rowCountries, rowDivisions: rowDivisions)
        self.divisions = (divisions, divisionCount)
        self.countries = (countries, countryCount)
        self.zones = (zones, zoneCount)
        self.regions = (regions, regionCount)
        self.texts = (texts, textSize)
        self.sources = sources
        self.count = count
        sectionStarts = [
            0, rows, vectors, reaches, subtreeReaches, rowCountries, rowDivisions, divisions, countries, zones, regions, texts,
            bordersOffset, file.count,
        ]
    }

    /// Whether the files this index was built from are the ones installed now: libgeonames
    /// (first), then `PlaceIndexBuilder.dataFiles`, then libnetcdf, each with the stamp it had.
    var isCurrent: Bool {
        Array(sources.dropFirst().prefix(PlaceIndexBuilder.dataFiles.count).map(\.path)) == PlaceIndexBuilder.dataFiles
            && sources.allSatisfy { FileSignature(path: $0.path).file.numbers == $0.stamp }
    }

    /// The latitude of place `row`, in degrees.
    func latitude(_ row: Int) -> Double { Double(Self.signed(word(row, 0))) / 1e6 }
    /// The longitude of place `row`, in degrees.
    func longitude(_ row: Int) -> Double { Double(Self.signed(word(row, 4))) / 1e6 }
    /// The population of place `row`.
    func population(_ row: Int) -> Int { word(row, 8) }
    /// The index in the country table of the country of place `row` (places of one country
    /// share it).
    func countryIndex(_ row: Int) -> Int { tree.country(row) }
    /// The index in the division table of the division of place `row`.
    func divisionIndex(_ row: Int) -> Int { tree.division(row) }

    /// Place `row`, or `nil` when its texts or table indexes are not valid (a damaged file).
    func record(_ row: Int) -> PlaceRecord? {
        let base = rows + row * Self.rowSize
        let (division, country, zone) = (file.short(base + 24), file.short(base + 26), file.short(base + 28))
        guard division < divisions.count, country < countries.count, zone < zones.count else { return nil }
        let divisionEntry = divisions.offset + division * Self.tableEntrySize.division
        let countryEntry = countries.offset + country * Self.tableEntrySize.country
        guard let name = text(at: base + 16),
            let divisionCode = text(at: divisionEntry), let divisionName = text(at: divisionEntry + 8),
            let divisionISOName = text(at: divisionEntry + 16),
            let countryCode = text(at: countryEntry), let countryName = text(at: countryEntry + 8),
            let countryISOName = text(at: countryEntry + 16),
            let timeZone = text(at: zones.offset + zone * Self.tableEntrySize.zone)
        else { return nil }
        let id = word(row, 12)
        return PlaceRecord(
            id: id == 0 ? "" : String(id), name: name, divisionCode: divisionCode, division: divisionName, divisionISOName: divisionISOName,
            countryCode: countryCode, country: countryName, countryISOName: countryISOName, timeZone: timeZone,
            population: UInt32(population(row)), latitude: latitude(row), longitude: longitude(row))
    }

    /// The number of border regions.
    var regionCount: Int { regions.count }

    /// The index in the country table of region `region`'s country.
    func regionCountry(_ region: Int) -> Int { file.short(regions.offset + region * Self.regionSize + 32) }

    /// The index in the division table of the places' division that state `region` is, or
    /// `nil` for a country or a state no place is in.
    func regionDivision(_ region: Int) -> Int? {
        let division = file.short(regions.offset + region * Self.regionSize + 34)
        return division < divisions.count ? division : nil
    }

    /// Region `region` as a place without a name: its country and, for a state, its division
    /// (empty for a country); `nil` when its texts are not valid.
    func regionRecord(_ region: Int) -> PlaceRecord? {
        let base = regions.offset + region * Self.regionSize
        guard regionCountry(region) < countries.count else { return nil }
        let country = countries.offset + regionCountry(region) * Self.tableEntrySize.country
        guard let countryCode = text(at: country), let countryName = text(at: country + 8), let countryISOName = text(at: country + 16),
            let divisionCode = text(at: base + 8), let division = text(at: base + 16), let divisionISOName = text(at: base + 24)
        else { return nil }
        return PlaceRecord(
            id: "", name: "", divisionCode: divisionCode, division: division, divisionISOName: divisionISOName, countryCode: countryCode,
            country: countryName, countryISOName: countryISOName, timeZone: "", population: 0, latitude: .nan, longitude: .nan)
    }

    /// The English name of place `row`, as text, without checking the rest of its record (for
    /// matching names; an invalid name only fails to match).
    func name(_ row: Int) -> String {
        String(decoding: textBytes(at: rows + row * Self.rowSize + 16) ?? [], as: UTF8.self)
    }

    /// The text whose offset and length are at `reference`, if it is valid.
    private func text(at reference: Int) -> String? {
        textBytes(at: reference).flatMap { UntrustedText.shownText($0[...]) }
    }

    /// The bytes of the text whose offset and length are at `reference`, or `nil` when they
    /// are not inside the texts.
    private func textBytes(at reference: Int) -> [UInt8]? {
        let (offset, length) = (file.word(reference), file.word(reference + 4))
        guard offset <= texts.size, length <= texts.size - offset else { return nil }
        return file.bytes((texts.offset + offset)..<(texts.offset + offset + length))
    }

    private func word(_ row: Int, _ offset: Int) -> Int {
        file.word(rows + row * Self.rowSize + offset)
    }

    /// How far a place of `population` reaches from its point, in metres: 12 m × √population
    /// (about 38 km for 10 million, 7 km for 350,000, 1.5 km for 15,000; 12 m for a place
    /// without a figure).
    static func reach(population: Int) -> Double {
        12 * Double(max(population, 1)).squareRoot()
    }

    private static func signed(_ word: Int) -> Int { Int(Int32(bitPattern: UInt32(word))) }

    /// The bytes of an index of `places` (in any order; they are put in the tree's) and the
    /// border `regions` (as places without a name: country, and division for a state) numbered
    /// as in `borders` (`BorderGrid.encode`), stamped with the files they came from.
    static func encode(
        _ places: [PlaceRecord], regions: [PlaceRecord] = [], borders: [UInt8] = BorderGrid.encode([]),
        sources: [(path: String, stamp: [Int])]
    ) -> [UInt8] {
        var texts: [UInt8] = []
        var textOffsets: [String: Int] = [:]
        func reference(_ text: String) -> [UInt8] {
            let offset =
                textOffsets[text]
                ?? {
                    let offset = texts.count
                    texts += text.utf8
                    textOffsets[text] = offset
                    return offset
                }()
            return word(UInt32(offset)) + word(UInt32(text.utf8.count))
        }
        var tables: (divisions: [UInt8], countries: [UInt8], zones: [UInt8]) = ([], [], [])
        var indexes: (divisions: [[String]: Int], countries: [[String]: Int], zones: [String: Int]) = ([:], [:], [:])
        func division(_ place: PlaceRecord) -> Int {
            let key = [place.countryCode, place.divisionCode, place.division, place.divisionISOName]
            if let index = indexes.divisions[key] { return index }
            indexes.divisions[key] = indexes.divisions.count
            tables.divisions += reference(place.divisionCode) + reference(place.division) + reference(place.divisionISOName)
            return indexes.divisions.count - 1
        }
        func country(_ place: PlaceRecord) -> Int {
            let key = [place.countryCode, place.country, place.countryISOName]
            if let index = indexes.countries[key] { return index }
            indexes.countries[key] = indexes.countries.count
            tables.countries += reference(place.countryCode) + reference(place.country) + reference(place.countryISOName)
            return indexes.countries.count - 1
        }
        func zone(_ place: PlaceRecord) -> Int {
            if let index = indexes.zones[place.timeZone] { return index }
            indexes.zones[place.timeZone] = indexes.zones.count
            tables.zones += reference(place.timeZone)
            return indexes.zones.count - 1
        }
        let kept = places.filter { place in
            place.latitude.isFinite && place.longitude.isFinite && abs(place.latitude) <= 90 && abs(place.longitude) <= 180
                && (place.id.isEmpty || UInt32(place.id) != nil)
        }
        var (table, vectors, reaches, labels): ([UInt8], [UInt8], [Float], (countries: [UInt8], divisions: [UInt8])) = (
            [], [], [], ([], [])
        )
        for place in KDOrder.arranged(kept, vector: { UnitVector(latitude: $0.latitude, longitude: $0.longitude) }) {
            let vector = UnitVector(latitude: place.latitude, longitude: place.longitude)
            for component in [vector.x, vector.y, vector.z] { vectors += word(Float(component).bitPattern) }
            // The squared chord of the reach as an angle, rounded up, so that the float never
            // cuts off what the double takes in.
            reaches.append(Float(Double(max(place.population, 1)) * 144 / (6_371_008.8 * 6_371_008.8)).nextUp)
            table += word(UInt32(bitPattern: Int32((place.latitude * 1e6).rounded())))
            table += word(UInt32(bitPattern: Int32((place.longitude * 1e6).rounded())))
            table += word(place.population) + word(UInt32(place.id) ?? 0) + reference(place.name)
            for index in [division(place), country(place), zone(place), 0] { table += short(UInt16(truncatingIfNeeded: index)) }
            labels.countries += short(UInt16(truncatingIfNeeded: country(place)))
            labels.divisions += short(UInt16(truncatingIfNeeded: division(place)))
        }
        let reachTables = (reaches + KDOrder.subtreeMaxima(reaches)).flatMap { word($0.bitPattern) }
        var regionsTable: [UInt8] = []
        for region in regions {
            regionsTable += reference(region.countryCode) + reference(region.divisionCode) + reference(region.division)
            regionsTable += reference(region.divisionISOName) + short(UInt16(truncatingIfNeeded: country(region)))
            regionsTable += short(region.divisionCode.isEmpty ? 0xFFFF : UInt16(truncatingIfNeeded: division(region))) + [0, 0, 0, 0]
        }
        guard indexes.divisions.count <= 65_536, indexes.countries.count <= 65_536, indexes.zones.count <= 65_536,
            regions.count <= 65_535
        else { return [] }
        var header = magic
        for value in [kept.count, indexes.divisions.count, indexes.countries.count, indexes.zones.count, texts.count] {
            header += word(UInt32(value))
        }
        header += word(UInt32(sources.count)) + word(UInt32(regions.count))
        let bordersOffsetField = header.count
        header += word(0)
        for source in sources {
            header += word(UInt32(source.path.utf8.count)) + Array(source.path.utf8) + word(UInt32(source.stamp.count))
            for value in source.stamp {
                let bits = UInt64(bitPattern: Int64(value))
                header += word(UInt32(truncatingIfNeeded: bits)) + word(UInt32(truncatingIfNeeded: bits >> 32))
            }
        }
        var index =
            header + table + vectors + reachTables + labels.countries + labels.divisions + tables.divisions + tables.countries
            + tables.zones + regionsTable + texts
        let bordersOffset = index.count
        for (position, byte) in word(UInt32(bordersOffset)).enumerated() { index[bordersOffsetField + position] = byte }
        return index + borders
    }

    private static func word(_ value: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 24),
        ]
    }

    private static func short(_ value: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
}

/// Reading little-endian numbers off the front of a file, each read checked against the end.
private struct HeaderReader {
    let file: FileBytes
    var position = 0

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= file.count - position else { return nil }
        defer { position += count }
        return file.bytes(position..<(position + count))
    }

    mutating func u32() -> Int? {
        guard position <= file.count - 4 else { return nil }
        defer { position += 4 }
        return file.word(position)
    }

    mutating func i64() -> Int64? {
        guard let low = u32(), let high = u32() else { return nil }
        return Int64(bitPattern: UInt64(high) << 32 | UInt64(low))
    }
}

extension PlaceIndex {
    /// The rows as a k-d search reads them, kept in memory (small, so that a search carries
    /// nothing else along).
    struct Tree: KDRows {
        /// The index's places, mapped: the tree is read where it lies, not copied out at each
        /// start (a copy was a quarter of a megabyte of a `--geocode` run's memory, and its time).
        let file: FileBytes
        let rowCount: Int
        /// Where the unit vector of each row is (three floats a row); where, for each row, at
        /// least the squared chord its place reaches is (the square of the reach as an angle,
        /// (reach ÷ earth's radius)², never less than the chord's) and the largest of those in
        /// the subtree it splits, for `KDOrder.rows(reaching:…)` (the finder then measures each
        /// place found along the surface); and the index in the country table of each row's
        /// country and in the division table of its division (16 bits each), for searches
        /// within one country or state.
        let vectors: Int
        let reaches: Int
        let subtreeReaches: Int
        let rowCountries: Int
        let rowDivisions: Int

        /// What a nearest-place search is narrowed to: the places of one country or of one
        /// division (indexes in their tables).
        enum Filter {
            case country(Int)
            case division(Int)
        }

        func component(_ row: Int, _ axis: Int) -> Float { file.float(vectors + (row * 3 + axis) * 4) }

        func country(_ row: Int) -> Int { file.short(rowCountries + row * 2) }

        func division(_ row: Int) -> Int { file.short(rowDivisions + row * 2) }

        func accepts(_ row: Int, _ filter: Filter) -> Bool {
            switch filter {
            case .country(let country): self.country(row) == country
            case .division(let division): self.division(row) == division
            }
        }

        func reach(_ row: Int) -> Float { file.float(reaches + row * 4) }

        func subtreeReach(_ row: Int) -> Float { file.float(subtreeReaches + row * 4) }
    }
}
