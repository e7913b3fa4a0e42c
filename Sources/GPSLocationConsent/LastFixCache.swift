import FoundationEssentials
import GPSLocation
import LocateSupport

/// The last fix handed out, kept so that a request that accepts a fix of some age can answer
/// without waiting for the receiver: `last-fix.json` in the user's private cache directory
/// (`$XDG_CACHE_HOME/locate`), mode 0600, replaced atomically.
///
/// Only positions the gate released are stored, in the form they were handed out (so under
/// reduced accuracy only the grid cell), and a cached position passes the gate again before it
/// is handed out. The consent store decides when to keep, read and purge it, under its lock.
///
/// The file is not trusted: every field is checked when it is read, and a file that is not one
/// this cache wrote (bad syntax, a value out of range, a receiver time ahead of the system time
/// at which the fix was received) is ignored, and replaced by the next fix stored. Next to the
/// receiver's time, an entry keeps this machine's time of receipt, so a fix dated in the future
/// is not taken for a fresh one.
struct LastFixCache {
    /// The cache file's name in the cache directory.
    static let fileName = "last-fix.json"
    /// The lock file that orders keeping a fix and purging it.
    static let lockName = ".last-fix.lock"

    /// The cached fix as of `now` in `directory`, or `nil` when there is none, the file is not
    /// one this cache wrote (or not the user's own), or the fix's age cannot be trusted.
    static func load(from directory: DirectoryHandle, now: Date = Date()) -> Location? {
        guard let bytes = try? directory.read(fileName, owner: .user, limit: 64 * 1024), let members = FlatJSON.parse(bytes) else {
            return nil
        }
        return Entry(members)?.location(now: now)
    }

    /// Stores `location`, which the gate released, received at `now`. Failures are ignored: the
    /// cache only saves time.
    static func store(_ location: Location, in directory: DirectoryHandle, receivedAt now: Date = Date()) {
        try? directory.replace(fileName, with: Array((Entry(location, received: now).json + "\n").utf8), durable: false)
    }

    /// One cached fix: the file's members, each checked.
    private struct Entry {
        static let format = 1

        var location: Location
        var received: Double

        init(_ location: Location, received: Date) {
            self.location = location
            self.received = received.timeIntervalSince1970
        }

        /// The entry in `members`, or `nil` when any member is missing, of the wrong type or out of range.
        init?(_ members: [String: FlatJSON.Value]) {
            func number(_ key: String) -> Double?? {
                switch members[key] {
                case .number(let value)?: .some(value)
                case .null?, nil: .some(nil)
                default: nil
                }
            }
            func text(_ key: String) -> String?? {
                switch members[key] {
                case .string(let value)?: .some(value)
                case .null?, nil: .some(nil)
                default: nil
                }
            }
            /// A member that must be absent, null, or finite and in `range`.
            func measured(_ key: String, _ range: ClosedRange<Double>) -> Double?? {
                guard let value = number(key) else { return nil }
                guard let value else { return .some(nil) }
                return Plausible.value(value, in: range).map { .some($0) }
            }
            guard number("format") == .some(Double(Self.format)),
                let latitude = number("lat") ?? nil, let longitude = number("lon") ?? nil,
                Plausible.isPosition(latitude: latitude, longitude: longitude),
                let received = number("received") ?? nil, Plausible.time.contains(received),
                let time = measured("time", Plausible.time),
                let altitudeMSL = measured("alt_msl", Plausible.altitude), let altitudeHAE = measured("alt_hae", Plausible.altitude),
                let horizontal = measured("h_acc", Plausible.error), let vertical = measured("v_acc", Plausible.error),
                let speed = measured("speed", Plausible.speed), let course = measured("course", Plausible.course),
                let satellites = measured("sats_used", Double(Plausible.satellites.lowerBound)...Double(Plausible.satellites.upperBound)),
                satellites.map({ $0 == $0.rounded() }) ?? true,
                let mode = text("mode"), mode.map({ FixMode(rawValue: $0) != nil }) ?? true,
                let device = text("device"), device.map({ $0.utf8.count <= 256 }) ?? true,
                case .string(let accuracyText)? = members["accuracy"], let accuracy = AccuracyAuthorization(rawValue: accuracyText)
            else { return nil }
            self.received = received
            location = Location(
                latitude: latitude, longitude: longitude, time: time.map(Date.init(timeIntervalSince1970:)),
                altitudeMSL: altitudeMSL, altitudeHAE: altitudeHAE, horizontalAccuracy: horizontal, verticalAccuracy: vertical,
                speed: speed, course: course, mode: mode.flatMap(FixMode.init(rawValue:)),
                satellitesUsed: satellites.map { Int($0) }, device: device.map { UntrustedText.visible($0) },
                source: .cache, accuracy: accuracy)
        }

        /// The cached location as of `now`, unless its age cannot be trusted: it was received
        /// after `now` (the clock went back), or its receiver time is ahead of its receipt.
        func location(now: Date) -> Location? {
            let skew = Location.clockSkewTolerance.seconds
            guard received <= now.timeIntervalSince1970 + skew else { return nil }
            if let time = location.time, time.timeIntervalSince1970 > received + skew { return nil }
            return location
        }

        var json: String {
            func number(_ value: Double?, _ decimals: Int) -> String {
                value.flatMap { NumberFormatting.fixed($0, decimals: decimals) } ?? "null"
            }
            var object = JSONObjectWriter()
            object.add("format", json: String(Self.format))
            object.add("lat", json: number(location.latitude, 9))
            object.add("lon", json: number(location.longitude, 9))
            object.add("time", json: number(location.time?.timeIntervalSince1970, 3))
            object.add("received", json: number(received, 3))
            object.add("alt_msl", json: number(location.altitudeMSL, 3))
            object.add("alt_hae", json: number(location.altitudeHAE, 3))
            object.add("h_acc", json: number(location.horizontalAccuracy, 3))
            object.add("v_acc", json: number(location.verticalAccuracy, 3))
            object.add("speed", json: number(location.speed, 3))
            object.add("course", json: number(location.course, 3))
            object.add("mode", string: location.mode?.rawValue)
            object.add("sats_used", json: number(location.satellitesUsed.map(Double.init), 0))
            object.add("device", string: location.device)
            object.add("accuracy", string: location.accuracy.rawValue)
            return object.text
        }
    }
}
