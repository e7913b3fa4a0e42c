import Foundation
import GPSLocation
import HostileInput
import LocateSupport
import PlaceIndexCache
import Synchronization
import Testing

@testable import GPSLocationPlaces

/// Reverse and forward geocoding against Debian's libgeonames, through the place index.
struct PlaceFinderTests {
    private var finder: PlaceFinder {
        get throws { try TestPlaceIndex.english.get() }
    }

    /// Eight threads of one process opening at once a cached index that does not check out (one
    /// byte short, as a full disk leaves it; any multi-threaded host of the library): it is read
    /// mapped, refused, rebuilt once and replaced by the one the system's data makes, and all
    /// eight read that one, so libnetcdf and libgeonames, neither thread-safe, never see two
    /// readers ("NetCDF: Unknown file format"). Every other test reads the index the target
    /// built into a missing cache; one from other data is refused as not current (below).
    @Test func eightThreadsOpeningADamagedIndexAtOnceShareOneRebuild() throws {
        _ = try TestPlaceIndex.english.get()
        let good = try Data(contentsOf: URL(fileURLWithPath: TestPlaceIndex.directory + "/" + PlaceIndex.fileName))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try good.prefix(good.count - 1).write(to: URL(fileURLWithPath: directory + "/" + PlaceIndex.fileName))
        let loads = Mutex<[Result<ObjectIdentifier, GPSLocationError>]>([])
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for _ in 0..<8 {
            finished.enter()
            Thread.detachNewThread {
                start.wait()
                let load = Result { () throws(GPSLocationError) in try PlaceIndex.load(cacheDirectory: directory).identity }
                loads.withLock { $0.append(load) }
                finished.leave()
            }
        }
        for _ in 0..<8 { start.signal() }
        #expect(finished.wait(timeout: .now() + 60) == .success, "every thread finished")
        let identities = try loads.withLock { try $0.map { try $0.get() } }
        #expect(identities.count == 8 && Set(identities).count == 1, "one build, read by all: \(identities)")
        #expect(
            try PlaceFinder(language: .english, cacheDirectory: directory).reverseGeocode(latitude: 37.517829, longitude: 126.886270)?.city
                == "Seoul")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + PlaceIndex.fileName)) == good, "the damaged index is replaced")
    }

    /// An index built from other data (the system's place data changed since) is valid and not
    /// current, which makes a load rebuild it as it rebuilds a damaged one; the system's own is current.
    @Test func anIndexFromOtherDataIsNotCurrent() throws {
        let stale = PlaceIndex.encode(
            [
                PlaceRecord(
                    id: "1", name: "Stale", divisionCode: "", division: "", divisionISOName: "", countryCode: "ZZ", country: "Nowhere",
                    countryISOName: "", timeZone: "UTC", population: 1_000_000, latitude: 37.5, longitude: 126.9)
            ],
            sources: [(path: "/nonexistent/libgeonames.so.0", stamp: [1, 2, 3])] + PlaceIndexBuilder.dataFiles.map { ($0, [1]) })
        #expect(PlaceIndex(bytes: stale)?.isCurrent == false, "a valid index, of other data")
        _ = try TestPlaceIndex.english.get()
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPlaceIndex.directory + "/" + PlaceIndex.fileName)))
        #expect(PlaceIndex(bytes: good)?.isCurrent == true)
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
        ("Saint-Louis, its town hall by Basel's border", 47.5906, 7.5622, "Saint-Louis", "FR"),
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

    @Test func theAntimeridianWrapsAndOnlyTheOpenOceanHasNoPlace() throws {
        let finder = try finder
        // Taveuni at 179.98 W: the nearest town (Labasa) is at 179.4 E, across the antimeridian.
        #expect(finder.reverseGeocode(latitude: -16.80, longitude: -179.98)?.countryCode == "FJ")
        #expect(finder.reverseGeocode(latitude: -48.88, longitude: -123.39) == nil, "Point Nemo, 2,700 km from any land")
        #expect(finder.reverseGeocode(latitude: .nan, longitude: 0) == nil)
        #expect(finder.reverseGeocode(latitude: 91, longitude: 0) == nil)
        #expect(finder.reverseGeocode(latitude: 0, longitude: 180.5) == nil)
    }

    /// Far from any town of the data, a point still gets its country, state and time zone, with
    /// no city and the distance to the place they come from.
    /// (The nearest place in Greenland and Antarctica is a principal city of tzdata, which has no
    /// state.)
    @Test(arguments: [
        ("the middle of Siberia", 65.0, 105.0, "RU", "Asia/"),
        ("the Outback", -25.0, 133.0, "AU", "Australia/"),
        ("the Sahara, in Algeria", 25.0, 0.0, "DZ", "Africa/Algiers"),
        ("the Greenland ice sheet", 72.0, -40.0, "GL", "America/"),
        ("the South Pole", -90.0, 0.0, "AQ", "Antarctica/"),
    ])
    func farFromAnyCityThePointKeepsItsCountry(label: String, latitude: Double, longitude: Double, country: String, zone: String) throws {
        let place = try #require(try finder.reverseGeocode(latitude: latitude, longitude: longitude), "\(label): nothing")
        #expect(place.city == nil, "\(label): \(place.formatted)")
        #expect(
            place.countryCode == country && place.timeZone.hasPrefix(zone), "\(label): \(place.countryCode ?? "none") \(place.timeZone)")
        #expect((place.distance ?? 0) > PlaceFinder.cityRange && (place.distance ?? .infinity) <= PlaceFinder.regionRange)
        #expect(!place.formatted.isEmpty && !place.formatted.hasPrefix(","))
        if !["GL", "AQ"].contains(country) { #expect(place.state != nil, "\(label): a state") }
    }

    /// City-states and territories that libgeonames lacks or names as a neighbour are answered
    /// with their own country, from tzdata's principal cities.
    @Test(arguments: [
        ("Singapore, Raffles Place", 1.2840, 103.8514, "SG", "Asia/Singapore"),
        ("Macau, Senado Square", 22.1937, 113.5399, "MO", "Asia/Macau"),
        ("Vatican City, St Peter's Square", 41.9022, 12.4568, "VA", "Europe/Vatican"),
        ("Gibraltar, Main Street", 36.1408, -5.3536, "GI", "Europe/Gibraltar"),
        ("Monaco, Monte Carlo", 43.7396, 7.4277, "MC", "Europe/Monaco"),
        ("Nouakchott", 18.0858, -15.9785, "MR", "Africa/Nouakchott"),
        ("Stanley, Falkland Islands", -51.6921, -57.8589, "FK", "Atlantic/Stanley"),
        ("San Marino", 43.9356, 12.4473, "SM", "Europe/San_Marino"),
    ])
    func microstatesAndTerritoriesAreTheirOwnCountry(
        label: String, latitude: Double, longitude: Double, country: String, zone: String
    )
        throws
    {
        let place = try #require(try finder.reverseGeocode(latitude: latitude, longitude: longitude), "\(label): nothing")
        #expect(place.countryCode == country && place.timeZone == zone, "\(label): \(place.formatted) \(place.timeZone)")
        #expect(place.city != nil, "\(label): a city")
    }

    @Test func timeZonesAreTodaysIds() throws {
        let finder = try finder
        #expect(finder.reverseGeocode(latitude: 50.4501, longitude: 30.5234)?.timeZone == "Europe/Kyiv", "not Europe/Kiev")
        // Ciudad Juárez keeps US daylight saving time since 2022 (America/Ciudad_Juarez), unlike
        // Ojinaga's zone where GeoNames put it.
        let juarez = try #require(finder.reverseGeocode(latitude: 31.7202, longitude: -106.4608))
        let zone = try #require(TimeZone(identifier: juarez.timeZone), "\(juarez.timeZone)")
        let winter = Date(timeIntervalSince1970: 1_768_478_400)  // 2026-01-15
        let summer = Date(timeIntervalSince1970: 1_784_116_800)  // 2026-07-15
        #expect(zone.secondsFromGMT(for: winter) == -7 * 3600 && zone.secondsFromGMT(for: summer) == -6 * 3600, "\(juarez.timeZone)")
        // No place keeps a zone name that tzdata lists only as a link to another.
        let zones = TimeZoneData.load()
        let index = try PlaceIndex.load(cacheDirectory: TestPlaceIndex.directory)
        let stale = (0..<index.count).compactMap { index.record($0)?.timeZone }.filter { zones.current($0) != $0 }
        #expect(stale.isEmpty, "\(Set(stale).sorted().prefix(5))")
    }

    /// A state libgeonames does not translate is translated by iso-codes' catalogue, where that
    /// has it; cities keep libgeonames' names.
    @Test(arguments: [
        ("ko", 45.50884, -73.58781, "퀘벡"),
        ("ja", -23.5475, -46.63611, "サンパウロ"),
        ("ja", 28.65195, 77.23149, "デリー"),
        ("de", 39.9075, 116.39723, "Peking"),
        ("de", -34.61315, -58.37723, "Autonome Stadt Buenos Aires"),
    ])
    func statesAreTranslatedByIsoCodesToo(language: String, latitude: Double, longitude: Double, state: String) throws {
        let finder = try PlaceFinder(language: PlaceLanguage(languages: [language]), cacheDirectory: TestPlaceIndex.directory)
        #expect(finder.reverseGeocode(latitude: latitude, longitude: longitude)?.state == state)
    }

    /// The index answers exactly as the rule read over every place would, for points anywhere.
    @Test func theSpatialIndexAnswersAsAScanOfEveryPlace() throws {
        let finder = try finder
        let index = try PlaceIndex.load(cacheDirectory: TestPlaceIndex.directory)
        var generator = Mutator(seed: 16)
        var points = (0..<400).map { _ in
            (Double.random(in: -90...90, using: &generator), Double.random(in: -180...180, using: &generator))
        }
        // And 300 near places, where the reaches compete.
        points += (0..<300).map { _ in
            let row = Int.random(in: 0..<index.count, using: &generator)
            return (
                max(-90, min(90, index.latitude(row) + Double.random(in: -0.3...0.3, using: &generator))),
                max(-180, min(180, index.longitude(row) + Double.random(in: -0.3...0.3, using: &generator)))
            )
        }
        // Every place's columns, read once (the scan is the rule, not the index's code).
        let rows = 0..<index.count
        let latitudes = rows.map(index.latitude)
        let longitudes = rows.map(index.longitude)
        let divisions = rows.map(index.divisionIndex)
        let countries = rows.map(index.countryIndex)
        let reaches = rows.map { PlaceIndex.reach(population: index.population($0)) }
        var differences: [String] = []
        for (latitude, longitude) in points {
            let region =
                index.borders.region(latitude: latitude, longitude: longitude)
                ?? index.borders.nearestRegion(latitude: latitude, longitude: longitude, within: PlaceFinder.territorialSea)?.region
            // The places that compete: the state's own for a state with places, else the
            // country's (every place, at sea). The nearest of them, and the one deepest inside
            // its reach (the first of equals, as `min` would give).
            let division = region.flatMap(index.regionDivision)
            let regionCountry = region.map(index.regionCountry)
            var nearest: (row: Int, distance: Double)?
            var deepest: (row: Int, depth: Double)?
            for row in rows {
                if region != nil, division.map({ divisions[row] != $0 }) ?? (countries[row] != regionCountry) { continue }
                let distance = greatCircleDistance(latitude, longitude, latitudes[row], longitudes[row])
                if distance < nearest?.distance ?? .infinity { nearest = (row, distance) }
                if distance <= reaches[row], distance / reaches[row] < deepest?.depth ?? .infinity {
                    deepest = (row, distance / reaches[row])
                }
            }
            var expected: (row: Int, city: Bool)?
            if let nearest, nearest.distance <= PlaceFinder.cityRange {
                expected = (region == nil ? nearest.row : deepest?.row ?? nearest.row, true)
            } else if let nearest, region != nil || nearest.distance <= PlaceFinder.regionRange {
                expected = (nearest.row, false)
            }
            let answer = finder.reverseGeocode(latitude: latitude, longitude: longitude)
            let wanted = expected.flatMap { choice in index.record(choice.row).map { (record: $0, namesCity: choice.city) } }
            let country = region.flatMap { index.regionRecord($0)?.countryCode }
            if answer?.countryCode != country || answer?.city != (wanted?.namesCity == true ? wanted?.record.name : nil)
                || (wanted != nil && answer?.latitude != wanted?.record.latitude) || (answer == nil) != (wanted == nil && region == nil)
            {
                differences.append("\(latitude), \(longitude): \(answer?.formatted ?? "nothing") ≠ \(wanted?.record.name ?? "nothing")")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(points.count): \(differences.prefix(5))")
    }

    @Test func namesFollowTheLanguageAndFallBackToEnglish() throws {
        let korean = try PlaceFinder(language: PlaceLanguage(languages: ["ko"]), cacheDirectory: TestPlaceIndex.directory)
        let seoul = try #require(korean.reverseGeocode(latitude: 37.517829, longitude: 126.886270))
        #expect(seoul.city == "서울특별시" && seoul.country == "대한민국")
        let german = try PlaceFinder(language: PlaceLanguage(languages: ["de_AT", "fr"]), cacheDirectory: TestPlaceIndex.directory)
        #expect(german.reverseGeocode(latitude: 48.2082, longitude: 16.3738)?.city == "Wien", "de_AT falls back to de")
        let unknown = try PlaceFinder(language: PlaceLanguage(languages: ["xx"]), cacheDirectory: TestPlaceIndex.directory)
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
        let korean = try PlaceFinder(language: PlaceLanguage(languages: ["ko"]), cacheDirectory: TestPlaceIndex.directory)
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
        let german = try PlaceFinder(language: PlaceLanguage(languages: ["de"]), cacheDirectory: TestPlaceIndex.directory)
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

    @Test func aDamagedOrForeignIndexIsNeverTrusted() throws {
        let directory = try PlaceIndexCopies.copy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/places.index"
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // The places' part, damaged, before a border section with no borders (PlaceBorderTests
        // damages the borders' own).
        let places = Array(good.prefix(good.count - (try #require(PlaceIndex(bytes: good))).borderSectionSize))
        let noBorders = BorderGrid.encode([])
        var generator = Mutator(seed: 7)
        var damaged: [[UInt8]] = [
            [], Array("LOCATE-PLACES-3\n".utf8), Array(good.prefix(good.count / 2)), [UInt8](repeating: 0xFF, count: 4096),
        ]
        for _ in 0..<50 {
            damaged.append(generator.mutate(places) + noBorders)
            var bytes = places
            for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
            damaged.append(bytes + noBorders)
        }
        // Whatever a damaged file holds, reading it never crashes: it is refused, or each of its
        // places is valid text or no place at all.
        var refused = 0
        for bytes in damaged {
            guard let index = PlaceIndex(bytes: bytes) else {
                refused += 1
                continue
            }
            let finder = PlaceFinder(index: index, language: .english)
            for _ in 0..<20 {
                let place = finder.reverseGeocode(
                    latitude: .random(in: -90...90, using: &generator), longitude: .random(in: -180...180, using: &generator))
                #expect(place.map { !UntrustedText.hasHidden($0.formatted) } ?? true)
            }
            _ = finder.geocode("Seoul")
        }
        #expect(refused >= 4, "the empty, short, truncated and foreign files are refused")
        // That a cached file that does not check out is rebuilt and replaced is
        // eightThreadsOpeningADamagedIndexAtOnceShareOneRebuild's (a rebuild takes seconds).
    }

    /// The index is read in place, not checked row by row: a file cut short anywhere is refused
    /// (its header no longer fits it); bytes flipped inside any section give some
    /// place or none, never a crash, read from the file mapped as the cache's is (replaced by a
    /// rename, as the cache's is: a mapped file must not shrink).
    @Test func anIndexDamagedInAnySectionIsReplacedOrAnswersSafely() throws {
        let directory = try PlaceIndexCopies.copy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/" + PlaceIndex.fileName
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let sections = try #require(PlaceIndex(bytes: good)).sections
        #expect(sections.map(\.name).count == 13 && sections.allSatisfy { !$0.range.isEmpty }, "\(sections.map(\.name))")
        var generator = Mutator(seed: 27)
        for section in sections {
            for cut in [section.range.lowerBound, section.range.lowerBound + section.range.count / 2] where cut < good.count {
                #expect(PlaceIndex(bytes: Array(good.prefix(cut))) == nil, "cut at \(cut), in the \(section.name)")
            }
            for round in 0..<2 {
                var bytes = good
                for _ in 0..<(round == 0 ? 1 : 64) {
                    bytes[Int.random(in: section.range, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
                }
                // A damaged header may be refused (which would rebuild the index, seconds a time).
                if section.name == "header" {
                    if let index = PlaceIndex(bytes: bytes) { _ = PlaceFinder(index: index, language: .english).geocode("Seoul") }
                    continue
                }
                try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
                let finder = try PlaceFinder(language: .english, cacheDirectory: directory)
                for _ in 0..<50 {
                    let place = finder.reverseGeocode(
                        latitude: .random(in: -90...90, using: &generator), longitude: .random(in: -180...180, using: &generator))
                    #expect(place.map { !UntrustedText.hasHidden($0.formatted) } ?? true)
                }
                #expect(finder.geocode("Seoul").allSatisfy { !UntrustedText.hasHidden($0.formatted) })
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "kept and read in place: the \(section.name)")
            }
        }
        // A file cut short is refused above; that a refused file is rebuilt and replaced is
        // eightThreadsOpeningADamagedIndexAtOnceShareOneRebuild's (a rebuild takes seconds).
    }

    @Test func aHostileCatalogIsNoTranslation() {
        #expect(GettextCatalog(bytes: []) == nil)
        #expect(GettextCatalog(bytes: [0xde, 0x12, 0x04, 0x95] + [UInt8](repeating: 0xFF, count: 24)) == nil, "tables out of bounds")
        // One entry whose translation points past the end, and one with a control character.
        var bytes: [UInt8] = [0xde, 0x12, 0x04, 0x95, 0, 0, 0, 0]
        func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), 0, 0] }
        bytes += word(2) + word(28) + word(44) + word(0) + word(0)
        bytes += word(1) + word(60) + word(1) + word(62)
        bytes += word(1) + word(5000) + word(2) + word(64)
        bytes += Array("A\0B\0".utf8) + [UInt8(ascii: "x"), 0x1B, 0]
        let catalog = GettextCatalog(bytes: bytes)
        #expect(catalog != nil)
        #expect(catalog?.translation(of: "A") == nil)
        #expect(catalog?.translation(of: "B") == nil)
        #expect(catalog?.translation(of: "C") == nil)
    }
}
