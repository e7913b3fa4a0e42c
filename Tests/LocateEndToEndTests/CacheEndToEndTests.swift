import Foundation
import Testing

/// The last-fix cache and `--max-age`, end to end.
struct CacheEndToEndTests {
    @Test func maxAgeAnswersFromTheCacheWithoutAskingGpsd() async throws {
        let settings = try SettingsHome.allowingAlways()
        let receiver = try await GpsdServer(track: "weather", restamp: true)
        let live = try await runLocate(["--json", receiver.endpoint], settings: settings)
        #expect(live.status == 0)
        #expect(((try FileManager.default.attributesOfItem(atPath: settings.cacheFile.path))[.posixPermissions] as? Int) == 0o600)
        let endpoint = receiver.endpoint
        await receiver.stop()

        let cached = try await runLocate(["--json", "--max-age", "600", endpoint], settings: settings)
        #expect(cached.status == 0)
        let record = try jsonObject(cached.stdout.trimmingCharacters(in: .newlines))
        #expect(record["source"] as? String == "cache")
        #expect(abs((record["lat"] as? Double ?? 0) - 64.1504322) < 1e-7)

        let withoutMaxAge = try await runLocate([endpoint], settings: settings)
        #expect(withoutMaxAge.status == 69, "without --max-age, gpsd must answer")
        #expect(withoutMaxAge.stdout == "37.517829 126.886270\n")
    }

    @Test func denyAndResetPurgeTheCache() async throws {
        let settings = try SettingsHome.allowingAlways()
        let receiver = try await GpsdServer(track: "weather", restamp: true)
        for command in [["permission", "deny"], ["permission", "reset"]] {
            #expect(try await runLocate([receiver.endpoint], settings: settings).status == 0)
            #expect(FileManager.default.fileExists(atPath: settings.cacheFile.path))
            #expect(try await runLocate(command, settings: settings).status == 0)
            #expect(!FileManager.default.fileExists(atPath: settings.cacheFile.path), "\(command)")
            try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        }
    }

    @Test func aHandEditedDenialStillNeverAnswersFromTheCache() async throws {
        let settings = try SettingsHome.allowingAlways()
        let receiver = try await GpsdServer(track: "weather", restamp: true)
        #expect(try await runLocate([receiver.endpoint], settings: settings).status == 0)
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        let run = try await runLocate(["--max-age", "600", receiver.endpoint], settings: settings)
        #expect(run.status == 77)
        #expect(run.stdout == "37.517829 126.886270\n")
        #expect(!FileManager.default.fileExists(atPath: settings.cacheFile.path), "purged")
    }

    @Test func aCachedFixFromTheFutureOrWithJunkIsNeverServed() async throws {
        let settings = try SettingsHome.allowingAlways()
        let now = Date().timeIntervalSince1970
        let yearAhead = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: now + 365 * 86_400))
        try await withRefusingEndpoint { endpoint in
            for (label, time) in [
                ("a year ahead", "\"\(yearAhead)\""), ("beyond any year", "\"9999-01-01T00:00:00Z\""), ("a number", "1e300"),
            ] {
                try settings.write(
                    #"{"format":2,"received":\#(now)}"# + "\n" + #"{"lat":10.5,"lon":20.5,"time":\#(time),"mode":"3d","accuracy":"full"}"#,
                    to: settings.cacheFile)
                let run = try await runLocate(["--json", "--max-age", "1", endpoint], settings: settings)
                #expect(run.status == 69, "\(label)")
                #expect(!run.stdout.contains("10.5"), "\(label): \(run.stdout)")
            }
        }
    }

    @Test func reducedAccuracyCachesOnlyTheGridCell() async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = always\naccuracy = reduced\n")
        let receiver = try await GpsdServer(track: "weather", restamp: true)
        #expect(try await runLocate([receiver.endpoint], settings: settings).status == 0)
        let cached = try String(contentsOf: settings.cacheFile, encoding: .utf8)
        #expect(cached.contains("\"accuracy\":\"reduced\""))
        #expect(!cached.contains("64.15") && !cached.contains("-21.94"), "no precise coordinate in the cache")
    }
}
