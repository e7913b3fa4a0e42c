import Foundation
import LocateSupport
import PlaceIndexCache
import Testing

@testable import GPSLocationPlaces

/// The country (and state) of a point comes from the border that holds it (gmt-dcw's Digital
/// Chart of the World), not from the nearest town, which is often across the border.
struct PlaceBorderTests {
    private var finder: PlaceFinder {
        get throws { try TestPlaceIndex.english.get() }
    }

    /// Both sides of borders, 0.1–3 km from the line, where the nearest town is often the other
    /// side's: enclaves, islands shared by two countries, microstates. (label, latitude,
    /// longitude, country code, state or nil for any)
    static let sides: [(String, Double, Double, String, String?)] = [
        ("Geneva, Switzerland", 46.2044, 6.1432, "CH", nil),
        ("Annemasse, France", 46.1940, 6.2360, "FR", nil),
        ("Detroit, Michigan", 42.3314, -83.0458, "US", "Michigan"),
        ("Windsor, Ontario, across the river", 42.3170, -83.0375, "CA", "Ontario"),
        ("Manitoba, 1 km north of the 49th parallel", 49.0100, -100.0, "CA", "Manitoba"),
        ("North Dakota, 1 km south of it", 48.9900, -100.0, "US", "North Dakota"),
        ("San Ysidro, California", 32.5560, -117.0300, "US", "California"),
        ("Tijuana", 32.5250, -117.0200, "MX", nil),
        ("El Paso, Texas", 31.7600, -106.4870, "US", "Texas"),
        ("Ciudad Juárez", 31.7300, -106.4500, "MX", nil),
        ("Maseru, Lesotho (a hole in South Africa)", -29.3151, 27.4869, "LS", nil),
        ("Ladybrand, South Africa, across the Caledon", -29.1943, 27.4561, "ZA", nil),
        ("Thaba-Tseka, inland Lesotho", -29.5200, 28.6100, "LS", nil),
        ("Ghat, Libya, at the Algerian border", 24.9633, 10.1728, "LY", nil),
        ("Baarle-Nassau, Netherlands", 51.4490, 4.9260, "NL", nil),
        ("Turnhout, Belgium, south of Baarle", 51.3227, 4.9447, "BE", nil),
        ("Dajabón, Hispaniola's Dominican side", 19.5486, -71.7083, "DO", nil),
        ("Ouanaminthe, Hispaniola's Haitian side, 2 km west", 19.5500, -71.7250, "HT", nil),
        ("Dili, Timor-Leste", -8.5569, 125.5603, "TL", nil),
        ("Atambua, Indonesian Timor", -9.1061, 124.8925, "ID", nil),
        ("Pante Macassar, Oecusse (Timor-Leste's exclave)", -9.2000, 124.3833, "TL", nil),
        ("Kefamenanu, Indonesian Timor beside Oecusse", -9.4470, 124.4790, "ID", nil),
        ("Johor Bahru, Malaysia", 1.4620, 103.7600, "MY", nil),
        ("Woodlands, Singapore, across the strait", 1.4360, 103.7865, "SG", nil),
        ("St Peter's Basilica, Vatican City", 41.9022, 12.4539, "VA", nil),
        ("Castel Sant'Angelo, Rome", 41.9031, 12.4663, "IT", nil),
        ("Gibraltar", 36.1408, -5.3536, "GI", nil),
        ("La Línea, Spain", 36.1680, -5.3480, "ES", nil),
        ("Marigot, Saint Martin's French side", 18.0670, -63.0830, "MF", nil),
        ("Philipsburg, its Dutch side", 18.0260, -63.0450, "SX", nil),
        ("Lifford, Ireland", 54.8340, -7.4800, "IE", nil),
        ("Strabane, Northern Ireland, across the Foyle", 54.8270, -7.4630, "GB", nil),
        ("Sebatik, Borneo's Malaysian half", 4.1900, 117.8000, "MY", nil),
        ("Sebatik, its Indonesian half", 4.1300, 117.8500, "ID", nil),
        ("Bandar Seri Begawan, Brunei", 4.8903, 114.9422, "BN", nil),
        ("Miri, Sarawak", 4.3995, 113.9914, "MY", "Sarawak"),
        ("Frankfurt (Oder), Germany", 52.3420, 14.5500, "DE", nil),
        ("Słubice, Poland, across the Oder", 52.3500, 14.5700, "PL", nil),
        ("Maastricht, Netherlands", 50.8514, 5.6910, "NL", nil),
        ("Lanaken, Belgium", 50.8900, 5.6470, "BE", nil),
        ("Kaliningrad, Russia's exclave", 54.7104, 20.4522, "RU", "Kaliningrad"),
        ("Llívia, Spain's exclave in France", 42.4637, 1.9806, "ES", nil),
        ("Büsingen, Germany's exclave in Switzerland", 47.6970, 8.6900, "DE", nil),
        ("San Marino", 43.9356, 12.4473, "SM", nil),
        ("Rimini, Italy", 44.0600, 12.5680, "IT", nil),
        ("Vaduz, Liechtenstein", 47.1410, 9.5210, "LI", nil),
        ("Buchs, Switzerland, across the Rhine", 47.1670, 9.4780, "CH", nil),
        ("Monaco-Ville", 43.7314, 7.4198, "MC", nil),
        ("Tassili n'Ajjer, Algeria, 250 km from any Algerian town (the nearest is Libyan)", 24.0, 8.0, "DZ", nil),
    ]

