import Foundation
import GPSLocation
import Testing

@testable import GPSLocationPlaces

/// Reverse and forward geocoding against Debian's libgeonames, through the place index.
struct PlaceFinderTests {
    /// One index for the whole suite (built once from libgeonames into a private cache).
    private static let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)")
        .path
    private static let english = Result { try PlaceFinder(language: .english, cacheDirectory: cacheDirectory) }

    private var finder: PlaceFinder {
        get throws { try Self.english.get() }
    }

    /// Real places, each with the place a person there would name: landmarks inside big cities
    /// (whose nearest centre point is often a neighbour's), suburbs that are cities of their own,
    /// border towns, islands and the antimeridian. (label, latitude, longitude, city, country code)
    static let places: [(String, Double, Double, String, String)] = [
        ("Yeongdeungpo-gu, the built-in fallback", 37.517829, 126.886270, "Seoul", "KR"),
        ("Gangnam Station", 37.4979, 127.0276, "Seoul", "KR"),
        ("Haeundae Beach", 35.1587, 129.1604, "Busan", "KR"),
        ("Eiffel Tower (nearest point: Neuilly-sur-Seine)", 48.8584, 2.2945, "Paris", "FR"),
        ("the Louvre", 48.8606, 2.3376, "Paris", "FR"),
        ("Belém Tower (nearest point: Algés)", 38.6916, -9.2160, "Lisbon", "PT"),
        ("Shinjuku Station", 35.6896, 139.7006, "Tokyo", "JP"),
        ("Tokyo Tower", 35.6586, 139.7454, "Tokyo", "JP"),
        ("Brooklyn Bridge", 40.7061, -73.9969, "New York", "US"),
        ("Santa Monica Pier (a city of its own)", 34.0083, -118.4988, "Santa Monica", "US"),
        ("Hollywood sign", 34.1341, -118.3215, "Los Angeles", "US"),
        ("Harvard Yard (Cambridge, not Boston)", 42.3744, -71.1169, "Cambridge", "US"),
        ("Boston Common", 42.3551, -71.0656, "Boston", "US"),
        ("Big Ben", 51.5007, -0.1246, "London", "GB"),
        ("Brandenburg Gate", 52.5163, 13.3777, "Berlin", "DE"),
        ("Sanssouci (Potsdam, not Berlin)", 52.4043, 13.0386, "Potsdam", "DE"),
        ("Sagrada Família", 41.4036, 2.1744, "Barcelona", "ES"),
        ("Colosseum", 41.8902, 12.4922, "Rome", "IT"),
        ("Red Square", 55.7539, 37.6208, "Moscow", "RU"),
        ("Sydney Opera House", -33.8568, 151.2153, "Sydney", "AU"),
        ("Copacabana", -22.9711, -43.1822, "Rio de Janeiro", "BR"),
        ("Niterói, across the bay from Rio", -22.8833, -43.1036, "Niterói", "BR"),
        ("Table Mountain", -33.9628, 18.4098, "Cape Town", "ZA"),
        ("Obelisco", -34.6037, -58.3816, "Buenos Aires", "AR"),
        ("Zócalo", 19.4326, -99.1332, "Mexico City", "MX"),
        ("CN Tower", 43.6426, -79.3871, "Toronto", "CA"),
        ("Golden Gate Bridge", 37.8199, -122.4783, "San Francisco", "US"),
        ("Burj Khalifa", 25.1972, 55.2744, "Dubai", "AE"),
        ("Taj Mahal", 27.1751, 78.0421, "Agra", "IN"),
        ("Gateway of India", 18.9220, 72.8347, "Mumbai", "IN"),
        ("The Bund", 31.2400, 121.4900, "Shanghai", "CN"),
        ("Hallgrímskirkja", 64.1417, -21.9266, "Reykjavik", "IS"),
        ("Strasbourg Cathedral (border town, France)", 48.5819, 7.7510, "Strasbourg", "FR"),
        ("Kehl (border town, Germany, across the Rhine)", 48.5734, 7.8158, "Kehl", "DE"),
        ("Brazzaville, across the Congo river from Kinshasa (7.8 million)", -4.2634, 15.2429, "Brazzaville", "CG"),
        ("Saint-Louis, at Basel's border", 47.5833, 7.5600, "Saint-Louis", "FR"),
        ("Basel, at the French border", 47.5596, 7.5886, "Basel", "CH"),
        ("Suva (near the antimeridian)", -18.1416, 178.4419, "Suva", "FJ"),
        ("Waikīkī", 21.2793, -157.8292, "Honolulu", "US"),
    ]

    @Test func aTableOfRealPlacesGetsThePlaceAPersonThereWouldName() throws {
        let finder = try finder
        for (label, latitude, longitude, city, country) in Self.places {
            let place = finder.reverseGeocode(latitude: latitude, longitude: longitude)
            #expect(place?.city == city && place?.countryCode == country, "\(label): \(place?.formatted ?? "nothing")")
        }
    }

    @Test func theFallbackCoordinateIsSeoulWithItsDetails() throws {
        let place = try #require(try finder.reverseGeocode(latitude: 37.517829, longitude: 126.886270))
        #expect(place.formatted == "Seoul, Republic of Korea")
        #expect(place.timeZone == "Asia/Seoul" && place.population > 9_000_000)
        #expect(abs((place.distance ?? 0) - 9_700) < 300, "Seoul's own point is about 9.7 km away")
    }

    @Test func theAntimeridianWrapsAndEmptyPlacesHaveNoName() throws {
        let finder = try finder
        // Taveuni at 179.98 W: the nearest town (Labasa) is at 179.4 E, across the antimeridian.
        #expect(finder.reverseGeocode(latitude: -16.80, longitude: -179.98)?.countryCode == "FJ")
        #expect(finder.reverseGeocode(latitude: 0, longitude: -140) == nil, "the middle of the Pacific")
        #expect(finder.reverseGeocode(latitude: 90, longitude: 0) == nil)
        #expect(finder.reverseGeocode(latitude: .nan, longitude: 0) == nil)
        #expect(finder.reverseGeocode(latitude: 91, longitude: 0) == nil)
    }

    @Test func namesFollowTheLanguageAndFallBackToEnglish() throws {
        let korean = try PlaceFinder(language: PlaceLanguage(languages: ["ko"]), cacheDirectory: Self.cacheDirectory)
        let seoul = try #require(korean.reverseGeocode(latitude: 37.517829, longitude: 126.886270))
        #expect(seoul.city == "서울특별시" && seoul.country == "대한민국")
        let german = try PlaceFinder(language: PlaceLanguage(languages: ["de_AT", "fr"]), cacheDirectory: Self.cacheDirectory)
        #expect(german.reverseGeocode(latitude: 48.2082, longitude: 16.3738)?.city == "Wien", "de_AT falls back to de")
        let unknown = try PlaceFinder(language: PlaceLanguage(languages: ["xx"]), cacheDirectory: Self.cacheDirectory)
        #expect(unknown.reverseGeocode(latitude: 48.2082, longitude: 16.3738)?.city == "Vienna")
    }

    @Test func theLanguageComesFromLanguageThenTheLocale() {
        #expect(PlaceLanguage.environment(["LANGUAGE": "ko:ja", "LANG": "de_DE.UTF-8"]).languages == ["ko", "ja"])
        #expect(PlaceLanguage.environment(["LANGUAGE": "ko", "LANG": "C"]).languages == ["ko"], "LANGUAGE counts even in the C locale")
        #expect(PlaceLanguage.environment(["LC_ALL": "pt_BR.UTF-8@euro", "LANG": "ko_KR.UTF-8"]).languages == ["pt_BR"])
        #expect(PlaceLanguage.environment(["LC_MESSAGES": "C.UTF-8"]) == .english)
        #expect(PlaceLanguage.environment([:]) == .english)
        #expect(PlaceLanguage(languages: ["../../etc", "ko\u{1B}", "ja"]).languages == ["ja"], "not a language name")
        #expect(PlaceLanguage.environment(["LANGUAGE": Array(repeating: "xx", count: 10_000).joined(separator: ":")]).languages.count == 8)
    }

    @Test func namesFindPlacesLargestFirstAndQualifiersNarrowThem() throws {
        let finder = try finder
        let springfields = finder.geocode("springfield", limit: 3)
        #expect(springfields.count == 3 && springfields.allSatisfy { $0.city == "Springfield" && $0.distance == nil })
        #expect(springfields.map(\.population) == springfields.map(\.population).sorted(by: >))
        #expect(finder.geocode("Springfield, Illinois").first?.state == "Illinois")
        #expect(finder.geocode("Paris, FR").map(\.countryCode) == ["FR"])
        #expect(finder.geocode("Paris").first?.countryCode == "FR", "the largest first")
        #expect(finder.geocode("Nowhere Such Place").isEmpty)
        let korean = try PlaceFinder(language: PlaceLanguage(languages: ["ko"]), cacheDirectory: Self.cacheDirectory)
        #expect(korean.geocode("서울특별시").first?.countryCode == "KR", "a name in the finder's language")
    }

    @Test func namesMatchWithoutCaseOrLatinDiacritics() throws {
        let finder = try finder
        #expect(finder.geocode("sao paulo").first?.city == "São Paulo")
        #expect(finder.geocode("SÃO PAULO").first?.city == "São Paulo")
        #expect(finder.geocode("Bogota").first?.countryCode == "CO")
        #expect(finder.geocode("Ciudad Juarez").first?.city == "Ciudad Juárez")
        #expect(finder.geocode("lodz, PL").first?.countryCode == "PL")
        #expect(finder.geocode("Paris, ile-de-france region").first?.countryCode == "FR", "qualifiers fold too")
        let german = try PlaceFinder(language: PlaceLanguage(languages: ["de"]), cacheDirectory: Self.cacheDirectory)
        #expect(german.geocode("koln").first?.city == "Köln")
        #expect(PlaceNameFolding.fold("Łódź Æble Straße Ǻ") == Array("lodz aeble strasse a".utf8))
        #expect(PlaceNameFolding.fold("서울") == Array("서울".utf8), "other scripts as they are")
    }

    @Test func settingsNeedOneExactPlace() throws {
        let finder = try finder
        #expect(try finder.uniquePlace(named: "Seoul").countryCode == "KR")
        #expect(try finder.uniquePlace(named: "Paris, France").countryCode == "FR")
        #expect(throws: GPSLocationError.unknownPlace(name: "Xanadu Nowhere")) { try finder.uniquePlace(named: "Xanadu Nowhere") }
        #expect { try finder.uniquePlace(named: "Springfield") } throws: { error in
            guard case .ambiguousPlace(_, let candidates) = error as? GPSLocationError else { return false }
            return candidates.count > 1
        }
    }

    @Test func placemarksFormatWithoutRepeats() {
        var place = Placemark(
            city: "Seoul", state: "Seoul", country: "Republic of Korea", countryCode: "KR", timeZone: "Asia/Seoul",
            latitude: 37.566, longitude: 126.9784, population: 10_349_312, distance: nil)
        #expect(place.formatted == "Seoul, Republic of Korea")
        place.state = nil
        #expect(place.formatted == "Seoul, Republic of Korea")
        place.state = "Gyeonggi-do"
        #expect(place.formatted == "Seoul, Gyeonggi-do, Republic of Korea")
    }

    @Test func aDamagedOrForeignIndexIsRebuiltNeverTrusted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try PlaceFinder(language: .english, cacheDirectory: directory)
        let path = directory + "/places.index"
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        var generator = SystemRandomNumberGenerator()
        var damaged: [Data] = [Data(), Data("LOCATE-PLACES-1\n".utf8), good.prefix(good.count / 2), Data(repeating: 0xFF, count: 4096)]
        for _ in 0..<20 {
            var bytes = [UInt8](good)
            for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
            damaged.append(Data(bytes))
        }
        for bytes in damaged {
            try bytes.write(to: URL(fileURLWithPath: path))
            // Loading never crashes; a file that does not check out is replaced by a good one.
            let finder = try PlaceFinder(language: .english, cacheDirectory: directory)
            _ = finder.reverseGeocode(latitude: 37.517829, longitude: 126.886270)
            _ = finder.geocode("Seoul")
        }
        try Data(good.prefix(good.count - 1)).write(to: URL(fileURLWithPath: path))
        #expect(
            try PlaceFinder(language: .english, cacheDirectory: directory).reverseGeocode(latitude: 37.517829, longitude: 126.886270)?.city
                == "Seoul")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == good, "a truncated index is replaced")
    }

    @Test func anIndexFromAnotherLibgeonamesIsRebuilt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stale = PlaceIndex.encode(
            [
                PlaceRecord(
                    id: "1", name: "Stale", divisionCode: "", division: "", countryCode: "ZZ", country: "Nowhere",
                    timeZone: "UTC", population: 1_000_000, latitude: 37.5, longitude: 126.9)
            ],
            libraryPath: "/nonexistent/libgeonames.so.0", stamp: [1, 2, 3])
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(stale).write(to: URL(fileURLWithPath: directory + "/places.index"))
        #expect(
            try PlaceFinder(language: .english, cacheDirectory: directory).reverseGeocode(latitude: 37.517829, longitude: 126.886270)?.city
                == "Seoul")
    }

    @Test func aHostileCatalogIsNoTranslation() {
        #expect(GeonamesCatalog(bytes: []) == nil)
        #expect(GeonamesCatalog(bytes: [0xde, 0x12, 0x04, 0x95] + [UInt8](repeating: 0xFF, count: 24)) == nil, "tables out of bounds")
        // One entry whose translation points past the end, and one with a control character.
        var bytes: [UInt8] = [0xde, 0x12, 0x04, 0x95, 0, 0, 0, 0]
        func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), 0, 0] }
        bytes += word(2) + word(28) + word(44) + word(0) + word(0)
        bytes += word(1) + word(60) + word(1) + word(62)
        bytes += word(1) + word(5000) + word(2) + word(64)
        bytes += Array("A\0B\0".utf8) + [UInt8(ascii: "x"), 0x1B, 0]
        let catalog = GeonamesCatalog(bytes: bytes)
        #expect(catalog != nil)
        #expect(catalog?.translation(of: "A") == nil)
        #expect(catalog?.translation(of: "B") == nil)
        #expect(catalog?.translation(of: "C") == nil)
    }
}
