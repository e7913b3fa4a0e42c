public import GPSLocation
import LocateSupport

/// Turns coordinates into places and names into coordinates, offline, as `CLGeocoder` does for
/// CoreLocation apps, from the data the system keeps up to date: libgeonames (about 24,000
/// places of at least ~15,000 people, GeoNames data under CC BY 4.0), tzdata's principal city of
/// every zone, iso-codes' country and subdivision names, and gmt-dcw's country and state borders
/// (see `PlaceIndexBuilder`).
///
/// Making a finder loads the place index from the cache (building it the first time, a fraction
/// of a second); a lookup then takes microseconds. Nothing here touches the network, the
/// process's locale or its environment.
///
/// **Which country.** The country (and, in Argentina, Australia, Brazil, Canada, China, India,
/// Russia and the United States, the state) is the one whose border, in the Digital Chart of the
/// World (1:1,000,000, through Debian's gmt-dcw), holds the coordinate. Those borders are drawn
/// to within about 0.5–2 km of the true line, so within a kilometre or two of a border either
/// side may be named; the index simplifies them by at most 150 m more. A coordinate in no
/// country but within ``territorialSea`` (12 nautical miles) of one's coast is in that country's
/// waters, and takes that country. Farther out it is at sea: ``Placemark/country`` and
/// ``Placemark/countryCode`` are `nil`, and the placemark is the nearest place on land (its
/// city, within ``cityRange``, and its time zone), with ``Placemark/distance`` saying how far it
/// is.
///
/// **Which place is named.** Not simply the nearest centre point: inside a big city that is often
/// a smaller neighbour's. Each place reaches out from its centre by a radius that grows with the
/// square root of its population (12 m per √person: about 38 km for Seoul's 10 million, 7 km
/// for a city of 350,000, 1.5 km for a town of 15,000). Among the places whose radius reaches the
/// coordinate, the one it is deepest inside (the smallest distance ÷ radius) is named; when no
/// radius reaches it, the nearest place. Only places in the coordinate's own country (and, where
/// the data has state borders, its own state) compete, so a big city does not reach across a
/// border. So 37.517829, 126.886270 (Yeongdeungpo-gu) is
/// Seoul, not Gwangmyeong 4.8 km away, while a suburb that is a city of its own (Santa Monica,
/// Cambridge MA) keeps its name.
///
/// **Time zone.** The named place's (or, far from any, the nearest place's) of the coordinate's
/// own country (and state, where the data has state borders), so it is never a zone across a
/// border; a country's tzdata principal cities are
/// places of the index, so every country with a zone has one. At sea, the nearest place's.
///
/// **Far from any place.** When the nearest place of the country is more than ``cityRange``
/// (100 km) away, no city is named (``Placemark/city`` is `nil`) but the state, country and time
/// zone are given, with ``Placemark/distance`` saying how far that place is: the middle of
/// Siberia, the Outback or the Sahara still gets its country. A country with no place in the data
/// (Antarctica, Bouvet Island) is given with the coordinate itself as the placemark's point. At
/// sea beyond ``regionRange`` (1,500 km) from any place, nothing is named.
///
/// **Limits.** Districts are not in the data (no "Shinjuku"), nor are places under ~15,000 people
/// (a tzdata principal city stands for its whole zone). The borders are the data's: within a
/// kilometre or two of a border (Geneva's suburbs, Monaco, which the data draws 1.5 km too far
/// north) the other side may be named, and places the data lacks (Baarle-Hertog's enclaves,
/// Campione d'Italia) are their host's. Outside the eight countries with state borders, the state
/// is the named place's, so near a state border it may be the neighbouring one. Disputed areas
/// are as the data draws them (Crimea in Ukraine, Western Sahara on its own).
public struct PlaceFinder: Sendable {
    /// Within this distance of the nearest place (metres), a city is named.
    public static let cityRange = 100_000.0
    /// At sea, within this distance of the nearest place (metres), the nearest place and its
    /// time zone are given; beyond it, nothing.
    public static let regionRange = 1_500_000.0
    /// Within this distance of a country's coast (metres: 12 nautical miles, the territorial sea),
    /// a coordinate in no country's borders is in that country.
    public static let territorialSea = 22_224.0

    /// The language of the names this finder gives.
    public let language: PlaceLanguage
    private let index: PlaceIndex
    private let translations: PlaceTranslations

    /// A finder for names in `language`, with the place index kept in `cacheDirectory`
    /// (default: `$XDG_CACHE_HOME/locate`, or `~/.cache/locate`; used only when it is the
    /// user's alone, otherwise the index is built for this finder only).
    /// - Throws: `GPSLocationError.placeDataUnavailable` when there is no usable
    ///   index and libgeonames (apt `libgeonames0`) cannot be read.
    public init(language: PlaceLanguage = .current, cacheDirectory: String? = nil) throws(GPSLocationError) {
        self.init(
            index: try PlaceIndex.load(cacheDirectory: cacheDirectory ?? BaseDirectories.current.cacheHome.map { $0 + "/locate" }),
            language: language)
    }

