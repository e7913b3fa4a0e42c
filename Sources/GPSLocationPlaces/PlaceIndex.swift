import GPSLocation
import Glibc
import Synchronization

/// One place as libgeonames has it, in English (its translations are looked up by the ids).
struct PlaceRecord: Sendable, Equatable {
    var id: String
    var name: String
    var divisionCode: String
    var division: String
    var countryCode: String
    var country: String
    var timeZone: String
    var population: UInt32
    var latitude: Double
    var longitude: Double
}

/// Every place of libgeonames in a compact form that loads in a fraction of a millisecond: a
/// table of fixed-size rows (coordinates in microdegrees, population, where the place's texts
/// are) and the texts after it. Built from libgeonames once and kept in the cache
/// (`$XDG_CACHE_HOME/locate/places.index`, written atomically), stamped with the libgeonames
/// file it came from: a different libgeonames (an upgrade) makes it be built again. A cached file
/// that is damaged or not one of ours is ignored and replaced.
struct PlaceIndex: Sendable {
    static let magic = Array("LOCATE-PLACES-1\n".utf8)
    private static let rowSize = 20
    /// Between the texts of a place (ASCII unit separator, never in a name).
    private static let separator = UInt8(0x1F)

    private let bytes: [UInt8]
    private let rows: Int
    private let texts: Int
    /// The libgeonames file the index was built from, and its `stat` stamp then.
    private let libraryPath: String
    private let libraryStamp: [Int]
    /// Number of places.
    let count: Int

    /// The index file's name in the cache directory.
    static let fileName = "places.index"

    /// The indexes this process has loaded, by path, with the file's `stat` stamp then: an index
    /// file that did not change is not read again.
    private static let loaded = Mutex<[String: (stamp: FileSignature.Stamp, index: PlaceIndex)]>([:])

    /// The index kept in the cache directory: loaded, or built from libgeonames and kept. The
    /// directory must be the user's alone (not a link, owned by the user, writable by no one
    /// else) and the file the user's own; otherwise the index is built for this process only,
    /// and nothing is written there.
    /// - Throws: `GPSLocationError.placeDataUnavailable` when there is no valid kept index and
    ///   libgeonames cannot be read.
    static func load(cacheDirectory: String?) throws(GPSLocationError) -> PlaceIndex {
        let directory = cacheDirectory.flatMap { try? DirectoryHandle(path: $0, create: true, isPrivate: true) }
        let path = (cacheDirectory ?? "") + "/" + fileName
        if directory != nil, let known = loaded.withLock({ $0[path] }), known.stamp == FileSignature(path: path).file { return known.index }
        if let directory, let bytes = try? directory.read(fileName, owner: .user, limit: 64 << 20), let kept = PlaceIndex(bytes: bytes),
            kept.isCurrent
        {
            loaded.withLock { $0[path] = (FileSignature(path: path).file, kept) }
            return kept
        }
        let (places, libraryPath) = try GeonamesLibrary.readPlaces()
        let bytes = encode(places, libraryPath: libraryPath, stamp: FileSignature(path: libraryPath).file.numbers)
        guard let built = PlaceIndex(bytes: bytes) else {
            throw .placeDataUnavailable(reason: "libgeonames' places do not make a valid index")
        }
        if let directory {
            try? directory.replace(fileName, with: bytes, durable: false)
            loaded.withLock { $0[path] = (FileSignature(path: path).file, built) }
        }
        return built
    }

    /// The index in `bytes`, or `nil` when they are not a complete, valid index.
    init?(bytes: [UInt8]) {
        var reader = ByteReader(bytes: bytes)
        guard reader.take(Self.magic.count) == Self.magic[...],
            let count = reader.u32(), count <= 1_000_000,
            let stampCount = reader.u32(), stampCount <= 32
        else { return nil }
        var stamp: [Int] = []
        for _ in 0..<stampCount {
            guard let value = reader.i64() else { return nil }
            stamp.append(Int(value))
        }
        guard let pathLength = reader.u32(), let path = reader.take(pathLength) else { return nil }
        let rows = reader.position
        guard bytes.count - rows >= count * Self.rowSize else { return nil }
        self.bytes = bytes
        libraryPath = String(decoding: path, as: UTF8.self)
        libraryStamp = stamp
        self.rows = rows
        self.texts = rows + count * Self.rowSize
        self.count = count
        for row in 0..<count {
            let (latitude, longitude) = (coordinate(row, 0), coordinate(row, 4))
            let (offset, length) = (word(rows + row * Self.rowSize + 12), word(rows + row * Self.rowSize + 16))
            guard abs(latitude) <= 90_000_000, abs(longitude) <= 180_000_000,
                offset <= bytes.count - texts, length <= bytes.count - texts - offset
            else { return nil }
        }
    }

