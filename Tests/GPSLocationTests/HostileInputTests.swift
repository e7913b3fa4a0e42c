import Foundation
import HostileInput
import Testing
@testable import GPSLocation

/// Seeded mutations of valid settings files, cache files and gpsd messages, thousands of each:
/// whatever the bytes, nothing crashes, a file is either read whole or refused with a clear
/// message, and nothing outside the plausible ranges becomes a position. README gives the figures.
struct HostileInputTests {
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
        #"{"format":1,"lat":64.150432167,"lon":-21.940456667,"time":1767254406.000,"received":1767254406.500,"alt_msl":12.500,"alt_hae":null,"h_acc":17.100,"v_acc":null,"speed":0.500,"course":90.000,"mode":"3d","sats_used":8,"device":"/dev/ttyACM0","accuracy":"full"}"#,
        #"{"format":1,"lat":37.5,"lon":126.9,"time":null,"received":1767254406.5,"mode":null,"accuracy":"reduced"}"#,
    ]

    static let gpsdSeeds = [
        #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:06.000Z","ept":0.005,"lat":64.150432167,"lon":-21.940456667,"altHAE":57.5000,"altMSL":12.5000,"epx":17.386,"epy":15.218,"epv":29.900,"track":12.5,"speed":3.3,"climb":0.1,"eps":34.77,"eph":17.100}"#,
        #"{"class":"SKY","device":"/dev/pts/1","hdop":0.90,"nSat":3,"uSat":2,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true},{"PRN":5,"el":28.0,"az":45.0,"ss":32.0,"used":true}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1","driver":"NMEA0183","activated":"2026-01-01T08:00:00.000Z"}]}"#,
        #"{"class":"POLL","time":"2026-01-01T08:00:07.120Z","active":1,"tpv":[{"class":"TPV","device":"/dev/pts/1","mode":2,"lat":1.25,"lon":2.5}],"gst":[],"sky":[]}"#,
        #"{"class":"ERROR","message":"No such device as /dev/x"}"#,
        #"{"class":"TPV","device":"/dev/pts/1","mode":1}"#,
    ]

    /// How many mutants of each kind the suite tries (README's figures).
    static let settingsCount = 3000
    static let cacheCount = 3000
    static let gpsdCount = 5000

    private static func hasHiddenCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: UntrustedText.isHidden)
    }

    @Test func mutatedSettingsFilesAreReadWholeOrRefusedClearly() {
        var mutator = Mutator(seed: 1)
        var refused = 0
        for bytes in mutator.corpus(from: Self.settingsSeeds, count: Self.settingsCount) {
            let lineCount = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            for role in [LocationSettings.Role.user, .policy] {
                do {
                    let settings = try LocationSettings(bytes: bytes, file: "/f", role: role)
                    for value in [settings.fallbackLatitude?.value, settings.fallbackLongitude?.value].compactMap({ $0 }) {
                        #expect(value.isFinite && abs(value) <= 180)
                    }
                    #expect(settings.location.timeout.map { $0.value > .zero } ?? true)
                } catch {
                    refused += 1
                    #expect((1...lineCount).contains(error.line ?? 1), "\(error)")
                    #expect((error.column ?? 1) >= 1 && !error.message.isEmpty)
                    #expect(!Self.hasHiddenCharacters(error.description), "\(error.description)")
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
                try UserSettingsEditor(file: file).update(app: AppName("weather"), setting: [.authorization(.denied)])
            } catch {
                #expect(FileManager.default.contents(atPath: file) == Data(bytes), "a refused edit leaves the file as it was")
                continue
            }
            let written = try LocationSettings(bytes: Array(FileManager.default.contents(atPath: file) ?? Data()), file: file, role: .user)
            #expect(written.apps[try AppName("weather")]?.authorization?.value == .denied)
        }
    }

    @Test func mutatedCacheFilesAreServedOnlyWhenEveryFieldChecksOut() throws {
        var mutator = Mutator(seed: 3)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = LastFixCache(environment: ["XDG_CACHE_HOME": directory.path])
        try FileManager.default.createDirectory(atPath: directory.path + "/locate", withIntermediateDirectories: true)
        let now = Date(timeIntervalSince1970: 1_767_254_500)
        var served = 0
        for bytes in mutator.corpus(from: Self.cacheSeeds, count: Self.cacheCount) {
            _ = FileManager.default.createFile(atPath: cache.path, contents: Data(bytes))
            guard let location = cache.load(now: now) else { continue }
            served += 1
            #expect(Plausible.isPosition(latitude: location.latitude, longitude: location.longitude))
            #expect(location.time.map { Plausible.time.contains($0.timeIntervalSince1970) } ?? true)
            #expect(location.age(at: now) != nil || location.time == nil, "a served fix's age is known")
            for value in [location.horizontalAccuracy, location.verticalAccuracy, location.speed].compactMap({ $0 }) {
                #expect(value >= 0 && value.isFinite)
            }
            #expect(location.source == .cache)
        }
        #expect(served >= Self.cacheSeeds.count && served < Self.cacheCount / 2)
    }

    @Test func mutatedGPSDMessagesNeverBecomeImplausiblePositions() {
        var mutator = Mutator(seed: 4)
        var fixes = 0
        for var bytes in mutator.corpus(from: Self.gpsdSeeds, count: Self.gpsdCount) {
            let decoder = GPSDMessageDecoder()
            let length = bytes.count
            bytes.append(0)
            guard case .fix(let location) = decoder.decode(&bytes, 0..<length) else { continue }
            fixes += 1
            #expect(Plausible.isPosition(latitude: location.latitude, longitude: location.longitude))
            #expect(location.time.map { Plausible.time.contains($0.timeIntervalSince1970) } ?? true)
            #expect(location.altitudeMSL.map { Plausible.altitude.contains($0) } ?? true)
            #expect(location.horizontalAccuracy.map { Plausible.error.contains($0) } ?? true)
            #expect(!Self.hasHiddenCharacters(location.device ?? ""), "\(location.device ?? "")")
            #expect(bytes.starts(with: Array(#"{"class":"TPV""#.utf8)) || bytes.starts(with: Array(#"{"class":"POLL""#.utf8))
                    || String(decoding: bytes, as: UTF8.self).contains(#""class":"TPV""#), "only a TPV is a fix")
        }
        #expect(fixes > 0 && fixes < Self.gpsdCount, "some mutants stay fixes, most do not")
    }
}
