import Foundation
import Testing

/// `locate agent` as Debian's GeoClue 2.6 sees it, on a private system bus (Scripts/with-geoclue),
/// GeoClue's NMEA source reading the receiver through `locate serve --nmea`: its where-am-i demo
/// served with the agent registered and not without one, stopped at once by a global deny, and
/// Flatpak-looking clients answered each by its own section, every answer in `locate access`.
@Suite(
    .enabled(
        if: PrivateBus.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/libexec/geoclue"),
        "GeoClue or dbus-daemon is not installed (apt install geoclue-2.0 geoclue-2-demo dbus): no GeoClue can run here"))
struct GeoClueEndToEndTests {
    /// The section that lets serve give GeoClue's NMEA source the receiver (`/usr/libexec/geoclue`).
    static let feeding = "[app \"geoclue\"]\nauthorization = always\n"

    /// gpsd replaying the running track, and `locate serve --nmea` feeding GeoClue's NMEA source from it.
    struct Feed {
        let gpsd: GpsdServer
        let serve: ServeProcess
        let socket: String
        let settings: SettingsHome

        init(_ settings: SettingsHome) async throws {
            gpsd = try await GpsdServer(track: "running")
            socket = settings.root.appendingPathComponent("nmea.sock").path
            serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, arguments: ["--nmea", socket])
            self.settings = settings
        }

        /// Scripts/with-geoclue on this feed with `arguments`, locate's agent by default, with the test's settings.
        func geoClue(_ arguments: [String], agent: Bool = true) throws -> RunningProcess {
            try RunningProcess(
                Package.root.appendingPathComponent("Scripts/with-geoclue"),
                ["--nmea-socket", socket] + (agent ? ["--agent", Package.locate.path] : ["--no-agent"]) + arguments,
                environment: settings.environment)
        }
    }

    /// The latitudes where-am-i printed (of the client `app`, for Flatpak-looking clients).
    private func latitudes(_ text: String, app: String? = nil) -> [Double] {
        let prefix = (app.map { "[\($0)] " } ?? "") + "Latitude:"
        return gpsdLines(text).filter { $0.hasPrefix(prefix) }.compactMap {
            Double($0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "°", with: ""))
        }
    }

    private func areOnTheTrack(_ latitudes: [Double]) throws -> Bool {
        let track = try trackPoints("running")
        return !latitudes.isEmpty && latitudes.allSatisfy { latitude in track.contains { abs($0.latitude - latitude) < 2e-6 } }
    }

    @Test func whereAmIGetsTheReceiversPositionWithTheAgentAndNothingWithout() async throws {
        guard runsAsRoot() else { return }  // GeoClue's configuration is bind-mounted in a mount namespace of its own
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n" + Self.feeding)
        let feed = try await Feed(settings)
        let served = try feed.geoClue(["--seconds", "4"])
        #expect(try await served.waitForExit(timeout: 60) == 0, "\(served.stderr.text)")
        #expect(try areOnTheTrack(latitudes(served.stdout.text)), "\(served.stdout.text)")
        // The agent came first, as a session's does, and registered when GeoClue came onto the bus.
        #expect(served.stderr.text.contains("agent: GeoClue is not on the bus; waiting for it"), "\(served.stderr.text)")
        #expect(served.stderr.text.contains("agent: registered with GeoClue as its agent 'locate'"), "\(served.stderr.text)")

        let alone = try feed.geoClue(["--seconds", "3"], agent: false)
        #expect(try await alone.waitForExit(timeout: 60) == 0, "\(alone.stderr.text)")
        #expect(latitudes(alone.stdout.text).isEmpty, "no agent, no position: \(alone.stdout.text)")
        #expect(feed.serve.run.process.isRunning)
    }

    @Test func aGlobalDenyStopsGeoCluesClientsAtOnceAndRefusesTheNext() async throws {
        guard runsAsRoot() else { return }
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n" + Self.feeding)
        let feed = try await Feed(settings)
        let running = try feed.geoClue(["--seconds", "20", "--log"])
        try await running.stdout.wait(timeout: 40, for: "a position") { !latitudes(running.stdout.text).isEmpty }
        // The receiver still reaches GeoClue (its own section allows it): the agent alone stops the client.
        try settings.write("[location]\nauthorization = denied\n" + Self.feeding, to: settings.userFile)
        try await running.stderr.wait(for: "the level 0") { running.stderr.text.contains("agent: MaxAccuracyLevel 0 (none)") }
        #expect(try await running.waitForExit(timeout: 60) == 0, "\(running.stderr.text)")
        #expect(running.stderr.text.contains("Stopped 'geoclue-where-am-i'."), "GeoClue stopped its client: \(running.stderr.text)")

        let next = try feed.geoClue(["--seconds", "3"])
        #expect(try await next.waitForExit(timeout: 60) != 0)
        #expect(latitudes(next.stdout.text).isEmpty, "\(next.stdout.text)")
        #expect(next.stderr.text.contains("Geolocation disabled for UID 0"), "\(next.stderr.text)")
    }

    @Test func flatpakAppsAreAnsweredEachByItsOwnSectionAndListedInAccess() async throws {
        guard runsAsRoot() else { return }  // a cgroup line is bind-mounted over each client's in GeoClue's namespace
        let settings = try SettingsHome(
            user: """
                [location]
                authorization = always
                [app "org.example.Maps"]
                authorization = always
                [app "org.example.Weather"]
                authorization = when-in-use
                accuracy = reduced
                [app "org.example.Spy"]
                authorization = denied

                """ + Self.feeding)
        let feed = try await Feed(settings)
        let apps = ["org.example.Maps", "org.example.Weather", "org.example.Spy"]
        let run = try feed.geoClue(["--seconds", "6"] + apps.flatMap { ["--flatpak", $0] })
        #expect(try await run.waitForExit(timeout: 60) == 0, "\(run.stderr.text)")
        let output = run.stdout.text
        #expect(try areOnTheTrack(latitudes(output, app: "org.example.Maps")), "\(output)")
        // The city: GeoClue 2.6 does not start its NMEA source for it, so nothing comes, but no refusal either.
        #expect(latitudes(output, app: "org.example.Weather").isEmpty && !output.contains("[org.example.Weather] ** "), "\(output)")
        #expect(output.contains("[org.example.Spy] ") && output.contains("Agent rejected 'org.example.Spy'"), "\(output)")
        #expect(latitudes(output, app: "org.example.Spy").isEmpty)

        let access = try await runLocate(["access", "--json"], settings: settings)
        let answers = try gpsdLines(access.stdout).map(jsonObject).filter { $0["via"] as? String == "agent" }
        let levels = Dictionary(uniqueKeysWithValues: answers.map { ($0["app"] as? String ?? "", $0["accuracy_level"] as? Int ?? -1) })
        #expect(levels == ["org.example.Maps": 8, "org.example.Weather": 4, "org.example.Spy": 0], "\(access.stdout)")
        #expect(answers.first { $0["app"] as? String == "org.example.Spy" }?["denial"] as? String == "denied")
        #expect(!leaksParkedCoordinate(access.stdout), "never a position")
        let listed = try await runLocate(["access"], settings: settings)
        #expect(listed.stdout.contains("org.example.Maps (user 0, via agent) since "), "\(listed.stdout)")
        #expect(listed.stdout.contains(": allowed up to GeoClue's accuracy level 4"), "\(listed.stdout)")
        #expect(listed.stdout.contains("org.example.Spy (user 0, via agent) since ") && listed.stdout.contains(": refused (denied)"))
    }
}
