import Foundation
import HostileInput
import Testing

/// The built locate against hostile inputs: mutated settings and cache files, hostile option
/// values, and gpsds that lie, split their lines, hang up in storms or are many clients at once.
/// Whatever comes in: no crash, no hang past the bound, no record on an error status, no
/// coordinate that gpsd did not report as a fix, and a clear message. locate-privacy(7) gives the figures.
struct HostileInputEndToEndTests {
    private static let fallback = "37.517829 126.886270"

    /// The invariants every run must keep, whatever it was given; `fallback` is the fallback's
    /// text record, when it is not the built-in one.
    private func checkInvariants(_ run: (status: Int32, stdout: String, stderr: String), _ label: String, fallback: String = fallback) {
        #expect(run.status < 128, "\(label): killed by a signal")
        #expect(
            !run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" },
            "\(label): raw control characters on stderr")
        #expect(
            run.stderr.split(separator: "\n").allSatisfy {
                // A command's further usage lines are indented under its first.
                $0.hasPrefix("locate: ") || $0.hasPrefix("Usage: ") || $0.hasPrefix("       locate ") || $0.hasPrefix("See ")
            },
            "\(label): \(run.stderr)")
        switch run.status {
        case 64, 74, 78:
            #expect(run.stdout.isEmpty, "\(label): a record on status \(run.status)")
            #expect(!run.stderr.isEmpty, "\(label): no message")
        case 69, 75, 77:
            #expect(
                run.stdout.split(separator: "\n").allSatisfy { $0 == fallback || $0.contains(#""source":"fallback""#) },
                "\(label): only the fallback on status \(run.status): \(run.stdout)")
            #expect(!run.stderr.isEmpty, "\(label): no message")
        default:
            break
        }
    }

    @Test func mutatedSettingsFilesFailClosedOrWork() async throws {
        var mutator = Mutator(seed: 11)
        let gpsd = try ListeningPort()
        var refused = 0
        for (index, bytes) in mutator.corpus(
            from: ["[location]\nauthorization = always\n[fallback]\nlatitude = 1.5\nlongitude = 2.5\n"], count: 24
        ).enumerated() {
            let settings = try SettingsHome()
            try FileManager.default.createDirectory(at: settings.userFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: settings.userFile)
            let run = try await runLocate(["--timeout", "1", gpsd.endpoint], settings: settings)
            let configured = run.stdout.hasPrefix("1.500000") ? "1.500000 2.500000" : Self.fallback
            checkInvariants(run, "settings mutant \(index)", fallback: configured)
            #expect([0, 69, 75, 77, 78].contains(run.status), "mutant \(index): \(run.status)")
            if run.status == 78 {
                refused += 1
                #expect(run.stderr.hasPrefix("locate: \(settings.userFile.path)"), "the message names the file: \(run.stderr)")
            } else {
                #expect(
                    run.stdout == "1.500000 2.500000\n" || run.stdout == Self.fallback + "\n" || run.stdout.isEmpty,
                    "mutant \(index): \(run.stdout)")
            }
        }
        #expect(refused > 0)
    }

    @Test func mutatedCacheFilesAreIgnoredNeverACrash() async throws {
        var mutator = Mutator(seed: 12)
        let now = String(Int(Date().timeIntervalSince1970))
        let valid =
            #"{"format":2,"received":"# + now + "}\n" + #"{"lat":10.5,"lon":20.5,"time":""# + ISO8601DateFormatter().string(from: Date())
            + #"","mode":"3d","accuracy":"full"}"#
        try await withRefusingEndpoint { endpoint in
            for (index, bytes) in mutator.corpus(from: [valid], count: 24).enumerated() {
                let settings = try SettingsHome.allowingAlways()
                try FileManager.default.createDirectory(
                    at: settings.cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: settings.cacheFile)
                let run = try await runLocate(["--max-age", "86400", endpoint], settings: settings)
                checkInvariants(run, "cache mutant \(index)")
                #expect(run.status == 0 || run.status == 69, "cache mutant \(index): \(run.status)")
                if run.status == 0 { #expect(run.stdout == "10.500000 20.500000\n", "cache mutant \(index): only the cached fix") }
            }
        }
    }

    @Test func hostileOptionValuesAreUsageErrors() async throws {
        for value in ["nan", "inf", "-1", "1e308", "999999999999999999999999999999", "0x10", "\u{1B}[2J", "", "1,5"] {
            // `inf` is a wait without end for --timeout and --max-age (documented), not a hostile value there.
            for option in ["--timeout", "--max-age", "--accuracy"] where value != "inf" || option == "--accuracy" {
                let run = try await runLocate([option, value, "127.0.0.1:1"])
                checkInvariants(run, "\(option) \(value)")
                #expect(run.status == 64, "\(option) '\(value)'")
            }
        }
    }

    @Test func aGpsdThatLiesNeverGivesAPosition() async throws {
        // Junk libgps itself accepts as fixes (positions off the globe), broken JSON, binary bytes,
        // and a line far past gpsd's limit with a plausible fix in it.
        let gpsd = try await GpsdServer(misbehaving: "garbage")
        for arguments in [["--json", "--timeout", "1"], ["--follow", "--json", "--duration", "2"]] {
            let run = try await runLocate(arguments + [gpsd.endpoint])
            checkInvariants(run, "\(arguments)")
            #expect(!run.stdout.contains("\"source\":\"gpsd\""), "\(arguments): \(run.stdout)")
        }
    }

    @Test func linesSplitAnywhereGiveEveryFixOnce() async throws {
        let gpsd = try await GpsdServer(misbehaving: "split")
        let run = try await runLocate(["--follow", "--json", "--count", "20", gpsd.endpoint])
        checkInvariants(run, "split")
        #expect(run.status == 0)
        let latitudes = try run.stdout.split(separator: "\n").map { try jsonObject(String($0))["lat"] as? Double ?? 0 }
        #expect(latitudes == (0..<20).map { 10.0 + Double($0) * 1e-6 }, "\(latitudes)")
    }

    @Test func aStormOfHangUpsIsSurvivedWithABackOff() async throws {
        let gpsd = try await GpsdServer(misbehaving: "hangup")
        let run = try await runLocate(["--follow", "--duration", "4", gpsd.endpoint])
        checkInvariants(run, "hang-up storm")
        #expect(run.status == 69 && run.stdout == "37.517829 126.886270\n", "no fix came: the fallback")
        let losses = run.stderr.split(separator: "\n").filter { $0.contains("lost gpsd") }
        #expect(losses.count >= 3 && losses.count <= 8, "the back-off paces the reconnects: \(losses)")
    }

    /// Seeds of the three track formats, each crossing the depot region of the tests below.
    private static let trackSeeds = [
        """
        <?xml version="1.0"?><gpx version="1.1"><trk><trkseg>
        <trkpt lat="64.13" lon="-21.9"><ele>30</ele><time>2026-01-01T08:00:00Z</time><hdop>0.9</hdop></trkpt>
        <trkpt lat="64.1301" lon="-21.9"><time>2026-01-01T08:05:01Z</time></trkpt>
        <trkpt lat="64.2" lon="-21.9"><time>2026-01-01T08:05:02Z</time></trkpt>
        </trkseg></trk></gpx>
        """,
        """
        # a receiver log
        $GPRMC,080000.00,A,6407.80000,N,02154.00000,W,6.41,0.0,010126,,,A*7C
        $GPGGA,080000.00,6407.80000,N,02154.00000,W,1,08,0.9,30.0,M,45.0,M,,*4A
        $GPRMC,080501.00,A,6407.80600,N,02154.00000,W,6.41,0.0,010126,,,A*7E
        $GPRMC,080502.00,A,6412.00000,N,02154.00000,W,6.41,0.0,010126,,,A*77
        """,
        """
        {"type":"fix","time":"2026-01-01T08:00:00.000Z","lat":64.13,"lon":-21.9,"h_acc":3.1,"mode":"3d"}
        {"type":"status","event":"no_fix","message":"no fix yet"}
        {"type":"fix","time":"2026-01-01T08:05:01.000Z","lat":64.1301,"lon":-21.9,"h_acc":3.1}
        {"type":"fix","time":"2026-01-01T08:05:02.000Z","lat":64.2,"lon":-21.9,"h_acc":3.1}
        """,
    ]

    /// Mutated tracks through `monitor`, `visits` and `--follow` alike: events and fixes only
    /// of real positions, a malformed point an error on its line (65) after what came before it,
    /// a track without a fix 65 too; never a crash or a hang.
    @Test func mutatedTracksThroughMonitorVisitsAndFollow() async throws {
        var mutator = Mutator(seed: 21)
        let settings = try SettingsHome()
        let commands = [
            ["monitor", "--json", "--region", "depot=64.13,-21.9,100"], ["visits", "--json", "--dwell", "60"], ["--follow", "--json"],
        ]
        var statuses: [Int32: Int] = [:]
        for (index, bytes) in mutator.corpus(from: Self.trackSeeds, count: 30).enumerated() {
            let track = settings.root.appendingPathComponent("track-\(index)")
            try Data(bytes).write(to: track)
            for command in commands {
                let run = try await runLocate(command + ["--replay", track.path, "--replay-speed", "0"], settings: settings)
                let label = "track mutant \(index) \(command[0])"
                checkInvariants(run, label)
                statuses[run.status, default: 0] += 1
                #expect([0, 65].contains(run.status), "\(label): \(run.status) \(run.stderr)")
                if run.status == 65 { #expect(run.stderr.contains("locate: \(track.path)"), "\(label): \(run.stderr)") }
                for line in run.stdout.split(separator: "\n") {
                    let record = try jsonObject(String(line))
                    let latitude = record["lat"] as? Double ?? 999
                    let longitude = record["lon"] as? Double ?? 999
                    #expect(abs(latitude) <= 90 && abs(longitude) <= 180, "\(label): \(line)")
                    #expect(record["source"] as? String != "fallback", "\(label): a replay has no fallback")
                }
            }
        }
        #expect(statuses[0, default: 0] > 10 && statuses[65, default: 0] > 10, "\(statuses)")
    }

    /// Hostile region definitions: on the command line a usage error (64), in the settings a
    /// configuration error naming the file and line (78); never a region whose name hides
    /// something.
    @Test func hostileRegionsAreRefused() async throws {
        let names = [
            "\u{200B}", "\u{00AD}", "\u{2060}", "\u{FEFF}", "a\u{202E}b", "\u{1B}[2J", " ", "\u{0301}", String(repeating: "x", count: 65),
            String(repeating: "\u{1F600}", count: 65), "a\nb", "",
        ]
        let values = ["1,2", "91,0,10", "0,181,10", "0,0,0", "0,0,-5", "0,0,nan", "0,0,1e308", "nan,0,10"]
        let track = Package.track("commute").path
        for name in names {
            let run = try await runLocate(["monitor", "--replay", track, "--region", "\(name)=1,1,10"])
            checkInvariants(run, "--region name \(name.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(run.status == 64, "\(name.unicodeScalars.map { String($0.value, radix: 16) }): \(run.status)")
            guard !name.contains("\n"), !name.isEmpty, !name.contains("\"") else { continue }
            let settings = try SettingsHome(user: "[region \"\(name)\"]\ncenter = 1,1\nradius = 10\n")
            let fromSettings = try await runLocate(["monitor", "--replay", track], settings: settings)
            checkInvariants(fromSettings, "[region] \(name.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(fromSettings.status == 78, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(fromSettings.stderr.contains("locate.conf:1:"), "\(fromSettings.stderr)")
        }
        for value in values {
            let run = try await runLocate(["monitor", "--replay", track, "--region", "a=\(value)"])
            checkInvariants(run, "--region a=\(value)")
            #expect(run.status == 64, "a=\(value)")
        }
    }

    /// monitor and visits against gpsds that lie, stall or hang up: no event, no success.
    @Test(arguments: [("garbage", 69), ("hangup", 69), ("stall", 69)])
    func monitorAndVisitsAgainstAMisbehavingGpsd(mode: String, status: Int32) async throws {
        let gpsd = try await GpsdServer(misbehaving: mode)
        for command in [["monitor", "--region", "a=10,10,100000"], ["visits"]] {
            let run = try await runLocate(command + ["--json", "--duration", "2", gpsd.endpoint])
            checkInvariants(run, "\(command[0]) against \(mode)")
            #expect(run.status == status || run.status == 75, "\(command[0]) against \(mode): \(run.status) \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(command[0]) against \(mode): \(run.stdout)")
        }
    }

    @Test func dozensOfClientsAtOnceEachGetTheFix() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome.allowingAlways()
        let runs = try (0..<30).map { _ in try startLocate(["--once", receiver.endpoint], settings: settings) }
        for run in runs {
            #expect(try await run.waitForExit() == 0)
            #expect(run.stdout.text == "64.150432 -21.940457\n")
        }
    }
}
