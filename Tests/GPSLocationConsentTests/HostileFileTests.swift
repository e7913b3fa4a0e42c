import Foundation
import GPSLocation
import HostileInput
import LocateSupport
import Testing

@testable import GPSLocationConsent

/// Seeded mutations of valid settings files and cache files, thousands of each: whatever the
/// bytes, nothing crashes, a file is either read whole or refused with a clear message, and
/// nothing outside the plausible ranges is served from the cache. locate-privacy(7) gives the figures.
struct HostileFileTests {
    static let settingsSeeds = [
        """
        # locate.conf
        [location]
        services = on
        authorization = when-in-use
        accuracy = full
        timeout = 30
        [fallback]
        latitude = 37.517829
        longitude = 126.886270
        enabled = yes
        [gpsd]
        server = localhost:2947
        [app "weather"]
        authorization = "always"  ; quoted
        accuracy = reduced

        """,
        "[location]\nservices = off\nauthorization = restricted\naccuracy = reduced\n[fallback]\nlatitude = 51.5\nlongitude = -0.12\n",
    ]

    static let cacheSeeds = [
        #"{"format":2,"received":1767254406.500}"# + "\n"
            + #"{"time":"2026-01-01T08:00:06.000Z","lat":64.150432167,"lon":-21.940456667,"alt_msl":12.500,"alt_hae":null,"h_acc":17.100,"v_acc":null,"speed":0.500,"course":90.000,"mode":"3d","sats_used":8,"device":"/dev/ttyACM0","accuracy":"full"}"#
            + "\n",
        #"{"format":2,"received":1767254406.5}"# + "\n" + #"{"lat":37.5,"lon":126.9,"time":null,"mode":null,"accuracy":"reduced"}"#,
    ]

    /// How many mutants of each kind the suite tries (locate-privacy(7)'s figures).
    static let settingsCount = 3000
    static let cacheCount = 3000

    @Test func mutatedSettingsFilesAreReadWholeOrRefusedClearly() {
        var mutator = Mutator(seed: 1)
        var refused = 0
        for bytes in mutator.corpus(from: Self.settingsSeeds, count: Self.settingsCount) {
            let lineCount = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            for role in [LocationSettings.Role.user, .policy] {
                do throws(GPSLocationError) {
                    let settings = try LocationSettings(SettingsLines(bytes), file: "/f", role: role)
                    for value in [settings.fallbackLatitude?.value, settings.fallbackLongitude?.value].compactMap({ $0 }) {
                        #expect(value.isFinite && abs(value) <= 180)
                    }
                    #expect(settings.location.timeout.map { $0.value > .zero } ?? true)
                } catch {
                    refused += 1
                    guard case .invalidSettings(let problem) = error else {
                        Issue.record("not a settings problem: \(error)")
                        continue
                    }
                    #expect((1...lineCount).contains(problem.line ?? 1), "\(problem)")
                    #expect((problem.column ?? 1) >= 1 && !problem.message.isEmpty)
                    #expect(!UntrustedText.hasHidden(problem.description), "\(problem.description)")
                }
            }
        }
        #expect(refused > Self.settingsCount / 2, "the mutations reach the parser's error paths")
    }

    @Test func theEditorNeverWritesWhatItWouldNotRead() throws {
        var mutator = Mutator(seed: 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("locate.conf").path
        for bytes in mutator.corpus(from: Self.settingsSeeds, count: 300) {
            _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
            do {
                try SettingsEditor(file: file).update(app: AppName("weather"), setting: [.authorization(.denied)])
            } catch {
                #expect(FileManager.default.contents(atPath: file) == Data(bytes), "a refused edit leaves the file as it was")
                continue
            }
            let written = try LocationSettings(
                SettingsLines(Array(FileManager.default.contents(atPath: file) ?? Data())), file: file, role: .user)
            #expect(written.apps[try AppName("weather")]?.authorization?.value == .denied)
        }
    }

    @Test func mutatedCacheFilesAreServedOnlyWhenEveryFieldChecksOut() throws {
        var mutator = Mutator(seed: 3)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DirectoryHandle(path: directory.path, create: true, isPrivate: true)
        let now = Date(timeIntervalSince1970: 1_767_254_500)
        var served = 0
        for bytes in mutator.corpus(from: Self.cacheSeeds, count: Self.cacheCount) {
            _ = FileManager.default.createFile(atPath: directory.path + "/" + LastFixCache.fileName, contents: Data(bytes))
            guard let location = LastFixCache.load(from: cache, now: now) else { continue }
            served += 1
            #expect(abs(location.latitude) <= 90 && abs(location.longitude) <= 180)
            #expect(location.time.map { (315_964_800.0...7_258_118_400.0).contains($0.timeIntervalSince1970) } ?? true)
            #expect(location.age(at: now) != nil || location.time == nil, "a served fix's age is known")
            for value in [location.horizontalAccuracy, location.verticalAccuracy, location.speed].compactMap({ $0 }) {
                #expect(value >= 0 && value.isFinite)
            }
            #expect(try Location(jsonRecord: Array(location.jsonRecord.utf8)) == location, "what is served is what a record says")
        }
        #expect(served >= Self.cacheSeeds.count && served < Self.cacheCount / 2)
    }
}
