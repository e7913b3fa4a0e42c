import AuthorizationFixtures
import Foundation
import GPSLocation
import Observation
import Synchronization
import Testing

/// The programs a CoreLocation developer writes first, written against the library's public API
/// as its docs show them, in process: a weather app, a running app, an `@Observable`
/// authorization model, a geofence with visits, a Swift Testing suite over a GPX replay, a
/// main-actor prompter, and a desktop app that comes and goes. A real gpsd (Scripts/simulate)
/// where the receiver matters, a replay where it does not.
struct AppCaseTests {
    /// A manager of `source` reading `gpsd`.
    private func manager(
        _ source: any AuthorizationSource, _ gpsd: GpsdServer, appState: AppState = .foreground
    ) throws -> GPSLocationManager {
        GPSLocationManager(
            authorizationSource: source, configuration: GPSLocationConfiguration(endpoint: try GPSDEndpoint(parsing: gpsd.endpoint)),
            appState: appState)
    }

    /// `count` fixes one second apart, walking north 10 m a second from 64 N 22 W.
    private static func walk(_ count: Int) throws -> [Location] {
        try (0..<count).map { second in
            try Location(
                latitude: 64 + Double(second) * 10 / 111_195, longitude: -22,
                time: Date(timeIntervalSince1970: 1_767_254_400 + Double(second)), horizontalAccuracy: 3, mode: .threeDimensional)
        }
    }

    /// The weather app under "approximate location": the cell at once, even when it asked for
    /// 5 m, as iOS answers.
    @Test func aWeatherAppUnderReducedAccuracyGetsTheCellAtOnce() async throws {
        let gpsd = try await GpsdServer(track: "weather")
        let source = StaticAuthorization(AuthorizationDecision(status: .authorizedWhenInUse, accuracy: .reducedAccuracy))
        let manager = try manager(source, gpsd)
        let started = ContinuousClock.now
        let here = try await manager.requestLocation(accuracy: 5, timeout: .seconds(20))
        // Half the timeout: this task may get a thread of the cooperative pool back seconds late
        // when other tests hold both; the cell itself comes with the first fix, in about 1.5 s.
        #expect(started.duration(to: .now) < .seconds(10), "not the whole timeout")
        #expect(here.accuracy == .reducedAccuracy && here.horizontalAccuracy ?? 0 > 5000)
        #expect(abs(here.latitude - 64.1504321) > 1e-4 || abs(here.longitude + 21.9404567) > 1e-4, "the cell, not the fix")
        #expect(manager.location == here, "the last location, as released")
    }

    /// The running app: a stream with a distance filter, as many fixes as it moved tens of metres.
    @Test func aRunningAppGetsAFixEveryTenMetres() async throws {
        let manager = GPSLocationManager(replaying: ReplayTrack(locations: try Self.walk(60)), speed: 0)
        var fixes = 0
        for try await case .location in await manager.liveUpdates(try LiveUpdateOptions(distanceFilter: 50)) { fixes += 1 }
        #expect(fixes == 12, "590 m walked, a fix every 50 m from the first")
    }

    @MainActor @Test func anObservableModelFollowsTheAuthorization() async throws {
        let source = MemoryAuthorizationSource(AuthorizationDecision(status: .authorizedWhenInUse), app: "app")
        let manager = GPSLocationManager(authorizationSource: source, appState: .foreground)
        let model = AuthorizationModel()
        let following = Task { try await model.follow(manager) }
        defer { following.cancel() }
        try await waitOnMainActor("the model to see when-in-use") { model.isAuthorized }
        source.decide(AuthorizationDecision(status: .denied))
        try await waitOnMainActor("the model to see the deny") { model.status == .denied && !model.isAuthorized }
    }

