public import GPSLocation
import Glibc

/// Turns coordinates into places and names into coordinates, offline, as `CLGeocoder` does for
/// CoreLocation apps, from Debian's libgeonames (about 24,000 places of at least ~15,000 people,
/// GeoNames data under CC BY 4.0).
///
/// Making a finder loads the place index from the cache (building it from libgeonames the first
/// time, about 60 ms); a lookup then takes a fraction of a millisecond. Nothing here touches
/// the network, the process's locale or its environment.
///
/// **Which place is named.** Not simply the nearest centre point: inside a big city that is often
/// a smaller neighbour's. Each place reaches out from its centre by a radius that grows with the
/// square root of its population (12 m per √person: about 38 km for Seoul's 10 million, 7 km
/// for a city of 350,000, 1.5 km for a town of 15,000). Among the places whose radius reaches the
/// coordinate, the one it is deepest inside (the smallest distance ÷ radius) is named; when no
/// radius reaches it, the nearest place within 100 km; beyond that, none. Only places in the
/// country of the nearest place compete, so a big city does not reach across a border. So 37.517829,
/// 126.886270 (Yeongdeungpo-gu) is Seoul, not Gwangmyeong 4.8 km away, while a suburb that is a
/// city of its own (Santa Monica, Cambridge MA) keeps its name. Limits: districts are not in the
/// data (no "Shinjuku"), nor are places under ~15,000 people, nor some city-states (Singapore,
/// Macau); where the nearest centre point is across a border, the other side wins.
public struct PlaceFinder: Sendable {
    /// The language of the names this finder gives.
    public let language: PlaceLanguage
    private let index: PlaceIndex
    private let catalogs: [GeonamesCatalog]

    /// A finder for names in `language`, with the place index kept in `cacheDirectory`
    /// (default: `$XDG_CACHE_HOME/locate`, or `~/.cache/locate`; used only when it is the
    /// user's alone, otherwise the index is built for this finder only).
    /// - Throws: `GPSLocationError.placeDataUnavailable` when there is no usable
    ///   index and libgeonames (apt `libgeonames0`) cannot be read.
    public init(language: PlaceLanguage = .current, cacheDirectory: String? = nil) throws(GPSLocationError) {
        self.language = language
        index = try PlaceIndex.load(cacheDirectory: cacheDirectory ?? BaseDirectories.current.cacheHome.map { $0 + "/locate" })
        catalogs = GeonamesCatalog.load(languages: language.languages)
    }

    /// The place a person at `location` would name, or `nil` when no place of the data is within
    /// 100 km.
    public func reverseGeocode(_ location: Location) -> Placemark? {
        reverseGeocode(latitude: location.latitude, longitude: location.longitude)
    }