    /// Whether the libgeonames this index was built from is the one installed now.
    private var isCurrent: Bool {
        FileSignature(path: libraryPath).file.numbers == libraryStamp
    }

    /// The latitude of place `row`, in degrees.
    func latitude(_ row: Int) -> Double { Double(coordinate(row, 0)) / 1e6 }
    /// The longitude of place `row`, in degrees.
    func longitude(_ row: Int) -> Double { Double(coordinate(row, 4)) / 1e6 }
    /// The population of place `row`.
    func population(_ row: Int) -> Int { word(rows + row * Self.rowSize + 8) }

    /// Place `row`, or `nil` when its texts are not valid (a damaged file).
    func record(_ row: Int) -> PlaceRecord? {
        let base = rows + row * Self.rowSize
        let start = texts + word(base + 12)
        let fields = bytes[start..<(start + word(base + 16))].split(separator: Self.separator, omittingEmptySubsequences: false)
        guard fields.count == 7 else { return nil }
        var strings: [String] = []
        for field in fields {
            guard let text = String(validating: field, as: UTF8.self),
                !UntrustedText.hasHidden(text)
            else { return nil }
            strings.append(text)
        }
        return PlaceRecord(
            id: strings[0], name: strings[1], divisionCode: strings[2], division: strings[3],
            countryCode: strings[4], country: strings[5], timeZone: strings[6],
            population: UInt32(population(row)), latitude: latitude(row), longitude: longitude(row))
    }

    /// The English name of place `row`, as text, without checking the rest of its record (for
    /// matching names; an invalid name only fails to match).
    func name(_ row: Int) -> String {
        let base = rows + row * Self.rowSize
        let start = texts + word(base + 12)
        let end = start + word(base + 16)
        let fields = bytes[start..<end].split(separator: Self.separator, maxSplits: 2, omittingEmptySubsequences: false)
        return fields.count > 1 ? String(decoding: fields[1], as: UTF8.self) : ""
    }

    /// The bytes of an index of `places`, stamped with the library they came from.
    static func encode(_ places: [PlaceRecord], libraryPath: String, stamp: [Int]) -> [UInt8] {
        var header = magic
        var table: [UInt8] = []
        var texts: [UInt8] = []
        var kept = 0
        for place in places {
            let fields = [place.id, place.name, place.divisionCode, place.division, place.countryCode, place.country, place.timeZone]
            guard place.latitude.isFinite, place.longitude.isFinite, abs(place.latitude) <= 90, abs(place.longitude) <= 180,
                fields.allSatisfy({ !$0.utf8.contains(separator) })
            else { continue }
            let text = Array(fields.joined(separator: String(UnicodeScalar(separator))).utf8)
            append(UInt32(bitPattern: Int32((place.latitude * 1e6).rounded())), to: &table)
            append(UInt32(bitPattern: Int32((place.longitude * 1e6).rounded())), to: &table)
            append(place.population, to: &table)
            append(UInt32(texts.count), to: &table)
            append(UInt32(text.count), to: &table)
            texts += text
            kept += 1
        }
        append(UInt32(kept), to: &header)
        append(UInt32(stamp.count), to: &header)
        for value in stamp {
            let bits = UInt64(bitPattern: Int64(value))
            append(UInt32(truncatingIfNeeded: bits), to: &header)
            append(UInt32(truncatingIfNeeded: bits >> 32), to: &header)
        }
        let path = Array(libraryPath.utf8)
        append(UInt32(path.count), to: &header)
        return header + path + table + texts
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24),
        ]
    }

    private func coordinate(_ row: Int, _ offset: Int) -> Int { Int(Int32(bitPattern: UInt32(word(rows + row * Self.rowSize + offset)))) }

    private func word(_ offset: Int) -> Int {
        ByteWords.word(bytes, at: offset)
    }
}

/// Reading little-endian numbers off the front of some bytes, each read checked against the end.
private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func u32() -> Int? {
        guard take(4) != nil else { return nil }
        return ByteWords.word(bytes, at: position - 4)
    }

    mutating func i64() -> Int64? {
        guard let low = u32(), let high = u32() else { return nil }
        return Int64(bitPattern: UInt64(high) << 32 | UInt64(low))
    }
}
