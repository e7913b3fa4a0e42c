import Foundation
import Testing

/// Strings from outside (arguments, the environment, files, gpsd) are checked before they are
/// stored and made visible before they are shown: an app name cannot rewrite the settings file,
/// a purpose or a device path cannot repaint the terminal, and a path or a name cannot hide
/// text in a zero-width space, a tag character or a blank filler.
struct UntrustedTextEndToEndTests {
    /// Any scalar a terminal acts on or shows as nothing (`UntrustedScalars`), raw.
    private func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: UntrustedScalars.isHidden)
    }

    /// The output formats of a stream, each with where its status events go.
    private static let streamFormats: [[String]] = [
        ["--json", "--events"], ["--json"], ["--csv"], [], ["--format", "%lat %lon"], ["--gpx"],
    ]

    /// Fails unless neither stdout nor stderr of `run` has a hidden scalar raw.
    private func expectNothingHidden(
        _ run: (status: Int32, stdout: String, stderr: String), _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            UntrustedScalars.hidden(in: run.stdout).isEmpty, "\(label): stdout \(run.stdout.debugDescription)",
            sourceLocation: sourceLocation)
        #expect(
            UntrustedScalars.hidden(in: run.stderr).isEmpty, "\(label): stderr \(run.stderr.debugDescription)",
            sourceLocation: sourceLocation)
    }

    /// Each line of `stdout` is JSON that jq reads.
    private func expectJSONLines(_ stdout: String, settings: SettingsHome, _ label: String) async throws {
        let lines = stdout.split(separator: "\n")
        let parsed = try await runJQ(".", input: stdout, settings: settings)
        #expect(parsed.status == 0 && !lines.isEmpty, "\(label): jq cannot read \(stdout.debugDescription): \(parsed.stderr)")
        for line in lines { _ = try jsonObject(String(line)) }
    }

    /// A settings home whose settings directory's name has `hidden` in it, with `user` as the
    /// settings: the environment that selects it, the file's path, and the path as `locate`
    /// shows it.
    private func settingsInHiddenPath(
        _ sample: (name: String, text: String, shown: String), user: String
    ) throws -> (home: SettingsHome, environment: [String: String], file: String, shown: String) {
        let home = try SettingsHome()
        let directory = home.root.path + "/con" + sample.text + "fig"
        let file = directory + "/locate/locate.conf"
        try home.write(user, to: URL(fileURLWithPath: file))
        #expect(FileManager.default.fileExists(atPath: file))
        return (home, ["XDG_CONFIG_HOME": directory], file, home.root.path + "/con" + sample.shown + "fig/locate/locate.conf")
    }

    /// A settings path with a hidden scalar in it, in every place it is shown: `decided_by` of
    /// `status` and `permission status` (JSON and text), the configuration error at the start
    /// of a run, and the `settings_invalid` event (its `file` and `message`) of a running
    /// stream, in every output format. Nothing comes out raw, JSON parses, and its strings read
    /// back as the path, or the path as shown.
    @Test(arguments: UntrustedScalars.samples.indices)
    func aSettingsPathWithHiddenScalarsIsShownVisiblyEverywhere(index: Int) async throws {
        let sample = UntrustedScalars.samples[index]
        let denied = try settingsInHiddenPath(sample, user: "[location]\nauthorization = denied\n")
        for command in [["status"], ["permission", "status"]] {
            let json = try await runLocate(command + ["--json"], settings: denied.home, environment: denied.environment)
            expectNothingHidden(json, "\(sample.name): \(command) --json")
            try await expectJSONLines(json.stdout, settings: denied.home, "\(sample.name): \(command)")
            let decidedBy = try await runJQ(".decided_by", input: json.stdout, settings: denied.home)
            #expect(decidedBy.stdout == denied.shown + ":2\n", "\(sample.name): \(command) \(json.stdout)")
            let text = try await runLocate(command, settings: denied.home, environment: denied.environment)
            expectNothingHidden(text, "\(sample.name): \(command)")
            #expect(text.stdout.contains(denied.shown + ":2"), "\(sample.name): \(command) \(text.stdout.debugDescription)")
        }

        let malformed = try settingsInHiddenPath(sample, user: "[location]\nauthorization = alw\n")
        for format in Self.streamFormats {
            for mode in [["--once"], ["--follow"]] {
                let run = try await runLocate(mode + format + ["127.0.0.1:1"], settings: malformed.home, environment: malformed.environment)
                expectNothingHidden(run, "\(sample.name): \(mode + format) at the start")
                #expect(run.status == 78 && run.stdout.isEmpty, "\(sample.name): \(mode + format) \(run.status) \(run.stdout)")
                #expect(run.stderr.contains(malformed.shown + ":2:17: bad value 'alw'"), "\(sample.name): \(run.stderr.debugDescription)")
            }
        }

        for format in Self.streamFormats {
            let allowed = try settingsInHiddenPath(sample, user: "[location]\nauthorization = always\n")
            // A gpsd that takes the connection and says nothing: the stream runs, no fix comes.
            let gpsd = try ListeningPort()
            let run = try startLocate(["--follow"] + format + [gpsd.endpoint], settings: allowed.home, environment: allowed.environment)
            try await waitUntil(timeout: 20, failing: HarnessError(description: "\(format): locate did not connect: \(run.stderr.text)")) {
                gpsd.wasConnected
            }
            try allowed.home.write("[location]\nauthorization = alw\n", to: URL(fileURLWithPath: allowed.file))
            let events = format.contains("--events") ? run.stdout : run.stderr
            try await events.wait(for: "\(sample.name) \(format): the pause") { events.text.contains("positions are held back") }
            run.signal(SIGINT)
            let status = try await run.waitForExit()
            let output = (status, run.stdout.text, run.stderr.text)
            expectNothingHidden(output, "\(sample.name): \(format) settings_invalid")
            #expect(status == 78, "\(sample.name): \(format): it ended while the settings could not be read")
            guard format.contains("--events") else {
                #expect(events.text.contains(allowed.shown + ":2:17: bad value 'alw'"), "\(sample.name): \(events.text.debugDescription)")
                continue
            }
            try await expectJSONLines(output.1, settings: allowed.home, "\(sample.name) \(format)")
            // `file` is the path itself (escaped in the JSON text), `message` the path as shown.
            let event = try await runJQ(#"select(.event == "settings_invalid") | .file, .message"#, input: output.1, settings: allowed.home)
            let fields = event.stdout.split(separator: "\n").map(String.init)
            #expect(fields.count == 2 && fields.first == allowed.file, "\(sample.name): \(fields)")
            #expect(fields.last?.hasPrefix(allowed.shown + ":2:17: bad value 'alw'") == true, "\(sample.name): \(fields)")
        }
    }

    /// The formats of `monitor`'s records.
    private static let monitorFormats: [[String]] = [["--json"], ["--json", "--events"], ["--csv"], [], ["--format", "%event %region"]]

    /// A region name with a hidden scalar in it is no name, on the command line (64) and in the
    /// settings (78), and the refusal shows it visibly, in every output format.
    @Test(arguments: UntrustedScalars.samples.indices)
    func aRegionNameWithHiddenScalarsIsRefusedVisibly(index: Int) async throws {
        let sample = UntrustedScalars.samples[index]
        let name = "ho" + sample.text + "me"
        let track = Package.track("commute").path
        for format in Self.monitorFormats {
            let run = try await runLocate(
                ["monitor", "--replay", track, "--replay-speed", "0", "--region", "\(name)=64.13,-21.9,50"] + format)
            expectNothingHidden(run, "\(sample.name): --region \(format)")
            #expect(run.status == 64 && run.stdout.isEmpty, "\(sample.name): \(format) \(run.status)")
            #expect(run.stderr.contains("'ho\(sample.shown)me' is not a region name"), "\(sample.name): \(run.stderr.debugDescription)")
            let until = try await runLocate(
                ["monitor", "--replay", track, "--replay-speed", "0", "--region", "home=64.13,-21.9,50", "--until", "inside:\(name)"]
                    + format)
            expectNothingHidden(until, "\(sample.name): --until \(format)")
            #expect(until.status == 64 && until.stdout.isEmpty, "\(sample.name): --until \(format) \(until.status)")
            #expect(until.stderr.contains("'ho\(sample.shown)me'"), "\(sample.name): \(until.stderr.debugDescription)")
        }
        let settings = try SettingsHome(user: "[region \"\(name)\"]\ncenter = 64.13, -21.9\nradius = 50\n")
        for format in Self.monitorFormats {
            let run = try await runLocate(["monitor", "--replay", track, "--replay-speed", "0"] + format, settings: settings)
            expectNothingHidden(run, "\(sample.name): [region] \(format)")
            #expect(run.status == 78 && run.stdout.isEmpty, "\(sample.name): [region] \(format) \(run.status)")
            #expect(run.stderr.contains("locate.conf:1:"), "\(sample.name): \(run.stderr.debugDescription)")
        }
    }

    /// A name in any script, with marks and spaces, is a name: it comes out as it is in every
    /// format, and JSON gives it back.
    @Test func aRegionNameInAnyScriptComesOutAsItIs() async throws {
        let settings = try SettingsHome()
        let name = "서울 집 Café e\u{301}\u{323} दिल्ली"
        let track = Package.track("commute").path
        let region = ["--region", "\(name)=64.13,-21.9,50", "--until", "inside:\(name)"]
        for format in Self.monitorFormats {
            let run = try await runLocate(["monitor", "--replay", track, "--replay-speed", "0"] + region + format, settings: settings)
            expectNothingHidden(run, "\(format)")
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(run.stdout.contains(name), "\(format): \(run.stdout)")
            guard format.first == "--json" else { continue }
            try await expectJSONLines(run.stdout, settings: settings, "\(format)")
            let names = try await runJQ(#"select(.type == "region") | .region"#, input: run.stdout, settings: settings)
            #expect(names.stdout == name + "\n", "\(format): \(names.stdout)")
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

    @Test(arguments: [
        "we\u{1B}[2Jather", "a b", "", String(repeating: "a", count: 65), "../x", "-x", "ünïcode", "we\u{200B}ather", "weather\u{E0041}",
        "\u{FEFF}weather", "\u{3164}", "w\u{2060}x",
    ])
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
