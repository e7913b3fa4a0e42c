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
        let walk = try Self.walk.allLocations()
        // Played, each fix is checked against the one before: the walk has nothing suspect.
        let first = try await manager.requestLocation(accuracy: 10)
        #expect(first.latitude == walk[1].latitude && first.time == walk[1].time && first.integrity == .ok)
        do {
            _ = try await manager.requestLocation(accuracy: 1)
            Issue.record("no fix of the walk is within 1 m")
        } catch .accuracyNotReached(let timeout, let best) {
            #expect(timeout == .seconds(30) && best.latitude == walk[2].latitude && best.time == walk[2].time)
        } catch {
            Issue.record("\(error)")
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
