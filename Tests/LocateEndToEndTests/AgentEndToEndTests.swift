import Foundation
import Testing

/// `locate agent` on a system bus of the test's own, seen through Debian's D-Bus tools (GeoClue
/// itself: GeoClueEndToEndTests): the object it exports, the level that follows the settings, the
/// calls it refuses, and how it starts and ends.
@Suite(.enabled(if: PrivateBus.isAvailable, "dbus-daemon is not installed (apt install dbus): no private bus can run here"))
struct AgentEndToEndTests {
    static let object = "/org/freedesktop/GeoClue2/Agent"
    static let interface = "org.freedesktop.GeoClue2.Agent"

    /// A running agent on `bus` and its unique name there (from its AddAgent call, which the
    /// monitor saw).
    private func startAgent(on bus: PrivateBus, settings: SettingsHome) async throws -> (agent: RunningProcess, name: String) {
        let calls = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-monitor"), ["--address", bus.address, "type='method_call',member='AddAgent'"])
        try await calls.stdout.wait(for: "the monitor to watch") { calls.stdout.text.contains("NameLost") }
        let agent = try startLocate(["agent"], settings: settings, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        try await calls.stdout.wait(for: "the agent's AddAgent") { calls.stdout.text.contains("member=AddAgent") }
        let line = try #require(calls.stdout.lines.first { $0.contains("member=AddAgent") })
        let name = try #require(line.split(separator: " ").first { $0.hasPrefix("sender=") }).dropFirst(7)
        #expect(calls.stdout.text.contains(#"string "locate""#), "it registers as locate: \(calls.stdout.text)")
        return (agent, String(name))
    }

    @Test func itExportsItsLevelAndTellsEachChangeOfTheSettings() async throws {
        let bus = try await PrivateBus()
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n")
        let (agent, name) = try await startAgent(on: bus, settings: settings)
        try await agent.stderr.wait(for: "GeoClue's absence said") {
            agent.stderr.text.contains("GeoClue is not on the bus; waiting for it")
        }
        let object = ["--dest=" + name, Self.object]
        let level = try await bus.send(
            object + ["org.freedesktop.DBus.Properties.Get", "string:" + Self.interface, "string:MaxAccuracyLevel"])
        #expect(level.status == 0 && level.stdout.contains("uint32 8"), "\(level)")
        let shape = try await bus.send(object + ["org.freedesktop.DBus.Introspectable.Introspect"])
        #expect(shape.stdout.contains(#"<method name="AuthorizeApp">"#), "\(shape.stdout)")
        #expect(shape.stdout.contains(#"<arg type="s" name="desktop_id" direction="in"/>"#), "\(shape.stdout)")
        #expect(shape.stdout.contains(#"<arg type="u" name="allowed_accuracy_level" direction="out"/>"#), "\(shape.stdout)")

        let changes = try await bus.monitor(interface: "org.freedesktop.DBus.Properties")
        for (text, level) in [
            ("[location]\nauthorization = denied\n", 0), ("[location]\nauthorization = always\naccuracy = reduced\n", 4),
            ("[location]\nservices = off\n", 0), ("[location]\nauthorization = when-in-use\n", 8),
        ] {
            let before = changes.stdout.text.components(separatedBy: "member=PropertiesChanged").count
            try settings.write(text, to: settings.userFile)
            // The settings are watched: a change is taken within a tick (200 ms), and sent at once.
            try await changes.stdout.wait(timeout: 5, for: "PropertiesChanged to \(level)") {
                let sent = changes.stdout.text.components(separatedBy: "member=PropertiesChanged")
                return sent.count > before && sent.last?.contains("uint32 \(level)") == true
            }
            // Said on stderr too (read by the harness a moment after the bus's signal).
            try await agent.stderr.wait(timeout: 5, for: "the level said") {
                agent.stderr.text.contains("agent: MaxAccuracyLevel \(level)")
            }
        }
        let now = try await bus.send(
            object + ["org.freedesktop.DBus.Properties.Get", "string:" + Self.interface, "string:MaxAccuracyLevel"])
        #expect(now.stdout.contains("uint32 8"), "\(now)")
        agent.signal(SIGTERM)
        #expect(try await agent.waitForExit() == 0, "\(agent.stderr.text)")
    }

    @Test func itTakesCallsFromGeoClueAlone() async throws {
        let bus = try await PrivateBus()
        let settings = try SettingsHome(user: "[app \"org.example.Maps\"]\nauthorization = always\n")
        let (agent, name) = try await startAgent(on: bus, settings: settings)
        let asked = try await bus.send([
            "--dest=" + name, Self.object, Self.interface + ".AuthorizeApp", "string:org.example.Maps", "uint32:8",
        ])
        #expect(asked.status != 0 && asked.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(asked)")
        try await agent.stderr.wait(for: "the refusal said") { agent.stderr.text.contains(", not GeoClue: refused") }
        let access = try await runLocate(["access"], settings: settings)
        #expect(access.stdout.contains("Recent sessions: none"), "nobody was answered: \(access.stdout)")
        agent.signal(SIGINT)
        #expect(try await agent.waitForExit() == 0, "\(agent.stderr.text)")
    }

    /// A NameOwnerChanged sent to the agent by a peer, not by the bus (any local user may send
    /// signals): it changes nothing of who the agent takes for GeoClue.
    @Test func aForgedOwnerChangeIsNotTaken() async throws {
        let bus = try await PrivateBus()
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n")
        let (agent, name) = try await startAgent(on: bus, settings: settings)
        try await agent.stderr.wait(for: "GeoClue's absence said") {
            agent.stderr.text.contains("GeoClue is not on the bus; waiting for it")
        }
        let forged = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-send"),
            [
                "--bus=" + bus.address, "--type=signal", "--dest=" + name, "/org/freedesktop/DBus", "org.freedesktop.DBus.NameOwnerChanged",
                "string:org.freedesktop.GeoClue2", "string:", "string::1.999",
            ])
        #expect(try await forged.waitForExit() == 0, "\(forged.stderr.text)")
        // A call after it: once it is refused, the signal before it was handled.
        _ = try await bus.send(["--dest=" + name, Self.object, Self.interface + ".AuthorizeApp", "string:org.example.Maps", "uint32:8"])
        try await agent.stderr.wait(for: "the refusal said") { agent.stderr.text.contains(", not GeoClue: refused") }
        #expect(agent.stderr.text.components(separatedBy: "GeoClue is not on the bus").count == 2, "\(agent.stderr.text)")
        agent.signal(SIGTERM)
        #expect(try await agent.waitForExit() == 0)
    }

    @Test func withoutABusItEndsWith69() async throws {
        let settings = try SettingsHome.allowingAlways()
        let run = try await runLocate(
            ["agent"], settings: settings, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(settings.root.path)/no-bus"])
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("agent: the bus: cannot connect to the system bus"), "\(run.stderr)")
    }

    @Test func unreadableSettingsAtTheStartEndItWith78() async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = sometimes\n")
        let run = try await runLocate(["agent"], settings: settings, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"])
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains("locate.conf:2"), "\(run.stderr)")
    }

    @Test func anArgumentIsAUsageError() async throws {
        let run = try await runLocate(["agent", "localhost"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("unexpected argument 'localhost'") && run.stderr.contains("Usage: locate agent"), "\(run.stderr)")
    }
}
