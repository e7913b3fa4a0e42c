import Foundation
import GPSLocation
import HostileInput
import LocateSupport
import PlaceIndexCache
import Testing

@testable import GPSLocationPlaces

/// The system's data the place index is built from: tzdata's principal cities and links,
/// iso-codes' tables, and the matching of libgeonames' divisions to ISO subdivisions.
struct PlaceDataTests {
    @Test func zoneTabLinesAreReadStrictly() {
        let zoneTab = """
            # comment
            SG\t+0117+10351\tAsia/Singapore
            VA\t+415408+0122711\tEurope/Vatican
            MX\t+3144-10629\tAmerica/Ciudad_Juarez\tChihuahua (US border - west)
            xx\t+0117+10351\tAsia/Lower
            SG\t+9917+10351\tAsia/Latitude
            SG\t+0160+10351\tAsia/Minutes
            SG\t+0117+10351\t../../etc/passwd
            SG\t+0117+10351
            SG\t+0117+1035\tAsia/Short
            """
        let cities = TimeZoneData.principalCities(zoneTab: Array(zoneTab.utf8))
        #expect(cities.map(\.zone) == ["Asia/Singapore", "Europe/Vatican", "America/Ciudad_Juarez"])
        #expect(cities.map(\.name) == ["Singapore", "Vatican", "Ciudad Juarez"])
        #expect(abs(cities[0].latitude - (1 + 17.0 / 60)) < 1e-9 && abs(cities[0].longitude - (103 + 51.0 / 60)) < 1e-9)
        #expect(
            abs(cities[1].latitude - (41 + 54.0 / 60 + 8.0 / 3600)) < 1e-9
                && abs(cities[1].longitude - (12 + 27.0 / 60 + 11.0 / 3600)) < 1e-9)
        #expect(cities[2].longitude < 0 && cities[2].countryCode == "MX")
    }

    @Test func oldZoneNamesBecomeTheCurrentOnes() {
        let links = TimeZoneData.links(
            tzdata: Array("L Europe/Kyiv Europe/Kiev\nL Europe/Rome Europe/Vatican\nL Bad/../x Old/Name\nZ Asia/X 1\n".utf8))
        #expect(links == ["Europe/Kiev": "Europe/Kyiv", "Europe/Vatican": "Europe/Rome"])
        let data = TimeZoneData(
            principalCities: [
                .init(zone: "Europe/Kyiv", countryCode: "UA", latitude: 50.4, longitude: 30.5),
                .init(zone: "Europe/Vatican", countryCode: "VA", latitude: 41.9, longitude: 12.45),
            ], links: links)
        #expect(data.current("Europe/Kiev") == "Europe/Kyiv")
        #expect(data.current("Europe/Vatican") == "Europe/Vatican", "a zone a country is known by stays")
        #expect(data.current("Mars/Olympus") == "Mars/Olympus", "unknown: as it is")
        // The system's own data knows Kyiv.
        #expect(TimeZoneData.load().current("Europe/Kiev") == "Europe/Kyiv")
    }

    @Test func isoCodesTablesSkipWhatIsNotValid() {
        let codes = ISOCodes(
            countries: [
                ["alpha_2": .string("KR"), "name": .string("Korea, Republic of")],
                ["alpha_2": .string("VA"), "name": .string("Holy See (Vatican City State)"), "common_name": .string("Vatican")],
                ["alpha_2": .string("k1"), "name": .string("Bad code")],
                ["alpha_2": .string("XX"), "name": .string("Bad\u{1B}[2Jname")],
                ["alpha_2": .number(1), "name": .string("Not a string")],
            ],
            subdivisions: [
                ["code": .string("KR-11"), "name": .string("Seoul-teukbyeolsi")],
                ["code": .string("ES-M"), "name": .string("Madrid"), "parent": .string("MD")],
                ["code": .string("KR11"), "name": .string("No dash")],
                ["code": .string("KR-../x"), "name": .string("Path")],
            ])
        #expect(codes.countries.keys.sorted() == ["KR", "VA"])
        #expect(codes.countries["VA"]?.displayName == "Vatican" && codes.countries["KR"]?.displayName == "Korea, Republic of")
        #expect(codes.subdivisions["KR"] == [.init(code: "KR-11", name: "Seoul-teukbyeolsi", isFirstLevel: true)])
        #expect(codes.subdivisions["ES"] == [.init(code: "ES-M", name: "Madrid", isFirstLevel: false)])
        let system = ISOCodes.load()
        #expect(system.countries.count >= 249 && system.subdivisions["DE"]?.count == 16)
        var mutator = Mutator(seed: 3166)
        let json = Array(#"{"3166-1": [{"alpha_2": "KR", "name": "Korea, Republic of"}, {"alpha_2": "SG", "name": "Singapore"}]}"#.utf8)
        for input in (0..<300).map({ _ in mutator.mutate(json) }) {
            // Hostile tables are never a crash; what is read is valid.
            let entries = FlatJSON.objects(inArray: "3166-1", of: input) ?? []
            let mutated = ISOCodes(countries: entries, subdivisions: [])
            #expect(mutated.countries.values.allSatisfy { !UntrustedText.hasHidden($0.name) && $0.code.utf8.count == 2 })
        }
    }

    /// The languages with a catalogue are read off the directory whole: many short names (where
    /// a copy of readdir's fixed-size field would read past the end of its buffer), a longest
    /// name, and names that are not languages.
    @Test func catalogueLanguagesAreEveryDirectoryWithTheCatalogue() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("locate-locales-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var expected: [String] = []
        let names = (0..<800).map { String($0) } + [String(repeating: "l", count: 255), "ko", "pt_BR", "sr@latin", "한국어"]
        for (index, name) in names.enumerated() {
            let messages = root.appendingPathComponent(name).appendingPathComponent("LC_MESSAGES")
            try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
            if index % 3 == 0 || index >= 800 {
                try Data().write(to: messages.appendingPathComponent("iso_3166-2.mo"))
                expected.append(name)
            }
        }
        try Data().write(to: root.appendingPathComponent(".hidden"))
        #expect(GettextCatalog.languages(domain: "iso_3166-2", directory: root.path) == expected.sorted())
        #expect(GettextCatalog.languages(domain: "iso_3166-2", directory: root.path + "/missing").isEmpty)
    }

    /// Divisions are matched through the names they have in common in any language, not by
    /// their codes (GeoNames' are not ISO's) or their English names alone.
    @Test func divisionsAreMatchedToTheirIsoSubdivisions() {
        let divisions: Set<SubdivisionMatcher.Division> = [
            .init(countryCode: "DE", code: "02", name: "Bavaria"),
            .init(countryCode: "RU", code: "47", name: "Moscow Oblast"),
            .init(countryCode: "RU", code: "48", name: "Moscow"),
            .init(countryCode: "KR", code: "11", name: "Seoul"),
            .init(countryCode: "JP", code: "40", name: "Tokyo"),
            .init(countryCode: "ES", code: "51", name: "Andalusia"),
            .init(countryCode: "US", code: "CA", name: "California"),
            .init(countryCode: "ZZ", code: "01", name: "Nowhere"),
        ]
        let matched = SubdivisionMatcher.match(divisions, iso: .load())
        #expect(matched["DE.02"] == "Bayern")
        #expect(matched["RU.47"] == "Moskovskaja oblast'", "the oblast, not the city")
        #expect(matched["RU.48"] == "Moskva")
        #expect(matched["KR.11"] == "Seoul-teukbyeolsi")
        #expect(matched["JP.40"] == "Tokyo")
        #expect(matched["ES.51"] == "Andalucía")
        #expect(matched["US.CA"] == "California")
        #expect(matched["ZZ.01"] == nil)
    }

    /// Across the whole data, nearly every place's division is matched (locate-geocode(1) says how many).
    @Test func nearlyEveryDivisionIsMatched() throws {
        let index = try PlaceIndex.load(cacheDirectory: TestPlaceIndex.directory)
        let divided = (0..<index.count).compactMap { index.record($0) }.filter { !$0.divisionCode.isEmpty }
        let share = Double(divided.filter { !$0.divisionISOName.isEmpty }.count) / Double(divided.count)
        #expect(share >= 0.93, "\(share)")
    }
}
