import Testing
@testable import GPSLocation

struct AccuracyReducerTests {
    private func fix(_ latitude: Double, _ longitude: Double) -> Location {
        Location(latitude: latitude, longitude: longitude, altitudeMSL: 12, horizontalAccuracy: 3, speed: 2, course: 90, climb: 0.5, mode: .threeDimensional)
    }

    @Test func snapsToTheCellCentreAndDropsEverythingFiner() throws {
        var reducer = AccuracyReducer()
        let output = reducer.reduce(fix(64.1504321, -21.9404567), at: nil)
        let reduced = try #require(output)
        let cell = AccuracyReducer.Cell(containingLatitude: 64.1504321, longitude: -21.9404567)
        #expect(reduced.latitude == cell.centreLatitude && reduced.longitude == cell.centreLongitude)
        #expect(reduced.horizontalAccuracy == AccuracyReducer.cellSize)
        #expect(reduced.altitudeMSL == nil && reduced.speed == nil && reduced.course == nil && reduced.climb == nil)
        #expect(reduced.accuracy == .reduced)
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
                  let reduced = reducer.reduce(fix(latitude, longitude), at: nil) else { continue }
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
