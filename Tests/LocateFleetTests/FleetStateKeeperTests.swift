import Foundation
import GPSLocation
import Testing

@testable import LocateFleet

/// A fleet's states kept and taken up: a detector stopped anywhere and taken up from its kept
/// states gives the events one that never stopped gives; the store keeps them per monitor and
/// definition; what an earlier run took is known by its time.
final class FleetStateKeeperTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-fleet-\(UUID().uuidString)").path

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A random walk of `devices` around a region (in, near, out) with stays, one fix a 30 s.
    private func walk(devices: Int, steps: Int) throws -> [DeviceLocation] {
        var generator = SystemRandomNumberGenerator()
        return try (0..<steps).map { step in
            let norths: [Double] = [0, 20, 80, 300, 1500]
            let north = norths.randomElement(using: &generator) ?? 0
            let location = try Location(
                latitude: 37.5178 + north / 110_990, longitude: 126.8863,
                time: Date(timeIntervalSince1970: 1_767_254_400 + 30 * Double(step)),
                horizontalAccuracy: 5, mode: .threeDimensional)
            return DeviceLocation(device: "d\(Int.random(in: 0..<devices, using: &generator))", location: location)
        }
    }

    /// The events of `records` through `detector`, stopped after each of `stops` and taken up from
    /// its kept states (through the store) in a new detector made by `make`.
    private func events<Detector: FleetDetector>(
        _ records: [DeviceLocation], stops: Set<Int>, make: () throws -> Detector
    ) throws -> [String] {
        var detector = try make()
        var keeper: FleetStateKeeper? = try FleetStateKeeper(directory: directory, monitor: "m-\(stops.count)", detector: &detector)
        var out: [String] = []
        for (index, record) in records.enumerated() {
            out += (detector.process(record) ?? []).map { "\(record.device) \($0)" }
            keeper?.noteTaken(device: record.device, time: record.location.time?.timeIntervalSince1970)
            if stops.contains(index) {
                try keeper?.commit(detector)
                // The run ends (its lock with it); the next takes its states up.
                keeper = nil
                detector = try make()
                keeper = try FleetStateKeeper(directory: directory, monitor: "m-\(stops.count)", detector: &detector)
                // What was taken is known again (a broker sending the batch again).
                #expect(keeper?.isTaken(device: record.device, time: record.location.time?.timeIntervalSince1970) == true)
            }
        }
        return out
    }

    @Test func regionsAndVisitsTakenUpGiveWhatNeverStoppingGives() throws {
        let records = try walk(devices: 5, steps: 600)
        let stops: Set<Int> = [17, 18, 200, 333, 599]
        let region = try CircularRegion(name: "home", latitude: 37.5178, longitude: 126.8863, radius: 100)
        let regions = { DeviceRegionMonitor(RegionMonitor(regions: [region])) }
        #expect(try events(records, stops: stops, make: regions) == events(records, stops: [], make: regions))
        let visits = { DeviceEventDetector(try VisitDetector(radius: 50, dwell: .seconds(120))) }
        let continuous = try events(records, stops: [], make: visits)
        #expect(try events(records, stops: stops, make: visits) == continuous)
        #expect(continuous.contains { $0.contains("arrival") }, "the walk has visits")
    }

    @Test func anotherDefinitionStartsAfreshAndBytesThatAreNoStateAreRefused() throws {
        let near = try CircularRegion(name: "home", latitude: 37.5178, longitude: 126.8863, radius: 100)
        let far = try CircularRegion(name: "home", latitude: 37.6, longitude: 126.8863, radius: 100)
        var first = DeviceRegionMonitor(RegionMonitor(regions: [near]))
        var keeper: FleetStateKeeper? = try FleetStateKeeper(directory: directory, monitor: "m", detector: &first)
        for record in try walk(devices: 3, steps: 20) {
            _ = first.process(record)
            keeper?.noteTaken(device: record.device, time: record.location.time?.timeIntervalSince1970)
        }
        try keeper?.commit(first)
        keeper = nil
        keeper = try FleetStateKeeper(directory: directory, monitor: "m", detector: &first)
        #expect(keeper?.restored == 3 && keeper?.dropped == 0)
        // A second run of the same monitor meanwhile is refused.
        #expect(throws: FleetStateKeeper.Failure.self) { try FleetStateKeeper(directory: directory, monitor: "m", detector: &first) }
        keeper = nil
        var moved = DeviceRegionMonitor(RegionMonitor(regions: [far]))
        let again = try FleetStateKeeper(directory: directory, monitor: "m", detector: &moved)
        #expect(again.restored == 0 && again.dropped == 3 && moved.deviceCount == 0)
        let garbage = moved.restore("x", encodedState: [1, 2, 3])
        #expect(!garbage)
        var visits = try VisitDetector()
        let refused = visits.restore(encodedState: [UInt8](repeating: 0xFF, count: 88))
        let emptied = visits.restore(encodedState: [])
        #expect(!refused && emptied)
    }
}