    /// A finder over `index`, for names in `language`.
    init(index: PlaceIndex, language: PlaceLanguage) {
        self.language = language
        self.index = index
        translations = PlaceTranslations(languages: language.languages)
    }

    /// The place a person at `location` would name (see the rules above), or `nil` at sea
    /// farther than ``regionRange`` from any place.
    public func reverseGeocode(_ location: Location) -> Placemark? {
        reverseGeocode(latitude: location.latitude, longitude: location.longitude)
    }

    /// The place a person at `latitude`, `longitude` (degrees) would name, or `nil`.
    public func reverseGeocode(latitude: Double, longitude: Double) -> Placemark? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let point = UnitVector(latitude: latitude, longitude: longitude)
        let query = (latitude: latitude, longitude: longitude)
        let region =
            index.borders.region(latitude: latitude, longitude: longitude)
            ?? index.borders.nearestRegion(latitude: latitude, longitude: longitude, within: Self.territorialSea)?.region
        guard let region, region < index.regionCount, let area = index.regionRecord(region) else {
            guard let nearest = KDOrder.nearest(to: point, in: index.tree),
                distance(to: nearest, latitude, longitude) <= Self.regionRange
            else { return nil }
            return placemark(nearest, from: query, namingCity: distance(to: nearest, latitude, longitude) <= Self.cityRange, atSea: true)
        }
        // The places of the state compete, for a state with places; else those of the country.
        let filter = index.regionDivision(region).map(PlaceIndex.Tree.Filter.division) ?? .country(index.regionCountry(region))
        guard let nearest = KDOrder.nearest(to: point, in: index.tree, filter: filter) else {
            return placemark(
                of: area, zone: KDOrder.nearest(to: point, in: index.tree).flatMap { index.record($0)?.timeZone }, at: query)
        }
        guard distance(to: nearest, latitude, longitude) <= Self.cityRange else {
            return placemark(nearest, from: query, namingCity: false, area: area)
        }
        var deepest: (row: Int, depth: Double)? = nil
        for row in KDOrder.rows(reaching: point, in: index.tree) where index.tree.accepts(row, filter) {
            let depth = distance(to: row, latitude, longitude) / PlaceIndex.reach(population: index.population(row))
            if depth <= 1, depth < deepest?.depth ?? .infinity { deepest = (row, depth) }
        }
        return placemark(deepest?.row ?? nearest, from: query, namingCity: true, area: area)
    }

    private func distance(to row: Int, _ latitude: Double, _ longitude: Double) -> Double {
        greatCircleDistance(latitude, longitude, index.latitude(row), index.longitude(row))
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
        let useCatalogs = localized && !translations.isEmpty
        var found: [Match] = []
        for row in 0..<index.count {
            var names = [PlaceNameFolding.fold(index.name(row))]
            var record: PlaceRecord?
            if useCatalogs {
                record = index.record(row)
                if let record, let translated = translations.city(record) { names.append(PlaceNameFolding.fold(translated)) }
            }
            guard let isExact = names.contains(wanted) ? true : names.contains(where: { $0.starts(with: wanted) }) ? false : nil else {
                continue
            }
            if let qualifier {
                guard let place = record ?? index.record(row) else { continue }
                var labels = [place.countryCode, place.country, place.division].map(PlaceNameFolding.fold)
                labels += [translations.country(place), translations.state(place)].compactMap { $0.map(PlaceNameFolding.fold) }
                guard labels.contains(qualifier) else { continue }
            }
            found.append(Match(row: row, isExact: isExact, population: index.population(row)))
        }
        return found.sorted { ($0.isExact ? 1 : 0, $0.population) > ($1.isExact ? 1 : 0, $1.population) }
    }

    /// The placemark of place `row`; `area`, the region the coordinate is in, gives the state
    /// when it is one; `atSea`: no country.
    private func placemark(
        _ row: Int, from query: (latitude: Double, longitude: Double)?, namingCity: Bool = true, area: PlaceRecord? = nil,
        atSea: Bool = false
    ) -> Placemark? {
        guard let place = index.record(row) else { return nil }
        let division = area.map { $0.division.isEmpty ? place : $0 } ?? place
        let state = atSea ? "" : translations.state(division) ?? division.division
        return Placemark(
            city: namingCity ? translations.city(place) ?? place.name : nil,
            state: state.isEmpty ? nil : state,
            country: atSea ? nil : translations.country(place) ?? place.country,
            countryCode: atSea ? nil : place.countryCode, timeZone: place.timeZone,
            latitude: place.latitude, longitude: place.longitude, population: Int(place.population),
            distance: query.map { greatCircleDistance($0.latitude, $0.longitude, place.latitude, place.longitude) })
    }

    /// The placemark of a region whose country has no place: its names, the coordinate itself.
    private func placemark(of area: PlaceRecord, zone: String?, at query: (latitude: Double, longitude: Double)) -> Placemark {
        let state = translations.state(area) ?? area.division
        return Placemark(
            city: nil, state: state.isEmpty ? nil : state, country: translations.country(area) ?? area.country,
            countryCode: area.countryCode, timeZone: zone ?? "", latitude: query.latitude, longitude: query.longitude, population: 0,
            distance: 0)
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
