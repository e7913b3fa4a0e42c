import Foundation
import HostileInput
import Testing

/// The built locate against hostile inputs: mutated settings and cache files, hostile option
/// values, and gpsds that lie, split their lines, hang up in storms or are many clients at once.
/// Whatever comes in: no crash, no hang past the bound, no record on an error status, no
/// coordinate that gpsd did not report as a fix, and a clear message. README gives the figures.
@Suite(.serialized)
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
            run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("locate: ") || $0.hasPrefix("Usage: ") || $0.hasPrefix("See ") },
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
        let port = try closedPort()
        let now = String(Int(Date().timeIntervalSince1970))
        let valid = #"{"format":1,"lat":10.5,"lon":20.5,"time":"# + now + #","received":"# + now + #","mode":"3d","accuracy":"full"}"#
        for (index, bytes) in mutator.corpus(from: [valid], count: 24).enumerated() {
            let settings = try SettingsHome.allowingAlways()
            try FileManager.default.createDirectory(at: settings.cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: settings.cacheFile)
            let run = try await runLocate(["--max-age", "86400", "127.0.0.1:\(port)"], settings: settings)
            checkInvariants(run, "cache mutant \(index)")
            #expect(run.status == 0 || run.status == 69, "cache mutant \(index): \(run.status)")
            if run.status == 0 { #expect(run.stdout == "10.500000 20.500000\n", "cache mutant \(index): only the cached fix") }
        }
    }

    @Test func hostileOptionValuesAreUsageErrors() async throws {
        for value in ["nan", "inf", "-1", "1e308", "999999999999999999999999999999", "0x10", "\u{1B}[2J", "", "1,5"] {
            for option in ["--timeout", "--max-age", "--accuracy"] {
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
