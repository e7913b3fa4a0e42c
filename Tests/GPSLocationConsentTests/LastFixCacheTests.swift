import Foundation
import GPSLocation
import LocateSupport
import Testing

@testable import GPSLocationConsent

struct LastFixCacheTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-cache-\(UUID().uuidString)")
    private var path: String { directory.path + "/" + LastFixCache.fileName }
    private let now = Date(timeIntervalSince1970: 1_767_254_500)

    /// The cache directory, opened as the store opens it.
    private func cache() throws -> DirectoryHandle {
        try DirectoryHandle(path: directory.path, create: true, isPrivate: true)
    }

    private func load() throws -> Location? {
        LastFixCache.load(from: try cache(), now: now)
    }

    private func writeFile(_ text: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A cache file as the cache writes it (its own line, then the location's record), with
    /// `replacing` members changed (`format` and `received` are the first line's).
    private func entry(_ replacing: [String: String] = [:]) -> String {
        var header = ["format": "2", "received": "1767254406.5"]
        var members = [
            "lat": "64.15", "lon": "-21.94", "time": "\"2026-01-01T08:00:06.000Z\"",
            "alt_msl": "12.5", "alt_hae": "null", "h_acc": "17.1", "v_acc": "null", "speed": "0.5", "course": "90.0",
            "mode": "\"3d\"", "sats_used": "8", "device": "\"/dev/gps\"", "accuracy": "\"full\"",
        ]
        for (key, value) in replacing {
            if header[key] != nil { header[key] = value } else { members[key] = value }
        }
        func object(_ members: [String: String]) -> String {
            "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        }
        return object(header) + "\n" + object(members) + "\n"
    }

    /// `seconds` since 1970 as a record's time.
    private func time(_ seconds: Double) -> String {
        "\"" + ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds)) + "\""
    }

    @Test func keepsAFixPrivatelyAndGivesItBackAsCached() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try load() == nil)
        let fix = try Location(
            latitude: 64.150432167, longitude: -21.940456667, time: Date(timeIntervalSince1970: 1_767_254_406),
            altitudeMSL: 12.5, horizontalAccuracy: 17.1, mode: .threeDimensional, satellitesUsed: 8, device: "/dev/gps")
        LastFixCache.store(fix, in: try cache(), receivedAt: now)
        #expect(try load() == fix, "the manager marks what comes from the cache, not the cache")
        #expect(((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? Int) == 0o600)
        try cache().remove(LastFixCache.fileName)
        #expect(try load() == nil)
    }

    /// A fix is kept at most every 4 s: a file written less than 4 s before stays; an older one,
    /// or one written "after now" (the clock went back), is replaced.
    @Test func aFileWrittenLessThanFourSecondsAgoNeedsNoReplacing() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(!LastFixCache.isRecent(in: try cache()), "nothing kept")
        let fix = try Location(
            latitude: 64.15, longitude: -21.94, time: Date(timeIntervalSince1970: 1_767_254_406), mode: .threeDimensional)
        LastFixCache.store(fix, in: try cache())
        let written = Date()
        for (later, isRecent) in [(0.0, true), (3.5, true), (4.5, false), (60, false), (-60, false)] {
            #expect(LastFixCache.isRecent(in: try cache(), now: written.addingTimeInterval(later)) == isRecent, "\(later) s later")
        }
    }

    @Test func readsWhatItWrites() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(entry())
        #expect(try load()?.latitude == 64.15)
    }

    @Test(arguments: [
        ["lat": "95"], ["lon": "-180.5"], ["lat": "\"64\""], ["lat": "null"], ["time": "1e300"], ["time": "\"9999-01-01T00:00:00Z\""],
        ["time": "\"1970-01-01T00:00:00Z\""], ["time": "\"noon\""],
        ["received": "1e300"], ["received": "null"], ["h_acc": "-1"], ["speed": "1e9"], ["course": "400"], ["alt_msl": "1e12"],
        ["sats_used": "2.5"], ["sats_used": "-1"], ["mode": "\"4d\""], ["mode": "3"], ["accuracy": "\"perfect\""], ["format": "1"],
        ["device": "\"" + String(repeating: "d", count: 300) + "\""], ["lat": "[64]"], ["lat": "{\"a\":1}"],
    ])
    func ignoresAFileWithAnyFieldOutOfRange(change: [String: String]) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(entry(change))
        #expect(try load() == nil, "\(change)")
    }

    @Test(arguments: [
        "not json", "", "{", "{}", "{\"lat\":1,\"lat\":2}", "\u{FEFF}{}", "{\"lat\":1}garbage", String(repeating: "[", count: 100_000),
    ])
    func ignoresAFileThatIsNotAnEntry(text: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(text)
        #expect(try load() == nil)
    }

    @Test func aFixDatedInTheFutureOrReceivedAfterNowIsNotServed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let aYearAhead = now.timeIntervalSince1970 + 365 * 86_400
        try writeFile(entry(["time": time(aYearAhead), "received": String(now.timeIntervalSince1970)]))
        #expect(try load() == nil, "a receiver time ahead of its receipt")
        try writeFile(entry(["time": time(aYearAhead), "received": String(aYearAhead)]))
        #expect(try load() == nil, "received after now: the clock went back")
        try writeFile(entry(["time": time(now.timeIntervalSince1970 + 2), "received": String(now.timeIntervalSince1970)]))
        #expect(try load() != nil, "within the skew tolerance")
    }

    @Test func aBadFileIsReplacedByTheNextStore() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(entry(["time": "1e300"]))
        LastFixCache.store(try Location(latitude: 1, longitude: 2, mode: .twoDimensional), in: try cache(), receivedAt: now)
        #expect(try load()?.latitude == 1)
    }
}