    /// The place a person at `latitude`, `longitude` (degrees) would name, or `nil`.
    public func reverseGeocode(latitude: Double, longitude: Double) -> Placemark? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let kilometresPerDegree = 111.195
        let shrink = cos(latitude * .pi / 180)
        var reaching: [(row: Int, depth: Double)] = []
        var nearest: (row: Int, distance: Double)?
        for row in 0..<index.count {
            let northing = (index.latitude(row) - latitude) * kilometresPerDegree
            let easting = remainder(index.longitude(row) - longitude, 360) * shrink * kilometresPerDegree
            let squared = northing * northing + easting * easting
            // Radius² in km²: (0.012 km × √population)².
            let reach = 0.000144 * Double(max(index.population(row), 1))
            if squared <= reach { reaching.append((row, squared / reach)) }
            if squared < nearest?.distance ?? .infinity { nearest = (row, squared) }
        }
        guard let nearest, nearest.distance <= 100 * 100 else { return nil }
        // A border is a line no radius knows: a big city across it (Kinshasa from Brazzaville)
        // must not take the name of a place on this side, so only places of the nearest place's
        // country compete.
        let country = index.record(nearest.row)?.countryCode
        let row = reaching.filter { index.record($0.row)?.countryCode == country }.min { $0.depth < $1.depth }?.row ?? nearest.row
        return placemark(row, from: (latitude, longitude))
    }

    /// Places whose name is `name`, largest first, then places whose name starts with it, up to
    /// `limit`. Names are matched in English and in the finder's language, without regard to case
    /// or to the diacritics of Latin letters ("sao paulo" finds São Paulo).
    /// A qualifier after a comma narrows the choice to a country (code or name) or a first-level
    /// division: "Paris, FR", "Paris, Texas", "Springfield, Illinois".
    public func geocode(_ name: String, limit: Int = 10) -> [Placemark] {
        matches(name).prefix(max(limit, 0)).compactMap { placemark($0.row, from: nil) }
    }

    /// The one place named exactly `name` (English names only, so that settings mean the same
    /// in every language), as for the consent store's `[fallback] place`.
    /// - Throws: `GPSLocationError.unknownPlace` or
    ///   `GPSLocationError.ambiguousPlace` when no place or several have it.
    public func uniquePlace(named name: String) throws(GPSLocationError) -> Placemark {
        let exact = matches(name, localized: false).filter(\.isExact)
        guard let first = exact.first else { throw .unknownPlace(name: name) }
        guard exact.count == 1 else {
            let candidates = exact.prefix(5).compactMap { match in
                index.record(match.row).map { "\($0.name), \($0.division.isEmpty ? $0.countryCode : $0.division + ", " + $0.countryCode)" }
            }
            throw .ambiguousPlace(name: name, candidates: candidates)
        }
        guard let place = placemark(first.row, from: nil) else { throw .unknownPlace(name: name) }
        return place
    }

    private struct Match {
        let row: Int
        let isExact: Bool
        let population: Int
    }

    private func matches(_ query: String, localized: Bool = true) -> [Match] {
        let parts = query.split(separator: ",", maxSplits: 1).map { $0.trimmingSpaces }
        guard let wanted = parts.first.map(PlaceNameFolding.fold), !wanted.isEmpty else { return [] }
        let qualifier = parts.count > 1 ? PlaceNameFolding.fold(parts[1]) : nil
        let useCatalogs = localized && !catalogs.isEmpty
        var found: [Match] = []
        for row in 0..<index.count {
            var names = [PlaceNameFolding.fold(index.name(row))]
            var record: PlaceRecord?
            if useCatalogs {
                record = index.record(row)
                if let record, let translated = translated(record.id) { names.append(PlaceNameFolding.fold(translated)) }
            }
            guard let isExact = names.contains(wanted) ? true : names.contains(where: { $0.starts(with: wanted) }) ? false : nil else {
                continue
            }
            if let qualifier {
                guard let place = record ?? index.record(row) else { continue }
                var labels = [place.countryCode, place.country, place.division].map(PlaceNameFolding.fold)
                labels += [translated(place.countryCode), translated(place.countryCode + "." + place.divisionCode)].compactMap {
                    $0.map(PlaceNameFolding.fold)
                }
                guard labels.contains(qualifier) else { continue }
            }
            found.append(Match(row: row, isExact: isExact, population: index.population(row)))
        }
        return found.sorted { ($0.isExact ? 1 : 0, $0.population) > ($1.isExact ? 1 : 0, $1.population) }
    }

    private func translated(_ key: String) -> String? {
        for catalog in catalogs {
            if let text = catalog.translation(of: key) { return text }
        }
        return nil
    }

    private func placemark(_ row: Int, from query: (latitude: Double, longitude: Double)?) -> Placemark? {
        guard let place = index.record(row) else { return nil }
        let state = translated(place.countryCode + "." + place.divisionCode) ?? place.division
        return Placemark(
            city: translated(place.id) ?? place.name,
            state: state.isEmpty ? nil : state,
            country: translated(place.countryCode) ?? place.country,
            countryCode: place.countryCode, timeZone: place.timeZone,
            latitude: place.latitude, longitude: place.longitude, population: Int(place.population),
            distance: query.map { greatCircleDistance($0.latitude, $0.longitude, place.latitude, place.longitude) })
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
