import GPSLocation
import LocateSupport

/// How the place index is made from the data the system keeps up to date:
///
/// - **libgeonames**: about 24,000 places of some 15,000 people or more, with their division,
///   country, time zone and population.
/// - **tzdata** (`zone.tab`): every zone's principal city. One that libgeonames does not have
///   (no place of its country within 25 km, none of its name) is added, so every country and
///   territory with a zone has a place: Singapore, Macau, Vatican City, Gibraltar, Monaco, San
///   Marino, Nouakchott, Stanley… (with no division, and a population of 0: the data has none).
/// - **tzdata** (`tzdata.zi`): a place's zone is the current id (`Europe/Kiev` is `Europe/Kyiv`),
///   and a place that is a zone's principal city (same country and name, within 25 km) is in
///   that zone, where libgeonames' data is older than the zone (Ciudad Juárez is
///   `America/Ciudad_Juarez` since 2022, not `America/Ojinaga`).
/// - **iso-codes**: each country's ISO name and, where `SubdivisionMatcher` finds it, each
///   division's ISO 3166-2 name: the keys of iso-codes' translations.
/// - **gmt-dcw**: the borders of countries and of the states of the eight largest
///   (`BorderData`), numbered smallest first, in a spatial index (`BorderGrid`); a state is
///   named as libgeonames names the division its ISO 3166-2 name was matched to, else by its
///   ISO name.
enum PlaceIndexBuilder {
    /// The data files the index is built from besides libgeonames (stamped in the index).
    static let dataFiles = TimeZoneData.files + ISOCodes.files + BorderData.files

    /// How close a principal city of tzdata must be to a place of libgeonames to be that place.
    static let sameCityDistance = 25_000.0

    /// The bytes of a new index of the system's data.
    /// - Throws: `GPSLocationError.placeDataUnavailable` when libgeonames, gmt-dcw or libnetcdf
    ///   cannot be read.
    static func build() throws(GPSLocationError) -> [UInt8] {
        let (places, libraryPath) = try GeonamesLibrary.readPlaces()
        let (timeZones, iso) = (TimeZoneData.load(), ISOCodes.load())
        let combined = combine(places, timeZones: timeZones, iso: iso)
        var (regions, rings, netCDFPath) = try BorderData.load()
        let order = regions.indices.sorted { (regions[$0].area, $0) < (regions[$1].area, $1) }
        var number = [Int](repeating: 0, count: regions.count)
        for (rank, region) in order.enumerated() { number[region] = rank }
        for ring in rings.indices { rings[ring].region = number[rings[ring].region] }
        regions = order.map { regions[$0] }
        let sources = ([libraryPath] + dataFiles + [netCDFPath]).map { (path: $0, stamp: FileSignature(path: $0).file.numbers) }
        return PlaceIndex.encode(
            combined, regions: regionRecords(regions, places: combined, iso: iso), borders: BorderGrid.encode(rings), sources: sources)
    }

    /// Each region as a place without a name: its country as the places have it (else as
    /// iso-codes names it), and for a state, the division of the places matched to its ISO
    /// 3166-2 code, else its ISO (or gmt-dcw) name.
    static func regionRecords(_ regions: [BorderData.Region], places: [PlaceRecord], iso: ISOCodes) -> [PlaceRecord] {
        var countries: [String: PlaceRecord] = [:]
        // For each ISO subdivision, the division most of its places have (libgeonames keeps some
        // merged divisions under their old codes too).
        var counts: [String: [String: (place: PlaceRecord, count: Int)]] = [:]
        for place in places {
            if countries[place.countryCode] == nil { countries[place.countryCode] = place }
            if !place.divisionISOName.isEmpty {
                counts[place.countryCode + "\t" + place.divisionISOName, default: [:]][place.divisionCode, default: (place, 0)].count += 1
            }
        }
        let divisions = counts.mapValues { byCode in
            byCode.values.max { ($0.count, $1.place.divisionCode) < ($1.count, $0.place.divisionCode) }?.place
        }
        return regions.map { region in
            let country = countries[region.countryCode]
            let name = iso.countries[region.countryCode]?.displayName ?? ""
            var record = PlaceRecord(
                id: "", name: "", divisionCode: "", division: "", divisionISOName: "", countryCode: region.countryCode,
                country: country?.country ?? (name.isEmpty ? region.countryCode : name), countryISOName: country?.countryISOName ?? name,
                timeZone: "", population: 0, latitude: 0, longitude: 0)
            guard !region.stateCode.isEmpty else { return record }
            let code = region.countryCode + "-" + region.stateCode
            let isoName = iso.subdivisions[region.countryCode]?.first { $0.code == code }?.name ?? ""
            if let division = divisions[region.countryCode + "\t" + isoName] ?? nil, !isoName.isEmpty {
                (record.divisionCode, record.division) = (division.divisionCode, division.division)
            } else {
                record.division = isoName.isEmpty ? region.stateName : isoName
            }
            record.divisionISOName = isoName
            return record
        }
    }

    /// libgeonames' `places` with tzdata's and iso-codes' data joined in (see above).
    static func combine(
        _ places: [PlaceRecord], timeZones: TimeZoneData, iso: ISOCodes, localeDirectory: String = GettextCatalog.localeDirectory
    ) -> [PlaceRecord] {
        let divisions = Set(
            places.filter { !$0.divisionCode.isEmpty }.map {
                SubdivisionMatcher.Division(countryCode: $0.countryCode, code: $0.divisionCode, name: $0.division)
            })
        let subdivisionNames = SubdivisionMatcher.match(divisions, iso: iso, localeDirectory: localeDirectory)
        var countryNames: [String: String] = [:]
        var byCountry: [String: [Int]] = [:]
        for (row, place) in places.enumerated() {
            if countryNames[place.countryCode] == nil { countryNames[place.countryCode] = place.country }
            byCountry[place.countryCode, default: []].append(row)
        }
        func sameCity(_ city: TimeZoneData.PrincipalCity, _ place: PlaceRecord) -> Bool {
            greatCircleDistance(city.latitude, city.longitude, place.latitude, place.longitude) <= sameCityDistance
        }
        let foldedNames = places.map { PlaceNameFolding.fold($0.name) }
        var combined = places
        for city in timeZones.principalCities {
            let name = PlaceNameFolding.fold(city.name)
            let rows = byCountry[city.countryCode] ?? []
            if let row = rows.first(where: { foldedNames[$0] == name && sameCity(city, places[$0]) }) {
                combined[row].timeZone = city.zone
            } else if !rows.contains(where: { foldedNames[$0] == name || sameCity(city, places[$0]) }) {
                combined.append(
                    PlaceRecord(
                        id: "", name: city.name, divisionCode: "", division: "", divisionISOName: "", countryCode: city.countryCode,
                        country: countryNames[city.countryCode] ?? iso.countries[city.countryCode]?.displayName ?? city.countryCode,
                        countryISOName: "", timeZone: city.zone, population: 0, latitude: city.latitude, longitude: city.longitude))
            }
        }
        for row in combined.indices {
            let place = combined[row]
            combined[row].timeZone = timeZones.current(place.timeZone)
            combined[row].country = countryNames[place.countryCode] ?? place.country
            combined[row].countryISOName = iso.countries[place.countryCode]?.displayName ?? ""
            combined[row].divisionISOName = subdivisionNames[place.countryCode + "." + place.divisionCode] ?? ""
        }
        return combined
    }
}
