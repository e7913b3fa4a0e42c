import Testing

@testable import GPSLocation

struct AccuracyReducerTests {
    private func fix(_ latitude: Double, _ longitude: Double) -> Location {
        Location(
            unchecked: latitude, longitude: longitude, altitudeMSL: 12, horizontalAccuracy: 3, speed: 2, course: 90, climb: 0.5,
            mode: .threeDimensional)
    }

    @Test func snapsToTheCellCentreAndDropsEverythingFiner() throws {
        var reducer = AccuracyReducer()
        let output = reducer.reduce(fix(64.1504321, -21.9404567), at: nil)
        let reduced = try #require(output)
        let cell = AccuracyReducer.Cell(containingLatitude: 64.1504321, longitude: -21.9404567)
        #expect(reduced.latitude == cell.centreLatitude && reduced.longitude == cell.centreLongitude)
        #expect(reduced.horizontalAccuracy == AccuracyReducer.cellSize)
        #expect(reduced.altitudeMSL == nil && reduced.speed == nil && reduced.course == nil && reduced.climb == nil)
        #expect(reduced.accuracy == .reducedAccuracy)
        #expect(AccuracyReducer.cellSize > 5000)
    }

    @Test func everyPointOfACellGivesTheSamePointSoAveragingRecoversNothing() {
        let cell = AccuracyReducer.Cell(containingLatitude: 64.1504321, longitude: -21.9404567)
        var outputs: Set<String> = []
        for step in 0..<200 {
            var reducer = AccuracyReducer()
            let latitude = cell.centreLatitude - 0.024 + Double(step % 20) * 0.0024
            let longitude = cell.centreLongitude - 0.05 + Double(step / 20) * 0.01
            guard AccuracyReducer.Cell(containingLatitude: latitude, longitude: longitude) == cell,
                let reduced = reducer.reduce(fix(latitude, longitude), at: nil)
            else { continue }
            outputs.insert("\(reduced.latitude) \(reduced.longitude)")
        }
        #expect(outputs == ["\(cell.centreLatitude) \(cell.centreLongitude)"])
    }

    @Test func aStreamKeepsItsCellUntilWellPastTheBorderAndEmitsRarely() throws {
        var reducer = AccuracyReducer()
        let start = ContinuousClock.now
        let border = 64.15  // a row border: rows are 0.05 degrees
        let outputs = [
            reducer.reduce(fix(border - 0.001, -21.94), at: start),
            reducer.reduce(fix(border - 0.001, -21.94), at: start.advanced(by: .seconds(60))),
            reducer.reduce(fix(border + 0.001, -21.94), at: start.advanced(by: .seconds(301))),
            reducer.reduce(fix(border + 0.02, -21.94), at: start.advanced(by: .seconds(602))),
        ]
        let first = try #require(outputs[0])
        #expect(outputs[1] == nil, "at most one record per five minutes")
        #expect(outputs[2]?.latitude == first.latitude, "hysteresis keeps the old cell just over the border")
        #expect((outputs[3]?.latitude ?? 0) > first.latitude)
    }
}

struct AccuracyReducerGlobeTests {
    /// Latitudes and longitudes from pole to pole and across the antimeridian, edges included.
    private static let latitudes: [Double] = [-90, -89.999, -89.97, -60, -0.0001, 0, 45.5, 89.96, 89.999, 90]
    private static let longitudes: [Double] = [-180, -179.9999, -179.96, -90, 0, 33.3, 179.96, 179.9999, 180]

    @Test func everyCellCentreIsAValidCoordinateNearThePosition() {
        for latitude in Self.latitudes {
            for longitude in Self.longitudes {
                let cell = AccuracyReducer.Cell(containingLatitude: latitude, longitude: longitude)
                #expect((-90...90).contains(cell.centreLatitude), "\(latitude), \(longitude) -> \(cell.centreLatitude)")
                #expect((-180...180).contains(cell.centreLongitude), "\(latitude), \(longitude) -> \(cell.centreLongitude)")
                #expect(abs(cell.centreLatitude - latitude) <= AccuracyReducer.cellDegrees, "\(latitude)")
                #expect(cell.contains(latitude: latitude, longitude: longitude, margin: 0), "\(latitude), \(longitude)")
            }
        }
    }

    @Test func theAntimeridianIsOneBorderNotASeam() {
        // Both sides of 180° are cells of their own, and each is narrower than half the globe.
        let west = AccuracyReducer.Cell(containingLatitude: 10, longitude: 179.999)
        let east = AccuracyReducer.Cell(containingLatitude: 10, longitude: -179.999)
        #expect(west != east)
        #expect(west.centreLongitude > 179 && east.centreLongitude < -179)
    }
}
