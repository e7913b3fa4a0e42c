import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces

/// `locate geocode LAT LON` (the place at a coordinate) and `locate geocode NAME` (the places of
/// a name, largest first). Not the user's position, so no permission is involved.
///
/// Text: for a coordinate, the place as "city, state, country"; for a name, a line per place,
/// "lat lon city, state, country". `--json`: one object per place.
struct GeocodeCommand {
    let query: CommandLineOptions.GeocodeQuery
    let json: Bool
    let limit: Int
    let language: PlaceLanguage

    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        let finder: PlaceFinder
        do throws(GPSLocationError) {
            finder = try PlaceFinder(language: language)
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        switch query {
        case .coordinate(let latitude, let longitude):
            guard let place = finder.reverseGeocode(latitude: latitude, longitude: longitude) else {
                StandardStreams.diagnose(
                    "no place of the data within 100 km of \(NumberFormatting.plain(latitude)), \(NumberFormatting.plain(longitude))")
                return .failure
            }
            try StandardStreams.writeRecord(json ? Self.json(place) : place.formatted)
        case .name(let name):
            let places = finder.geocode(name, limit: limit)
            guard !places.isEmpty else {
                StandardStreams.diagnose("no place named '\(UntrustedText.visible(name, limit: 80))'")
                return .failure
            }
            var lines = ""
            for place in places {
                lines += json ? Self.json(place) : Self.coordinates(place) + " " + place.formatted
                lines += "\n"
            }
            try StandardStreams.write(Array(lines.utf8))
        }
        return .success
    }

    private static func coordinates(_ place: Placemark) -> String {
        (NumberFormatting.fixed(place.latitude, decimals: 6) ?? "") + " " + (NumberFormatting.fixed(place.longitude, decimals: 6) ?? "")
    }

    /// `{"city":…,"state":…,"country":…,"country_code":…,"timezone":…,"lat":…,"lon":…,"population":…,"distance_m":…}`.
    static func json(_ place: Placemark) -> String {
        var object = JSONObjectWriter()
        object.add("city", string: place.city)
        object.add("state", string: place.state)
        object.add("country", string: place.country)
        object.add("country_code", string: place.countryCode)
        object.add("timezone", string: place.timeZone)
        object.add("lat", json: NumberFormatting.fixed(place.latitude, decimals: 6) ?? "null")
        object.add("lon", json: NumberFormatting.fixed(place.longitude, decimals: 6) ?? "null")
        object.add("population", json: String(place.population))
        object.add("distance_m", json: place.distance.flatMap { NumberFormatting.fixed($0, decimals: 0) } ?? "null")
        return object.text
    }
}
