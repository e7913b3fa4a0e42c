import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import LocateFormats
import LocateSupport

/// `locate geocode LAT LON` (the place at a coordinate), `locate geocode NAME` (the places of a
/// name, largest first) and `locate geocode --batch` (the place of every point on stdin, see
/// `GeocodeBatch`). Not the user's position, so no permission is involved.
///
/// Text: for a coordinate, the place as "city, state, country"; for a name, a line per place,
/// "lat lon city, state, country". `--json`: one object per place.
struct GeocodeCommand {
    /// How records are written.
    enum Format {
        case text, json
        /// `--csv` (with `--batch`), with or without its header line.
        case csv(header: Bool)
    }

    let query: GeocodeQuery
    let format: Format
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
        let isJSON = if case .json = format { true } else { false }
        switch query {
        case .coordinate(let latitude, let longitude):
            guard let place = finder.reverseGeocode(latitude: latitude, longitude: longitude) else {
                StandardStreams.diagnose(
                    "no place of the data within \(NumberFormatting.plain(PlaceFinder.regionRange / 1000)) km of "
                        + "\(NumberFormatting.plain(latitude)), \(NumberFormatting.plain(longitude))")
                return .failure
            }
            try StandardStreams.writeRecord(
                isJSON ? Self.json(place, asked: (latitude, longitude)) : UntrustedText.visible(place.formatted))
        case .name(let name):
            let places = finder.geocode(name, limit: limit)
            guard !places.isEmpty else {
                StandardStreams.diagnose("no place named '\(UntrustedText.visible(name, limit: 80))'")
                return .failure
            }
            var lines = ""
            for place in places {
                lines += isJSON ? Self.json(place, asked: nil) : Self.coordinates(place) + " " + UntrustedText.visible(place.formatted)
                lines += "\n"
            }
            try StandardStreams.write(Array(lines.utf8)[...])
        case .batch:
            return try GeocodeBatch(finder: finder, format: format).run()
        }
        return .success
    }

    private static func coordinates(_ place: Placemark) -> String {
        (NumberFormatting.fixed(place.latitude, decimals: 6) ?? "") + " " + (NumberFormatting.fixed(place.longitude, decimals: 6) ?? "")
    }

    /// The names of a place in records: `city` (unknown far from any city), `state`, `country`,
    /// `country_code` and `timezone`; all unknown when there is no place.
    static func nameFields(_ place: Placemark?) -> [(name: String, value: FieldValue)] {
        [
            (RecordKey.city.rawValue, place?.city.map(FieldValue.text) ?? .unknown),
            (RecordKey.state.rawValue, place?.state.map(FieldValue.text) ?? .unknown),
            (RecordKey.country.rawValue, place?.country.map(FieldValue.text) ?? .unknown),
            (RecordKey.countryCode.rawValue, place?.countryCode.map(FieldValue.text) ?? .unknown),
            (RecordKey.timeZone.rawValue, place.map { .text($0.timeZone) } ?? .unknown),
        ]
    }

    /// `distance_m`: metres from the point to the place named (to the nearest place, far from
    /// any city).
    static func distanceField(_ place: Placemark?) -> (name: String, value: FieldValue) {
        (RecordKey.distance.rawValue, place?.distance.map { .number($0, decimals: 0) } ?? .unknown)
    }

    /// `{"lat":…,"lon":…,"city":…,"state":…,"country":…,"country_code":…,"timezone":…,"place_lat":…,"place_lon":…,"population":…,"distance_m":…}`.
    /// One meaning per key, as in every record: `lat` and `lon` are the point asked about (as in
    /// `--batch` and the fix records; absent for a name), `place_lat` and `place_lon` the place's.
    static func json(_ place: Placemark, asked point: (latitude: Double, longitude: Double)?) -> String {
        var object = JSONObjectWriter()
        if let point {
            object.add(RecordKey.latitude.rawValue, .number(point.latitude, decimals: 7))
            object.add(RecordKey.longitude.rawValue, .number(point.longitude, decimals: 7))
        }
        let fields =
            nameFields(place) + [
                (RecordKey.placeLatitude.rawValue, .number(place.latitude, decimals: 6)),
                (RecordKey.placeLongitude.rawValue, .number(place.longitude, decimals: 6)),
                (RecordKey.population.rawValue, .number(Double(place.population), decimals: 0)), distanceField(place),
            ]
        for field in fields { object.add(field.name, field.value) }
        return object.text
    }
}

extension GeocodeCommand {
    /// Runs `locate geocode` for `query` with `options`: records in `--json`, `--csv` (`--batch`)
    /// or text, up to `--limit` places, in `--lang` (else the user's).
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(_ query: GeocodeQuery, _ options: GeocodeOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        let output = options.output
        let format: Format =
            switch output.format {
            case .json: .json
            case .csv: .csv(header: output.csvHeader)
            default: .text
            }
        return try GeocodeCommand(query: query, format: format, limit: options.limit, language: output.placeLanguage ?? .current).run()
    }
}
