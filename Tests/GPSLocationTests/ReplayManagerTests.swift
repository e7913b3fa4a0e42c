import Foundation
import GPSLocation
import Testing

/// A manager over a host's own track: what an app's tests do instead of starting gpsd.
struct ReplayManagerTests {
    /// A walk north through `RegionMonitorTests.home`, one fix a second, accuracies 20, 8, 5, 5 ...
    static let walk = ReplayTrack(
        locations: stride(from: -300.0, through: 300, by: 50).enumerated().map { index, north in
            RegionMonitorTests.fix(north: north, accuracy: index == 0 ? 20 : index == 1 ? 8 : 5, second: Double(index))
        })

    @Test func aLiveStreamGivesTheTracksFixesInOrderMarkedReplayThenEnds() async throws {
        let manager = GPSLocationManager(replaying: Self.walk, speed: 0)
        var latitudes: [Double] = []
        for try await update in await manager.liveUpdates() {
            guard case .location(let location) = update else { continue }
            #expect(location.source == .replay)
            latitudes.append(location.latitude)
        }
        #expect(latitudes == (try Self.walk.allLocations()).map(\.latitude))
        #expect(manager.authorizationStatus == .authorizedAlways, "a replay needs no permission")
    }

    @Test func aRequestTakesTheFirstFixAccurateEnough() async throws {
        let manager = GPSLocationManager(replaying: Self.walk, speed: 0)
        #expect(try await manager.requestLocation(accuracy: 10) == (try Self.walk.allLocations())[1])
        await #expect(throws: GPSLocationError.accuracyNotReached(timeout: .seconds(30), bestSeen: (try Self.walk.allLocations())[2])) {
            try await manager.requestLocation(accuracy: 1)
        }
    }

    @Test func regionEventsComeFromTheSameStream() async throws {
        let manager = GPSLocationManager(replaying: Self.walk, speed: 0)
        var events: [String] = []
        for try await update in await manager.events(from: RegionMonitor(regions: [RegionMonitorTests.home])) {
            if case .event(let event) = update { events.append("\(event.kind.rawValue) \(event.state.rawValue)") }
        }
        #expect(events == ["initial outside", "enter inside", "exit outside"])
    }
}
