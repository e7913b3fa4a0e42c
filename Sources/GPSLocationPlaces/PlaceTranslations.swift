/// The names of places in a list of languages, from the system's catalogues: for each language
/// in turn (`pt_BR`, then `pt`), libgeonames' (cities, divisions and countries, by GeoNames
/// keys), then iso-codes' (countries by their ISO 3166-1 name, divisions by the ISO 3166-2 name
/// matched to them). A name no catalogue has stays in English.
struct PlaceTranslations: Sendable {
    private struct Catalogs: Sendable {
        let geonames: GettextCatalog?
        let countries: GettextCatalog?
        let subdivisions: GettextCatalog?
    }

    private let catalogs: [Catalogs]

    /// The catalogues of `languages`, most preferred first.
    init(languages: [String], directory: String = GettextCatalog.localeDirectory) {
        catalogs = GettextCatalog.searchOrder(languages).map { name in
            Catalogs(
                geonames: GettextCatalog.load(domain: "geonames", language: name, directory: directory),
                countries: GettextCatalog.load(domain: "iso_3166-1", language: name, directory: directory),
                subdivisions: GettextCatalog.load(domain: "iso_3166-2", language: name, directory: directory))
        }
    }

    /// Whether any catalogue was found (English needs none).
    var isEmpty: Bool {
        catalogs.allSatisfy { $0.geonames == nil && $0.countries == nil && $0.subdivisions == nil }
    }

    /// The place's own name, translated, or `nil`.
    func city(_ place: PlaceRecord) -> String? {
        place.id.isEmpty ? nil : first { $0.geonames?.translation(of: place.id) }
    }

    /// The place's division, translated, or `nil`.
    func state(_ place: PlaceRecord) -> String? {
        guard !place.divisionCode.isEmpty || !place.divisionISOName.isEmpty else { return nil }
        return first { catalogs in
            (place.divisionCode.isEmpty ? nil : catalogs.geonames?.translation(of: place.countryCode + "." + place.divisionCode))
                ?? (place.divisionISOName.isEmpty ? nil : catalogs.subdivisions?.translation(of: place.divisionISOName))
        }
    }

    /// The place's country, translated, or `nil`.
    func country(_ place: PlaceRecord) -> String? {
        first { catalogs in
            catalogs.geonames?.translation(of: place.countryCode)
                ?? (place.countryISOName.isEmpty ? nil : catalogs.countries?.translation(of: place.countryISOName))
        }
    }

    private func first(_ translation: (Catalogs) -> String?) -> String? {
        for language in catalogs {
            if let text = translation(language) { return text }
        }
        return nil
    }
}
