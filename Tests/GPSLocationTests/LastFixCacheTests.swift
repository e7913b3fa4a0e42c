import Foundation
import Testing
@testable import GPSLocation

struct LastFixCacheTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-cache-\(UUID().uuidString)")

    @Test func keepsAFixPrivatelyAndGivesItBackAsCached() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = LastFixCache(environment: ["XDG_CACHE_HOME": directory.path])
        #expect(cache.path == directory.path + "/locate/last-fix.json")
        #expect(cache.load() == nil)
        let fix = Location(latitude: 64.15, longitude: -21.94, time: Date(timeIntervalSince1970: 1_767_254_406),
                           altitudeMSL: 12.5, horizontalAccuracy: 17.1, mode: .threeDimensional, satellitesUsed: 8, device: "/dev/gps")
        cache.store(fix)
        var expected = fix
        expected.source = .cache
        #expect(cache.load() == expected)
        #expect(((try FileManager.default.attributesOfItem(atPath: cache.path))[.posixPermissions] as? Int) == 0o600)
        cache.purge()
        #expect(cache.load() == nil)
    }

    @Test func ignoresAFileItDidNotWrite() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = LastFixCache(environment: ["XDG_CACHE_HOME": directory.path])
        try FileManager.default.createDirectory(atPath: directory.path + "/locate", withIntermediateDirectories: true)
        for junk in ["not json", #"{"lat":95,"lon":0,"accuracy":"full"}"#, #"{"lat":1,"lon":2,"accuracy":"perfect"}"#] {
            try junk.write(toFile: cache.path, atomically: true, encoding: .utf8)
            #expect(cache.load() == nil, "\(junk)")
        }
    }
}
