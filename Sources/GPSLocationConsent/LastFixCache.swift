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
/// Two lines: the cache's own (`{"format":2,"received":SECONDS}`), then the location as
/// `Location.jsonRecord` writes it, the one key set of every record. The file is not trusted:
/// every field is checked when it is read, and a file that is not one this cache wrote (bad
/// syntax, a value out of range, a receiver time ahead of the system time at which the fix was
/// received) is ignored, and replaced by the next fix stored. Next to the receiver's time, an
/// entry keeps this machine's time of receipt, so a fix dated in the future is not taken for a
/// fresh one.
struct LastFixCache {
    /// The cache file's name in the cache directory.
    static let fileName = "last-fix.json"
    /// The lock file that orders keeping a fix and purging it.
    static let lockName = ".last-fix.lock"
    /// The version of the file's layout.
    static let format = 2

    /// The cached fix as of `now` in `directory`, or `nil` when there is none, the file is not
    /// one this cache wrote (or not the user's own), or the fix's age cannot be trusted.
    static func load(from directory: DirectoryHandle, now: Date = Date()) -> Location? {
        guard let bytes = try? directory.read(fileName, owner: .user, limit: 64 * 1024),
            let newline = bytes.firstIndex(of: UInt8(ascii: "\n")), let header = FlatJSON.parse(Array(bytes[..<newline])),
            header["format"] == .number(Double(format)), case .number(let received)? = header["received"], received.isFinite,
            let location = try? Location(jsonRecord: Array(bytes[(newline + 1)...].prefix { $0 != UInt8(ascii: "\n") }))
        else { return nil }
        // The fix's age cannot be trusted when it was received after now (the clock went back),
        // or its receiver time is ahead of its receipt.
        let skew = Location.clockSkewTolerance.components.seconds
        guard received <= now.timeIntervalSince1970 + Double(skew) else { return nil }
        if let time = location.time, time.timeIntervalSince1970 > received + Double(skew) { return nil }
        return location
    }

    /// How often a fix is kept at most: a status bar that asks every second would otherwise
    /// replace the file, and wear an SD card, every second. Below a stream's 5 s between keeps,
    /// so that a stream's keep is never the one skipped.
    static let refreshInterval = 4.0

    /// Whether the file in `directory` was written less than `refreshInterval` before `now` (and
    /// not after it), so that a new fix need not replace it. Asked of the file's time alone: not
    /// reading it keeps a `--once` from loading the code that reads a record.
    static func isRecent(in directory: DirectoryHandle, now: Date = Date()) -> Bool {
        guard let written = directory.lastModified(fileName) else { return false }
        let age = now.timeIntervalSince1970 - written
        return age >= 0 && age < refreshInterval
    }

    /// Stores `location`, which the gate released, received at `now`. Failures are ignored: the
    /// cache only saves time.
    static func store(_ location: Location, in directory: DirectoryHandle, receivedAt now: Date = Date()) {
        var header = JSONObjectWriter()
        header.add("format", json: String(format))
        header.add("received", json: NumberFormatting.fixed(now.timeIntervalSince1970, decimals: 3) ?? "0")
        try? directory.replace(fileName, with: Array((header.text + "\n" + location.jsonRecord + "\n").utf8), durable: false)
    }
}