    /// A geofence and visits over the same walk: enter, then a visit at the far end.
    @Test func aGeofenceAndVisitsOverAReplay() async throws {
        var track = try Self.walk(30)
        let last = try #require(track.last)
        for second in 1...600 {
            track.append(
                try Location(
                    latitude: last.latitude, longitude: last.longitude, time: last.time?.addingTimeInterval(Double(second)),
                    horizontalAccuracy: 3, mode: .threeDimensional))
        }
        let far = try CircularRegion(name: "far", latitude: last.latitude, longitude: last.longitude, radius: 20)
        let regions = GPSLocationManager(replaying: ReplayTrack(locations: track), speed: 0)
        var kinds: [RegionEvent.Kind] = []
        for try await case .event(let event) in await regions.events(from: RegionMonitor(regions: [far])) { kinds.append(event.kind) }
        #expect(kinds == [.initial, .enter])
        let visits = GPSLocationManager(replaying: ReplayTrack(locations: track), speed: 0)
        var arrivals: [Date] = []
        for try await case .event(let event) in await visits.events(from: try VisitDetector(radius: 50, dwell: .seconds(300))) {
            if event.kind == .arrival { arrivals.append(event.visit.arrival) }
        }
        #expect(arrivals.count == 1)
        #expect(
            arrivals.first.map { $0.timeIntervalSince1970 >= 1_767_254_400 + 24 } == true, "dated by the receiver: the stay's first fix")
    }

    /// A Swift Testing suite of interval logic over a GPX file: a replay gives the same records at
    /// any speed, as the filters count receiver time.
    @Test(arguments: [0.0, 20.0])
    func theIntervalFilterOverAGPXReplayIsTheSameAtAnySpeed(speed: Double) async throws {
        let points = (0..<20).map { second in
            "<trkpt lat=\"64.0\" lon=\"\(-22 + Double(second) * 0.001)\"><time>2026-01-01T08:00:\(String(format: "%02d", second))Z</time></trkpt>"
        }
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            \(points.joined(separator: "\n"))
            </trkseg></trk></gpx>
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("interval-\(UUID().uuidString).gpx")
        try Data(gpx.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let manager = GPSLocationManager(replaying: try ReplayTrack(contentsOf: file.path), speed: speed)
        var seconds: [Int] = []
        for try await case .location(let fix) in await manager.liveUpdates(try LiveUpdateOptions(minimumInterval: .seconds(5))) {
            seconds.append(Int((fix.time?.timeIntervalSince1970 ?? 0) - 1_767_254_400))
        }
        #expect(seconds == [0, 5, 10, 15], "speed \(speed)")
    }

    @MainActor @Test func aMainActorPrompterIsAskedOnceAndItsAnswerKept() async throws {
        let source = MemoryAuthorizationSource(AuthorizationDecision(status: .notDetermined), app: "app")
        let manager = GPSLocationManager(authorizationSource: source, appState: .foreground)
        let dialog = Dialog()
        async let first = manager.requestWhenInUseAuthorization(purpose: "to show the weather here", prompter: dialog)
        async let second = manager.requestWhenInUseAuthorization(purpose: "to show the weather here", prompter: dialog)
        let answers = try await [first, second]
        let allAuthorized = answers.allSatisfy { $0.isAuthorized }
        #expect(allAuthorized)
        #expect(dialog.questions.count == 1, "one prompt for both requests")
        #expect(source.recorded == [.authorizedWhenInUse])
    }

    /// A desktop app tells the manager when its window goes away and comes back: a when-in-use
    /// stream pauses and resumes, without a terminal.
    @Test func aDesktopAppPausesAndResumesWithItsWindow() async throws {
        let gpsd = try await GpsdServer(track: "weather")
        let manager = try manager(StaticAuthorization(AuthorizationDecision(status: .authorizedWhenInUse)), gpsd)
        var updates = await manager.liveUpdates().makeAsyncIterator()
        var seen: [String] = []
        while let update = try await updates.next() {
            switch update {
            case .location:
                seen.append("fix")
                if seen.filter({ $0 == "fix" }).count == 1 { manager.setAppState(.background) }
            case .status(let event):
                seen.append(event.name)
                if case .paused = event { manager.setAppState(.foreground) }
            }
            if seen.last == "fix", seen.contains("resumed") { break }
        }
        #expect(seen.first == "fix")
        let paused = try #require(seen.firstIndex(of: "paused"))
        let resumed = try #require(seen.firstIndex(of: "resumed"))
        #expect(paused < resumed && !seen[paused..<resumed].contains("fix"), "\(seen): no fix while in the background")
    }
}

/// An `@Observable` model of the authorization, as a SwiftUI view would watch it.
@MainActor @Observable final class AuthorizationModel {
    var status: AuthorizationStatus = .notDetermined
    var isAuthorized = false

    func follow(_ manager: GPSLocationManager) async throws {
        for try await authorization in manager.authorizationUpdates() {
            status = authorization.status
            isAuthorized = authorization.isAuthorized
        }
    }
}

/// A main-actor prompter, as a dialog is: asked once, its answer kept by the source.
@MainActor final class Dialog: AuthorizationPrompter {
    var questions: [AuthorizationQuestion] = []

    func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? {
        questions.append(question)
        return .allowWhileUsing
    }
}

/// Waits on the main actor, with a deadline, until `condition` holds (the model's own isolation).
@MainActor
private func waitOnMainActor(_ what: String, timeout: Duration = .seconds(20), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw HarnessError(description: "timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
