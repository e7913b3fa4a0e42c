import Foundation
import GPSLocation
import Testing

/// `distance(from:)` and `bearing(to:)` against GeographicLib's geodesics (Karney 2013, WGS 84,
/// computed with geographiclib 2.0's `Geodesic.WGS84.Inverse`), to 0.1 m and 0.1°.
struct GeodesicTests {
    static let cases: [(String, Double, Double, Double, Double, Double, Double)] = [
        ("Flinders Peak to Buninyong (Vincenty 1975)", -37.95103342, 144.42486789, -37.65282114, 143.92649554, 54972.2705, 306.8682),
        ("100 km north-east of Seoul", 37.5178, 126.8863, 38.1525, 127.7322, 102505.9117, 46.3287),
        ("across the antimeridian in Fiji", -16.8, 179.9, -17.1, -179.8, 46079.8121, 136.1396),
        ("near the north pole", 89.9, 0, 89.9, 180, 22338.7957, 0.0000),
        ("nearly antipodal on the equator", 0, 0, 0.5, 179.7, 19944127.4208, 15.5569),
        ("antipodal beyond the equator's reach", 0, 0, 0, 179.5, 19980861.9089, 55.9665),
        ("nearly antipodal, mid latitudes", 40, -3.7, -40.3, 176.5, 19968633.8737, 193.3632),
        ("JFK to Singapore", 40.64, -73.78, 1.36, 103.99, 15347512.9405, 3.3058),
        ("one metre", 51.5, 0, 51.500009, 0, 1.0013, 0.0000),
    ]

    private func location(_ latitude: Double, _ longitude: Double) throws -> Location {
        try Location(latitude: latitude, longitude: longitude, mode: .twoDimensional)
    }

    @Test(arguments: cases.map(\.0))
    func distanceAndBearingMatchKarney(_ name: String) throws {
        let (_, latitude1, longitude1, latitude2, longitude2, distance, bearing) = try #require(Self.cases.first { $0.0 == name })
        let start = try location(latitude1, longitude1)
        let end = try location(latitude2, longitude2)
        #expect(abs(end.distance(from: start) - distance) < 0.1)
        #expect(abs(start.distance(from: end) - distance) < 0.1, "the same both ways")
        let found = try #require(start.bearing(to: end))
        let difference = abs(found - bearing).truncatingRemainder(dividingBy: 360)
        #expect(min(difference, 360 - difference) < 0.1)
    }

    @Test func polesAndAntipodesHaveTheirMeridianLengths() throws {
        let halfMeridian = 20_003_931.4586
        #expect(abs(try location(90, 0).distance(from: try location(-90, 0)) - halfMeridian) < 0.1)
        #expect(abs(try location(10, 0).distance(from: try location(-10, 180)) - halfMeridian) < 0.1)
        #expect(abs(try location(0, 0).distance(from: try location(0, 180)) - halfMeridian) < 0.1)
    }

    @Test func aPointHasNoDistanceAndNoBearingToItself() throws {
        let point = try location(37.5, 126.9)
        #expect(point.distance(from: point) == 0)
        #expect(point.bearing(to: point) == nil)
        #expect(try location(90, 0).bearing(to: point) == nil, "no direction is defined at a pole")
    }
}