    @Test func eachSideOfABorderIsItsOwnCountry() throws {
        let finder = try finder
        for (label, latitude, longitude, country, state) in Self.sides {
            let place = finder.reverseGeocode(latitude: latitude, longitude: longitude)
            #expect(place?.countryCode == country, "\(label): \(place?.formatted ?? "nothing")")
            if let state { #expect(place?.state == state, "\(label): \(place?.formatted ?? "nothing")") }
        }
    }

    /// The city named is the country's own, even when a bigger or nearer one is across the line.
    @Test func theCityAndZoneAreOfThePointsOwnCountry() throws {
        let finder = try finder
        let ghat = try #require(finder.reverseGeocode(latitude: 24.0, longitude: 8.0))
        #expect(ghat.city == nil && ghat.timeZone == "Africa/Algiers" && (ghat.distance ?? 0) > PlaceFinder.cityRange, "\(ghat)")
        let oecusse = try #require(finder.reverseGeocode(latitude: -9.2000, longitude: 124.3833))
        #expect(oecusse.timeZone == "Asia/Dili", "\(oecusse.timeZone), not Indonesia's")
        let windsor = try #require(finder.reverseGeocode(latitude: 42.3170, longitude: -83.0375))
        #expect(windsor.city == "Windsor" && windsor.timeZone == "America/Toronto", "not Detroit, 2 km away: \(windsor.formatted)")
        let strabane = try #require(finder.reverseGeocode(latitude: 54.8270, longitude: -7.4630))
        #expect(strabane.timeZone == "Europe/London" && strabane.city != "Letterkenny", "\(strabane.formatted)")
    }

    /// Out at sea a point has no country: the placemark is the nearest place on land, with its
    /// distance; within 12 nautical miles of a coast it is in that country's waters.
    @Test func theSeaHasNoCountryButTerritorialWatersDo() throws {
        let finder = try finder
        let atlantic = try #require(finder.reverseGeocode(latitude: 39.0, longitude: -10.5), "80 km off Lisbon")
        #expect(atlantic.country == nil && atlantic.countryCode == nil && atlantic.state == nil, "\(atlantic)")
        #expect(atlantic.city != nil && atlantic.timeZone == "Europe/Lisbon", "the nearest place on land: \(atlantic)")
        #expect((atlantic.distance ?? 0) > PlaceFinder.territorialSea && (atlantic.distance ?? .infinity) < PlaceFinder.cityRange)
        let offNice = try #require(finder.reverseGeocode(latitude: 43.62, longitude: 7.30), "8 km off Nice")
        #expect(offNice.countryCode == "FR", "\(offNice)")
        let midOcean = try #require(finder.reverseGeocode(latitude: 0.0, longitude: -30.0), "the mid-Atlantic, 500 km off Brazil")
        #expect(midOcean.countryCode == nil && midOcean.city == nil && midOcean.formatted.isEmpty, "\(midOcean)")
        #expect(finder.reverseGeocode(latitude: -48.88, longitude: -123.39) == nil, "Point Nemo, 2,700 km from any land")
        let bay = try #require(finder.reverseGeocode(latitude: 60.0, longitude: -86.0), "Hudson Bay, 200 km from shore")
        #expect(bay.countryCode == nil, "\(bay)")
    }

    /// The spatial index answers as the even-odd rule read over every edge of every ring would
    /// (the smallest region first where two overlap): dense rings that split cells down to the
    /// deepest level, a hole, a ring across the antimeridian (kept twice, as `BorderData` keeps
    /// it) and a ring closed through the pole.
    @Test func theBorderIndexAnswersAsAScanOfEveryEdge() throws {
        func circle(_ region: Int, _ x: Double, _ y: Double, _ radius: Double, _ points: Int, wobble: Double) -> BorderData.Ring {
            let angles = (0...points).map { Double($0 % points) / Double(points) * 2 * .pi }
            let radii = angles.map { radius * (1 + wobble * LocateSupport.sin($0 * 37)) }
            return BorderData.Ring(
                region: region, longitudes: zip(angles, radii).map { x + $1 * LocateSupport.cos($0) },
                latitudes: zip(angles, radii).map { y + $1 * LocateSupport.sin($0) })
        }
        let lake = circle(0, 10.2, 45.3, 0.3, 3_000, wobble: 0.2)
        let square = BorderData.Ring(region: 2, longitudes: [5, 15, 15, 5, 5], latitudes: [40, 40, 50, 50, 40])
        var hole = lake
        hole.region = 2
        let island = circle(1, 179.5, -15, 2, 500, wobble: 0.1)
        var islandWest = island
        islandWest.longitudes = island.longitudes.map { $0 - 360 }
        let pole = BorderData.Ring(region: 3, longitudes: [-180, 0, 180, 180, -180, -180], latitudes: [-70, -65, -70, -90, -90, -70])
        let rings = [lake, square, hole, island, islandWest, pole]
        let borders = try #require(BorderIndex(file: FileBytes(BorderGrid.encode(rings)), offset: 0))
        func scan(_ latitude: Double, _ longitude: Double) -> Int? {
            var inside: [Int: Bool] = [:]
            for ring in rings {
                for edge in 0..<(ring.longitudes.count - 1) {
                    let (ax, ay, bx, by) = (
                        ring.longitudes[edge], ring.latitudes[edge], ring.longitudes[edge + 1], ring.latitudes[edge + 1]
                    )
                    if (ay > latitude) != (by > latitude), longitude < ax + (latitude - ay) * (bx - ax) / (by - ay) {
                        inside[ring.region, default: false].toggle()
                    }
                }
            }
            return inside.filter(\.value).keys.min()
        }
        var generator = SystemRandomNumberGenerator()
        var differences: [String] = []
        for _ in 0..<4_000 {
            let (latitude, longitude) =
                Bool.random(using: &generator)
                ? (Double.random(in: 44.9...45.7, using: &generator), Double.random(in: 9.8...10.6, using: &generator))
                : (Double.random(in: -90...60, using: &generator), Double.random(in: -180..<180, using: &generator))
            let answer = borders.region(latitude: latitude, longitude: longitude)
            // Points within a hair of an edge may fall either way.
            let nearEdge = borders.nearestRegion(latitude: latitude, longitude: longitude, within: 0.5).map { _ in true } ?? false
            if answer != scan(latitude, longitude), !nearEdge { differences.append("\(latitude), \(longitude): \(answer ?? -1)") }
        }
        #expect(differences.isEmpty, "\(differences.count): \(differences.prefix(5))")
        #expect(borders.region(latitude: 10, longitude: 10) == nil && borders.region(latitude: 45.3, longitude: 10.2) == 0)
        #expect(borders.region(latitude: -15, longitude: -179.9) == 1 && borders.region(latitude: -85, longitude: 120) == 3)
        let coast = try #require(borders.nearestRegion(latitude: 39.9, longitude: 10, within: 20_000))
        #expect(coast.region == 2 && abs(coast.distance - 11_120) < 100, "\(coast)")
    }

    /// Whatever a damaged border section holds, a lookup stays inside it and ends.
    @Test func aDamagedBorderSectionAnswersNothingRatherThanCrash() throws {
        let directory = try PlaceIndexCopies.copy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + PlaceIndex.fileName)))
        let index = try #require(PlaceIndex(bytes: good))
        let section = good.count - index.borderSectionSize
        var generator = SystemRandomNumberGenerator()
        // Noise over the section's header, cell table and leaves: every lookup stays in bounds.
        for round in 0..<20 {
            var bytes = good
            let start = section + (round == 0 ? 0 : Int.random(in: 0..<(good.count - section), using: &generator))
            for offset in start..<min(start + 4096, bytes.count) { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            guard let damaged = PlaceIndex(bytes: bytes) else { continue }
            let finder = PlaceFinder(index: damaged, language: .english)
            for _ in 0..<200 {
                _ = finder.reverseGeocode(
                    latitude: .random(in: -90...90, using: &generator), longitude: .random(in: -180...180, using: &generator))
            }
        }
        var truncated = good
        truncated.removeLast()
        #expect(PlaceIndex(bytes: truncated) == nil, "a border section that does not end at the file's end")
    }
}
