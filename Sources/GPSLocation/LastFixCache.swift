import FoundationEssentials
import Glibc

/// The last fix handed out, kept so that `requestLocation(maxAge:)` can answer without waiting
/// for the receiver: `$XDG_CACHE_HOME/locate/last-fix.json` (default `~/.cache/locate/`), mode
/// 0600, written atomically.
///
/// Only positions that passed the permission check are stored, in the form they were handed
/// out (so under reduced accuracy only the grid cell), and a cached position is checked again
/// before it is handed out. `purge()` removes it; `locate permission deny` and `reset` do.
public struct LastFixCache: Sendable, Hashable {
    /// The cache file.
    public let path: String

    /// The cache at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The cache for an environment (`XDG_CACHE_HOME`, `HOME`).
    public init(environment: [String: String]) {
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? "") + "/.cache")
        self.init(path: cacheHome + "/locate/last-fix.json")
    }

    /// Removes the cached fix, if there is one.
    public func purge() {
        unlink(path)
    }

    /// The cached fix, or `nil` when there is none or the file is not one this cache wrote.
    func load() -> Location? {
        guard let bytes = try? SettingsFiles.readBytes(path),
              let entry = try? JSONDecoder().decode(Entry.self, from: Data(bytes)) else { return nil }
        return entry.location
    }

    /// Stores `location`, which must be what the permission check released. Failures are
    /// ignored: the cache only saves time.
    func store(_ location: Location) {
        guard let data = try? JSONEncoder().encode(Entry(location)) else { return }
        try? PrivateFile.write(String(decoding: data, as: UTF8.self), to: path)
    }

    /// The file's content.
    private struct Entry: Codable {
        var lat: Double
        var lon: Double
        var time: Double?
        var altMSL: Double?
        var altHAE: Double?
        var hAcc: Double?
        var vAcc: Double?
        var speed: Double?
        var course: Double?
        var mode: String?
        var satellitesUsed: Int?
        var device: String?
        var accuracy: String

        init(_ location: Location) {
            lat = location.latitude
            lon = location.longitude
            time = location.time?.timeIntervalSince1970
            altMSL = location.altitudeMSL
            altHAE = location.altitudeHAE
            hAcc = location.horizontalAccuracy
            vAcc = location.verticalAccuracy
            speed = location.speed
            course = location.course
            mode = location.mode?.rawValue
            satellitesUsed = location.satellitesUsed
            device = location.device
            accuracy = location.accuracy.rawValue
        }

        var location: Location? {
            guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon),
                  let accuracy = LocationAccuracy(rawValue: accuracy) else { return nil }
            return Location(
                latitude: lat, longitude: lon, time: time.map(Date.init(timeIntervalSince1970:)),
                altitudeMSL: altMSL, altitudeHAE: altHAE, horizontalAccuracy: hAcc, verticalAccuracy: vAcc,
                speed: speed, course: course, mode: mode.flatMap(FixMode.init(rawValue:)),
                satellitesUsed: satellitesUsed, device: device, source: .cache, accuracy: accuracy)
        }
    }
}
