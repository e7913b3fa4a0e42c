import Foundation
import GPSLocation
import Testing

@testable import LocateFleet

/// Per-device detection: each device's events are those of a monitor of its own, the bound on
/// devices holds, and a fleet's records are parsed or refused by their rules.
struct FleetDetectorTests {
    /// Home, and a depot 1.1 km north of it.
    private let home: CircularRegion, depot: CircularRegion

    init() throws {
        home = try CircularRegion(name: "home", latitude: 37.5178, longitude: 126.8863, radius: 100)
        depot = try CircularRegion(name: "depot", latitude: 37.5278, longitude: 126.8863, radius: 50)
    }

    /// The fix of device `name` `metres` north of home (5 m accurate), `second` seconds into 2026.
    private func device(_ name: String, north metres: Double, second: Double) throws -> DeviceLocation {
        let location = try Location(
            latitude: 37.5178 + metres / 110_990, longitude: 126.8863, time: Date(timeIntervalSince1970: 1_767_254_400 + second),
            horizontalAccuracy: 5, mode: .threeDimensional)
        return DeviceLocation(device: name, location: location)
    }

    private func summary(_ event: RegionEvent) -> String {
        "\(event.region.name) \(event.kind.rawValue) \(event.state.rawValue) \(event.since.map { "\($0.timeIntervalSince1970)" } ?? "-")"
    }

    @Test func eachDevicesEventsAreThoseOfAMonitorOfItsOwn() throws {
        let regions = [home, depot]
        var fleet = DeviceRegionMonitor(RegionMonitor(regions: regions))
        var own: [String: RegionMonitor] = [:]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<400 {
            let name = "d\(Int.random(in: 0..<7, using: &generator))"
            let record = try device(name, north: [0, 300, 1111, -400].randomElement(using: &generator) ?? 0, second: Double(step))
            var monitor = own[name] ?? RegionMonitor(regions: regions)
            let expected = monitor.process(record.location).map(summary)
            own[name] = monitor
            #expect(fleet.process(record)?.map(summary) == expected)
        }
        #expect(fleet.deviceCount == own.count)
    }

    @Test func aNewDeviceBeyondTheBoundIsNotProcessed() throws {
        var fleet = DeviceRegionMonitor(RegionMonitor(regions: [home]), maximumDevices: 2)
        #expect(fleet.process(try device("a", north: 0, second: 0))?.count == 1)
        #expect(fleet.process(try device("b", north: 0, second: 0))?.count == 1)
        #expect(fleet.process(try device("c", north: 0, second: 0)) == nil)
        #expect(fleet.process(try device("a", north: 500, second: 1))?.map(\.kind) == [.exit])
        #expect(fleet.deviceCount == 2)
        var visits = DeviceEventDetector(try VisitDetector(), maximumDevices: 1)
        let (a, b) = (try device("a", north: 0, second: 0), try device("b", north: 0, second: 0))
        #expect(visits.process(a) != nil && visits.process(b) == nil)
    }

    @Test func recordsAreReadOrRefusedByTheirRules() throws {
        let ownTracks = #"{"_type":"location","lat":52.5,"lon":13.25,"tst":1767225600,"acc":7,"tid":"ab"}"#
        let byTopic = try #require(try DeviceLocation.parse(line: ArraySlice(("owntracks/u/ph " + ownTracks).utf8), by: .topic))
        #expect(byTopic.device == "owntracks/u/ph" && byTopic.location.latitude == 52.5 && byTopic.location.horizontalAccuracy == 7)
        #expect(byTopic.location.time == Date(timeIntervalSince1970: 1_767_225_600) && byTopic.location.source == .replay)
        #expect(try DeviceLocation.parse(line: ArraySlice(ownTracks.utf8), by: DeviceKey("tid"))?.device == "ab")
        let fix = #"{"type":"fix","lat":1,"lon":2,"time":"2026-01-01T00:00:00Z","van":12}"#
        #expect(try DeviceLocation.parse(line: ArraySlice(fix.utf8), by: .field("van"))?.device == "12")
        // Not a position: skipped without a word.
        #expect(try DeviceLocation.parse(line: ArraySlice(#"t {"_type":"transition","lat":1,"lon":2}"#.utf8), by: .topic) == nil)
        #expect(try DeviceLocation.parse(line: ArraySlice(#"{"type":"status","event":"no_fix"}"#.utf8), by: .field("x")) == nil)
        for hostile in [
            "{", "t\u{1B}[2J {\"lat\":1,\"lon\":2}", "{\"_type\":\"location\",\"lat\":91,\"lon\":2,\"tid\":\"a\"}",
            "{\"_type\":\"location\",\"lat\":1,\"lon\":2}", "{\"_type\":\"location\",\"lat\":1,\"lon\":2,\"tid\":\"a b\"}",
            "{\"_type\":\"location\",\"lat\":\"1\",\"lon\":2,\"tid\":\"a\"}", "topic-without-payload",
            "t {\"lat\":1,\"lon\":2,\"tid\":\"" + String(repeating: "x", count: 300) + "\"}",
        ] {
            #expect(throws: DeviceRecordProblem.self, "\(hostile)") {
                try DeviceLocation.parse(line: ArraySlice(hostile.utf8), by: .field("tid"))
            }
        }
    }
}
