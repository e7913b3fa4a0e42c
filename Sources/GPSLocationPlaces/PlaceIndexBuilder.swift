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
enum PlaceIndexBuilder {
    /// The data files the index is built from besides libgeonames (stamped in the index).
    static let dataFiles = TimeZoneData.files + ISOCodes.files

    /// How close a principal city of tzdata must be to a place of libgeonames to be that place.
    static let sameCityDistance = 25_000.0

    /// The bytes of a new index of the system's data.
    /// - Throws: `GPSLocationError.placeDataUnavailable` when libgeonames cannot be read.
    static func build() throws(GPSLocationError) -> [UInt8] {
        let (places, libraryPath) = try GeonamesLibrary.readPlaces()
        let combined = combine(places, timeZones: .load(), iso: .load())
        let sources = ([libraryPath] + dataFiles).map { (path: $0, stamp: FileSignature(path: $0).file.numbers) }
        return PlaceIndex.encode(combined, sources: sources)
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
