import Foundation
import Testing
@testable import GPSLocation

struct LastFixCacheTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-cache-\(UUID().uuidString)")
    private var cache: LastFixCache { LastFixCache(environment: ["XDG_CACHE_HOME": directory.path]) }
    private let now = Date(timeIntervalSince1970: 1_767_254_500)

    private func writeFile(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/locate", withIntermediateDirectories: true)
        try text.write(toFile: cache.path, atomically: true, encoding: .utf8)
    }

    /// A cache file as the cache writes it, with `replacing` members changed.
    private func entry(_ replacing: [String: String] = [:]) -> String {
        var members = ["format": "1", "lat": "64.15", "lon": "-21.94", "time": "1767254406.0", "received": "1767254406.5",
                       "alt_msl": "12.5", "alt_hae": "null", "h_acc": "17.1", "v_acc": "null", "speed": "0.5", "course": "90.0",
                       "mode": "\"3d\"", "sats_used": "8", "device": "\"/dev/gps\"", "accuracy": "\"full\""]
        for (key, value) in replacing { members[key] = value }
        return "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    @Test func keepsAFixPrivatelyAndGivesItBackAsCached() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(cache.path == directory.path + "/locate/last-fix.json")
        #expect(cache.load() == nil)
        let fix = Location(latitude: 64.150432167, longitude: -21.940456667, time: Date(timeIntervalSince1970: 1_767_254_406),
                           altitudeMSL: 12.5, horizontalAccuracy: 17.1, mode: .threeDimensional, satellitesUsed: 8, device: "/dev/gps")
        cache.store(fix, receivedAt: now)
        var expected = fix
        expected.source = .cache
        #expect(cache.load(now: now) == expected)
        #expect(((try FileManager.default.attributesOfItem(atPath: cache.path))[.posixPermissions] as? Int) == 0o600)
        cache.purge()
        #expect(cache.load(now: now) == nil)
    }

    @Test func readsWhatItWrites() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(entry())
        #expect(cache.load(now: now)?.latitude == 64.15)
    }

    @Test(arguments: [
        ["lat": "95"], ["lon": "-180.5"], ["lat": "\"64\""], ["lat": "null"], ["time": "1e300"], ["time": "-5"],
        ["received": "1e300"], ["received": "null"], ["h_acc": "-1"], ["speed": "1e9"], ["course": "400"], ["alt_msl": "1e12"],
        ["sats_used": "2.5"], ["sats_used": "-1"], ["mode": "\"4d\""], ["mode": "3"], ["accuracy": "\"perfect\""], ["format": "2"],
        ["device": "\"" + String(repeating: "d", count: 300) + "\""], ["lat": "[64]"], ["lat": "{\"a\":1}"],
    ])
    func ignoresAFileWithAnyFieldOutOfRange(change: [String: String]) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(entry(change))
        #expect(cache.load(now: now) == nil, "\(change)")
    }

    @Test(arguments: ["not json", "", "{", "{}", "{\"lat\":1,\"lat\":2}", "\u{FEFF}{}", "{\"lat\":1}garbage", String(repeating: "[", count: 100_000)])
    func ignoresAFileThatIsNotAnEntry(text: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(text)
        #expect(cache.load(now: now) == nil)
    }

    @Test func aFixDatedInTheFutureOrReceivedAfterNowIsNotServed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let aYearAhead = now.timeIntervalSince1970 + 365 * 86_400
        try writeFile(entry(["time": String(aYearAhead), "received": String(now.timeIntervalSince1970)]))
        #expect(cache.load(now: now) == nil, "a receiver time ahead of its receipt")
        try writeFile(entry(["time": String(aYearAhead), "received": String(aYearAhead)]))
        #expect(cache.load(now: now) == nil, "received after now: the clock went back")
        try writeFile(entry(["time": String(now.timeIntervalSince1970 + 2), "received": String(now.timeIntervalSince1970)]))
        #expect(cache.load(now: now) != nil, "within the skew tolerance")
    }

    @Test func aBadFileIsReplacedByTheNextStore() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(entry(["time": "1e300"]))
        cache.store(Location(latitude: 1, longitude: 2, mode: .twoDimensional), receivedAt: now)
        #expect(cache.load(now: now)?.latitude == 1)
    }
}

struct LocationAgeTests {
    private let now = Date(timeIntervalSince1970: 1_767_254_500)

    @Test func isTheTimeSinceTheFixAndUnknownWhenItCannotBeTrusted() {
        func age(_ offset: Double?) -> Double? {
            Location(latitude: 0, longitude: 0, time: offset.map { now.addingTimeInterval(-$0) }, mode: .twoDimensional).age(at: now)?.seconds
        }
        #expect(age(30) == 30)
        #expect(age(-3) == 0, "a receiver slightly ahead counts as now")
        #expect(age(-365 * 86_400) == nil, "a year ahead: the age cannot be known")
        #expect(age(nil) == nil)
    }
}
