import Foundation
import Testing

/// The permission model end to end: the built `locate`, a real gpsd replaying the parked track
/// (a distinctive place: 64.1504321 N, 21.9404567 W), and settings in a private settings home.
struct PermissionEndToEndTests {
    private static let fallbackText = "37.517829 126.886270\n"

    /// Not-authorized states: (name, user file, policy file, reason, a phrase of the message).
    private static let unauthorizedStates: [(String, String?, String?, String, String)] = [
        ("services off by the user", "[location]\nservices = off\nauthorization = always\n", nil, "services_off", "set 'services = on'"),
        (
            "services off by policy", "[location]\nauthorization = always\n", "[location]\nservices = off\n", "services_off",
            "ask your administrator"
        ),
        ("not determined", nil, nil, "not_determined", "locate permission allow"),
        (
            "restricted", "[location]\nauthorization = always\n", "[location]\nauthorization = restricted\n", "restricted",
            "cannot be changed by the user"
        ),
        ("denied", "[location]\nauthorization = denied\n", nil, "denied", "allow it with: locate permission allow"),
        ("when in use, no terminal", "[location]\nauthorization = when-in-use\n", nil, "background", "locate permission allow --always"),
    ]

    @Test func everyUnauthorizedStatePrintsTheFallbackAndNeverThePosition() async throws {
        #expect(leaksParkedCoordinate("64.150432 -21.940457\n") && leaksParkedCoordinate(#""lat":64.2,"#), "the leak check itself works")
        #expect(!leaksParkedCoordinate(#"{"pid":6415,"started":"2026-12-02T23:56:21.950Z"}"#), "times and pids are no coordinate")
        let receiver = try await GpsdServer(track: "weather")
        for (name, user, policy, reason, phrase) in Self.unauthorizedStates {
            for mode in [["--once"], ["--follow", "--count", "1"]] {
                for json in [false, true] {
                    let settings = try SettingsHome(user: user, policy: policy)
                    let run = try await runLocate(mode + (json ? ["--json"] : []) + [receiver.endpoint], settings: settings)
                    let label = "\(name), \(mode[0]), \(json ? "json" : "text")"
                    #expect(run.status == 77, "\(label)")
                    #expect(run.stderr.contains(phrase), "\(label): \(run.stderr)")
                    if json {
                        let record = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
                        #expect(record["source"] as? String == "fallback", "\(label)")
                        #expect(record["reason"] as? String == reason, "\(label)")
                        #expect(record["lat"] as? Double == 37.517829 && record["lon"] as? Double == 126.88627, "\(label)")
                    } else {
                        #expect(run.stdout == Self.fallbackText, "\(label)")
                    }
                    let known = [settings.root.path, receiver.endpoint]
                    #expect(
                        !leaksParkedCoordinate(run.stdout, known: known) && !leaksParkedCoordinate(run.stderr, known: known),
                        "\(label) leaked")
                    for file in settings.allFiles() {
                        #expect(
                            !leaksParkedCoordinate(String(decoding: file.content, as: UTF8.self), known: known),
                            "\(label) leaked into \(file.path)")
                    }
                }
            }
        }
    }

    @Test func placeTokensNeverNameTheRealPlaceInAnyUnauthorizedState() async throws {
        #expect(leaksParkedPlace("Reykjavik, Iceland") && leaksParkedPlace(#""country_code":"IS""#), "the leak check itself works")
        let receiver = try await GpsdServer(track: "weather")
        let formats = [
            ["--format", "%lat %lon|%city|%state|%country|%country_code|%timezone|%place"], ["--json", "--geocode"],
            ["--csv", "--geocode"],
        ]
        for (name, user, policy, _, _) in Self.unauthorizedStates {
            for mode in [["--once"], ["--follow", "--count", "1"]] {
                for format in formats {
                    let settings = try SettingsHome(user: user, policy: policy)
                    try await settings.installPlaceIndex()
                    let run = try await runLocate(mode + format + ["--lang", "C", receiver.endpoint], settings: settings)
                    let label = "\(name), \(mode[0]), \(format[0])"
                    #expect(run.status == 77, "\(label)")
                    #expect(run.stdout.contains("Seoul") && run.stdout.contains("Asia/Seoul"), "\(label): the fallback's place")
                    let known = [settings.root.path, receiver.endpoint]
                    #expect(!leaksParkedPlace(run.stdout) && !leaksParkedPlace(run.stderr), "\(label) named the real place")
                    #expect(
                        !leaksParkedCoordinate(run.stdout, known: known) && !leaksParkedCoordinate(run.stderr, known: known),
                        "\(label) leaked")
                    for file in settings.allFiles() {
                        let content = String(decoding: file.content, as: UTF8.self)
                        #expect(
                            !leaksParkedPlace(content) && !leaksParkedCoordinate(content, known: known), "\(label) leaked into \(file.path)"
                        )
                    }
                }
            }
        }
    }

    /// Whether `text` names the parked track's place (Reykjavik, Capital Region, Iceland, IS).
    private func leaksParkedPlace(_ text: String) -> Bool {
        ["Reykjav", "Iceland", "Capital Region", "Atlantic/", "|IS|", "\"IS\"", ",IS,"].contains { text.contains($0) }
    }

    @Test func restrictedDoesNotSendTheUserToSettings() async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n", policy: "[location]\nauthorization = restricted\n")
        let run = try await runLocate(["127.0.0.1:1"], settings: settings)
        #expect(run.status == 77)
        #expect(!run.stderr.contains("locate permission"))
        #expect(!run.stderr.contains("services = on"))
    }

    @Test func noFallbackPrintsNothingButKeepsTheStatus() async throws {
        let run = try await runLocate(
            ["--no-fallback", "127.0.0.1:1"], settings: SettingsHome(user: "[location]\nauthorization = denied\n"))
        #expect(run.status == 77)
        #expect(run.stdout.isEmpty)
        let disabled = try await runLocate(["127.0.0.1:1"], settings: SettingsHome(user: "[fallback]\nenabled = no\n"))
        #expect(disabled.status == 77)
        #expect(disabled.stdout.isEmpty)
    }

    @Test func theFallbackCoordinateIsConfigurableAndThePolicyWins() async throws {
        let user = "[location]\nauthorization = denied\n[fallback]\nlatitude = 48.8566\nlongitude = 2.3522\n"
        #expect(try await runLocate(["127.0.0.1:1"], settings: SettingsHome(user: user)).stdout == "48.856600 2.352200\n")
        let policy = "[fallback]\nlatitude = 51.5\nlongitude = -0.12\n"
        #expect(try await runLocate(["127.0.0.1:1"], settings: SettingsHome(user: user, policy: policy)).stdout == "51.500000 -0.120000\n")
    }

    @Test func whenInUseWithoutATerminalIsNotAuthorizedButAlwaysIs() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let whenInUse = try await runLocate([receiver.endpoint], settings: SettingsHome(user: "[location]\nauthorization = when-in-use\n"))
        #expect(whenInUse.status == 77)
        #expect(whenInUse.stdout == Self.fallbackText)
        let always = try await runLocate([receiver.endpoint], settings: SettingsHome(user: "[location]\nauthorization = always\n"))
        #expect(always.status == 0)
        #expect(always.stdout == "64.150432 -21.940457\n")
    }

    @Test func whenInUseInTheForegroundOfATerminalIsAuthorized() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocateOnTerminal(
            [receiver.endpoint], settings: SettingsHome(user: "[location]\nauthorization = when-in-use\n"))
        #expect(run.status == 0)
        #expect(run.stdout == "64.150432 -21.940457\n")
    }

    @Test(arguments: [
        ("1", 0, nil as String?),
        ("2", 0, "when-in-use"),
        ("3", 0, "always"),
        ("4", 77, "denied"),
        ("EOF", 77, nil),
    ])
    func thePromptAsksOnTheTerminalAndSavesTheAnswer(answer: String, status: Int32, saved: String?) async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome()
        let run = try await runLocateOnTerminal(
            ["--app", "weather", "--purpose", "To show the forecast.", receiver.endpoint], settings: settings, answer: answer)
        #expect(run.terminal.contains("\"weather\" would like to use your location.\r\nTo show the forecast.\r\n"))
        #expect(run.terminal.contains("1) Allow once") && run.terminal.contains("4) Don't allow"))
        #expect(run.status == status)
        #expect(run.stdout == (status == 0 ? "64.150432 -21.940457\n" : Self.fallbackText))
        let file = try? String(contentsOf: settings.userFile, encoding: .utf8)
        if let saved {
            #expect(file == "[app \"weather\"]\nauthorization = \(saved)\n")
            #expect(((try? FileManager.default.attributesOfItem(atPath: settings.userFile.path))?[.posixPermissions] as? Int) == 0o600)
        } else {
            #expect(file == nil, "nothing saved")
        }
    }

    @Test func permissionCommandsWriteTheUserFileAndStatusExplainsIt() async throws {
        let settings = try SettingsHome(user: "# mine\n[fallback]\nlatitude = 1\nlongitude = 2\n")
        #expect(try await runLocate(["permission", "allow", "--always", "--reduced", "--app", "weather"], settings: settings).status == 0)
        #expect(try await runLocate(["permission", "deny"], settings: settings).status == 0)
        let file = try String(contentsOf: settings.userFile, encoding: .utf8)
        #expect(
            file
                == "# mine\n[fallback]\nlatitude = 1\nlongitude = 2\n\n[app \"weather\"]\nauthorization = always\naccuracy = reduced\n\n[location]\nauthorization = denied\n"
        )
        let status = try await runLocate(["permission", "status", "--json"], settings: settings)
        let lines = try status.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(lines.count == 2)
        #expect(lines[0]["app"] is NSNull && lines[0]["authorization"] as? String == "denied")
        #expect(lines[0]["decided_by"] as? String == "\(settings.userFile.path):11")
        #expect(lines[1]["app"] as? String == "weather" && lines[1]["authorization"] as? String == "always")
        #expect(lines[1]["accuracy"] as? String == "reduced" && lines[1]["authorized_now"] as? Bool == true)
        #expect(try await runLocate(["permission", "reset", "--app", "weather"], settings: settings).status == 0)
        #expect(try !String(contentsOf: settings.userFile, encoding: .utf8).contains("always"))
    }

    @Test func statusExplainsWithoutPrintingACoordinate() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let allowed = try await runLocate(["status", "--json", receiver.endpoint])
        #expect(allowed.status == 0)
        let facts = try jsonObject(allowed.stdout.trimmingCharacters(in: .newlines))
        #expect(facts["authorization"] as? String == "always")
        #expect(facts["gpsd_state"] as? String == "reachable")
        #expect((facts["devices"] as? String)?.hasPrefix("/dev/") == true)
        #expect(["2d", "3d"].contains(facts["mode"] as? String) && facts["fix"] as? String == "gps", "\(facts)")
        #expect(!leaksParkedCoordinate(allowed.stdout, known: [receiver.endpoint]))
        let denied = try await runLocate(
            ["status", receiver.endpoint], settings: SettingsHome(user: "[location]\nauthorization = denied\n"))
        #expect(denied.status == 77)
        #expect(denied.stdout.contains("gpsd_state: not asked (location not authorized)"))
    }

    @Test func theGpsdServerCanComeFromTheSettings() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n[gpsd]\nserver = \(receiver.endpoint)\n")
        #expect(try await runLocate([], settings: settings).stdout == "64.150432 -21.940457\n")
    }
}
