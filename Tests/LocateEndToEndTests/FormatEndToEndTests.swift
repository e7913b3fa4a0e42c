import Foundation
import Testing

/// Every output format read by the real program at the other end of the pipe.
struct FormatEndToEndTests {
    private let locate = Package.locate.path

    @Test func jqReadsEveryJSONLineAndEveryEvent() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let fixes = try await runShell(
            "'\(locate)' --follow --json --count 3 \(receiver.endpoint) | jq -r '[.type, .source, (.lat|type), (.alt_msl|type)] | join(\" \")'",
            settings: settings)
        #expect(fixes.status == 0)
        #expect(fixes.stdout.split(separator: "\n").allSatisfy { $0 == "fix gpsd number number" || $0 == "fix gpsd number null" })
        #expect(fixes.stdout.split(separator: "\n").count == 3)

        let quiet = try await GpsdServer(track: "nofix", wait: "report")
        let output = settings.root.appendingPathComponent("events.jsonl").path
        let events = try await runShell(
            """
            '\(locate)' --follow --json --events \(quiet.endpoint) > '\(output)' & pid=$!
            until grep -q no_fix '\(output)'; do sleep 0.05; done
            kill -INT $pid; wait $pid; echo "exit $?"; jq -r '.type + " " + (.event // .source)' '\(output)'
            """, settings: settings)
        #expect(events.status == 0)
        #expect(
            events.stdout == "exit 75\nstatus no_fix\nstatus timeout\nfallback fallback\n", "no fix in the stream: the fallback ends it")
        #expect(!events.stderr.contains("no fix yet"), "with --events the event is not also on stderr")
    }

    @Test func aTimeoutIsAnEventWithEvents() async throws {
        let quiet = try await GpsdServer(track: "nofix", wait: "report")
        let run = try await runLocate(["--json", "--events", "--timeout", "1", quiet.endpoint])
        #expect(run.status == 75)
        let lines = try run.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(lines.count == 2)
        #expect(lines[0]["type"] as? String == "status" && lines[0]["event"] as? String == "timeout")
        #expect(lines[1]["source"] as? String == "fallback" && lines[1]["reason"] as? String == "timeout")
    }

    /// The points gpsbabel reads from a GPX file (its CSV output has 5 decimals).
    private func gpsbabelPoints(_ gpx: String, kind: String, settings: SettingsHome) async throws -> [(latitude: Double, longitude: Double)]
    {
        let file = settings.root.appendingPathComponent("out-\(UUID().uuidString).gpx")
        try Data(gpx.utf8).write(to: file)
        let run = try await runShell("gpsbabel \(kind) -i gpx -f '\(file.path)' -o csv -F -", settings: settings)
        #expect(run.status == 0, "gpsbabel: \(run.stderr)")
        #expect(!run.stderr.lowercased().contains("error"), "gpsbabel: \(run.stderr)")
        return run.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) ?? .nan }
            return (fields[0], fields[1])
        }
    }

    @Test func gpsbabelReadsAWaypointForOnce() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome.allowingAlways()
        let run = try await runLocate(["--gpx", receiver.endpoint], settings: settings)
        #expect(run.status == 0)
        let points = try await gpsbabelPoints(run.stdout, kind: "-w", settings: settings)
        #expect(points.count == 1)
        #expect(points.allSatisfy { abs($0.latitude - 64.1504322) < 1e-5 && abs($0.longitude + 21.9404567) < 1e-5 })
    }

    @Test func gpsbabelReadsATrackEndedByCount() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let run = try await runLocate(["--follow", "--gpx", "--count", "4", receiver.endpoint], settings: settings)
        #expect(run.status == 0)
        #expect(try await gpsbabelPoints(run.stdout, kind: "-t", settings: settings).count == 4)
        #expect(run.stdout.hasSuffix("</trkseg>\n</trk>\n</gpx>\n"))
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func gpsbabelReadsATrackEndedByASignal(signal: Int32) async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["--follow", "--gpx", receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "three track points") { run.stdout.text.components(separatedBy: "<trkpt").count > 3 }
        run.signal(signal)
        #expect(try await run.waitForExit() == 0)
        let points = try await gpsbabelPoints(run.stdout.text, kind: "-t", settings: settings)
        #expect(points.count == run.stdout.text.components(separatedBy: "<trkpt").count - 1)
        #expect(points.count >= 3)
    }

    @Test func pythonsCSVModuleReadsCSV() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let script =
            "import csv, sys; rows = list(csv.DictReader(sys.stdin)); print(len(rows), rows[0]['source'], rows[0]['mode'], float(rows[-1]['lat']) > 64, rows[0]['reason'] == '')"
        let run = try await runShell(
            "'\(locate)' --follow --csv --count 3 \(receiver.endpoint) | /usr/bin/python3 -c \"\(script)\"", settings: settings)
        #expect(run.status == 0)
        #expect(run.stdout == "3 gpsd 3d True True\n" || run.stdout == "3 gpsd 2d True True\n")
        let headless = try await runLocate(["--csv", "--no-header", receiver.endpoint], settings: settings)
        #expect(headless.stdout.split(separator: "\n").count == 1)
        #expect(headless.stdout.hasPrefix("fix,"))
    }

    @Test func templatesWriteWhatTheySay() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate(["--format", "%lat%lon|%%|%source|%device\\t%reason.", "--null", "n/a", receiver.endpoint])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("64.150432-21.940457|%|gpsd|/dev/"))
        #expect(run.stdout.hasSuffix("\tn/a.\n"))
        let unknown = try await runLocate(["--format", "%lat %zone", receiver.endpoint])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown token '%zone' in --format (valid: %lat %lon"))
        #expect(unknown.stdout.isEmpty)
    }

    @Test func aGermanLocaleStillGetsDecimalPoints() async throws {
        let receiver = try await GpsdServer(track: "weather")
        for format in [[], ["--json"], ["--csv"], ["--gpx"], ["--format", "%lat %h_acc"]] {
            let run = try await runLocate(format + [receiver.endpoint], environment: ["LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"])
            #expect(run.status == 0)
            #expect(run.stdout.contains("64.150432"), "\(format)")
            #expect(!run.stdout.contains("64,15"), "\(format)")
        }
    }
}
