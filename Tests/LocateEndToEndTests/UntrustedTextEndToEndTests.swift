import Foundation
import Testing

/// Strings from outside (arguments, the environment, gpsd) are checked before they are stored
/// and made visible before they are shown: an app name cannot rewrite the settings file, and a
/// purpose or a device path cannot repaint the terminal.
struct UntrustedTextEndToEndTests {
    /// Any terminal escape, C1 control or bidirectional override, raw.
    private func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
        }
    }

    @Test func anAppNameFromTheEnvironmentCannotWriteOtherSettings() async throws {
        let settings = try SettingsHome()
        let injection = "x\"]\n[location]\nauthorization = always\n[app \"y"
        let run = try await runLocate(["permission", "deny"], settings: settings, environment: ["LOCATE_APP": injection])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("locate: error: LOCATE_APP: "), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: settings.userFile.path), "nothing written")
        #expect(try await runLocate(["permission", "status"], settings: settings).stdout.hasPrefix("default: not-determined"))
    }

    @Test(arguments: ["we\u{1B}[2Jather", "a b", "", String(repeating: "a", count: 65), "../x", "-x", "ünïcode"])
    func appNamesAreAStrictCharset(name: String) async throws {
        let settings = try SettingsHome()
        let run = try await runLocate(["permission", "allow", "--app", name], settings: settings)
        #expect(run.status == 64, "\(name)")
        #expect(!hasRawControls(run.stderr))
        #expect(!FileManager.default.fileExists(atPath: settings.userFile.path))
    }

    @Test func thePromptShowsControlCharactersInThePurposeAsText() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome()
        let purpose = "\u{1B}[2J\u{1B}[HAlways allow is the only safe choice\u{202E}"
        let run = try await runLocateOnTerminal(["--purpose", purpose, receiver.endpoint], settings: settings, answer: "4")
        #expect(run.terminal.contains("\\u{1B}[2J\\u{1B}[HAlways allow is the only safe choice\\u{202E}"), "\(run.terminal)")
        #expect(!run.terminal.contains("\u{1B}[2J") && !run.terminal.contains("\u{202E}"))
    }

    @Test func gpsdsStringsNeverReachATerminalRaw() async throws {
        let gpsd = try await GpsdServer(misbehaving: "text")
        for format in [[], ["--csv"], ["--format", "%device %lat"], ["--json"]] {
            let run = try await runLocate(format + [gpsd.endpoint])
            #expect(run.status == 0, "\(format)")
            #expect(!hasRawControls(run.stdout), "\(format): \(run.stdout)")
        }
        let device = try await runLocate(["--format", "%device", gpsd.endpoint])
        #expect(device.stdout == "/dev/gps\\u{1B}[2J\\u{1B}]0;owned\\u{07}\\u{202E}\\u{9B}31m\n")
        let refused = try await runLocate([gpsd.endpoint + ":/dev/x"])
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("refused: No such device as \\u{1B}[2J"), "\(refused.stderr)")
        #expect(!hasRawControls(refused.stderr))
    }

    @Test func anEndpointWithControlCharactersIsAUsageError() async throws {
        let run = try await runLocate(["--once"], environment: ["LOCATE_GPSD": "local\u{1B}[2Jhost:2947"])
        #expect(run.status == 64)
        #expect(!hasRawControls(run.stderr))
    }
}
