internal import CLibGPS
import FoundationEssentials
import Glibc

// The libgps boundary: the only Swift file that touches C types or raw pointers.

/// One libgps connection to gpsd.
///
/// - Important: not thread-safe and deliberately not `Sendable`. A session is created, used and
///   closed on one reader thread (see `GPSDReader`); only the Swift values it returns leave it.
final class GPSDSession {
    /// Outcome of one `read()`.
    enum ReadResult {
        /// A complete message, decoded.
        case report(GPSDReport)
        /// No complete line yet.
        case nothing
        /// gpsd closed the connection (`gps_read` returned -1 with errno 0).
        case closed
        /// A system-level read error.
        case failed(String)
    }

    /// gpsd caps one reply at 10,240 bytes (`GPS_JSON_RESPONSE_MAX`, not installed with gps.h);
    /// a POLL reply with TPV, GST and SKY fits with room to spare.
    private static let messageCapacity = 16_384

    /// The libgps API this build was compiled against, `major.minor` (gpsd 3.22 is 11.0), and
    /// the release of the libgps it runs with, when libgps says (`3.22`).
    static let version: String = {
        let api = "API \(GPSD_API_MAJOR_VERSION).\(GPSD_API_MINOR_VERSION)"
        guard let release = CLibGPS_releaseVersion() else { return api }
        return String(cString: release) + ", " + api
    }()

    let endpoint: GPSDEndpoint
    private let data: UnsafeMutablePointer<gps_data_t>
    private let decoder = GPSDMessageDecoder()
    private var message: [CChar]
    private var isOpen = false

    /// Connects to gpsd. This blocks for as long as the system's `connect()` does.
    /// - Throws: `GPSLocationError.gpsdUnreachable` with libgps's reason.
    init(endpoint: GPSDEndpoint) throws(GPSLocationError) {
        self.endpoint = endpoint
        // gps_data_t is about 24 KB: one stable heap copy each, never moved into Swift values.
        data = .allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        message = [CChar](repeating: 0, count: Self.messageCapacity)
        // gps_open returns -1 and leaves a negative NL_* code in errno; errno is meaningless on success.
        guard gps_open(endpoint.host, endpoint.port, data) == 0 else {
            throw .gpsdUnreachable(endpoint, String(cString: gps_errstr(errno)))
        }
        isOpen = true
    }

    deinit {
        close()
        data.deallocate()
    }

    /// Asks gpsd to stream JSON reports, and, when `poll` is set, for its current fix in the
    /// same write (gpsd answers `?POLL;` only for watchers of this connection).
    func watch(poll: Bool) throws(GPSLocationError) {
        var options = "\"enable\":true,\"json\":true"
        if let device = endpoint.device {
            options += ",\"device\":\"" + device + "\""  // GPSDEndpoint admits no quotes or backslashes
        }
        let command = "?WATCH={" + options + "};" + (poll ? "?POLL;" : "") + "\n"
        guard CLibGPS_send(data, command) == 0 else {
            throw .gpsdUnreachable(endpoint, "cannot send WATCH: " + String(cString: strerror(errno)))
        }
    }

    /// Waits up to `timeout` for data from gpsd; `true` when a read will not find the socket idle.
    func waitForData(timeout: Duration) -> Bool {
        gps_waiting(data, Int32(clamping: timeout.milliseconds * 1000))
    }

    /// Reads and decodes the next message, if a complete one has arrived.
    func read() -> ReadResult {
        // libgps does not clear `set` by itself (libgps(3)); errno tells EOF from a read error.
        data.pointee.set = 0
        errno = 0
        let count = gps_read(data, &message, Int32(message.count))
        if count < 0 {
            return errno == 0 ? .closed : .failed(String(cString: strerror(errno)))
        }
        guard count > 0 else { return .nothing }
        return .report(decoder.decode(data) {
            message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        })
    }

    /// Stops watching and disconnects; safe to call more than once.
    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = CLibGPS_stream(data, UInt32(WATCH_DISABLE))
        _ = gps_close(data)
    }

}

/// Turns what libgps parsed into `GPSDReport` values. It remembers the latest sky view, whose
/// satellite count and HDOP go with the fixes that follow it.
///
/// - Important: not thread-safe; each session owns one, on its reader thread.
final class GPSDMessageDecoder {
    /// A private `gps_data_t` for messages libgps does not parse in `gps_read` (the parts of POLL).
    private let scratch: UnsafeMutablePointer<gps_data_t>
    private var satellitesUsed: Int?
    private var hdop: Double?

    init() {
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: gps_data_t())
    }

    deinit {
        scratch.deallocate()
    }

    /// Decodes what `gps_read` left in `gps`; `line` gives the raw message, needed only for POLL.
    func decode(_ gps: UnsafePointer<gps_data_t>, line: () -> String) -> GPSDReport {
        let set = gps.pointee.set
        if set & SATELLITE_SET != 0 {
            noteSky(gps)
        }
        if set & MODE_SET != 0 {
            return decodeTPV(gps)
        }
        if set & DEVICELIST_SET != 0 {
            return .devices(devicePaths(gps))
        }
        if set & ERROR_SET != 0 {
            return .error(Self.string(gps.pointee.error) ?? "unknown error")
        }
        let text = line()
        return PollResponse.isPoll(text) ? decodePoll(text) : .other
    }

    /// Decodes one message given as JSON text, exactly as if gpsd had sent it.
    func decode(json: some StringProtocol) -> GPSDReport {
        scratch.pointee.set = 0
        var bytes = Array(String(json).utf8CString)
        guard gps_unpack(&bytes, scratch) == 0 else { return .other }
        return decode(scratch) { String(json) }
    }

    private func decodePoll(_ line: String) -> GPSDReport {
        if let sky = PollResponse.firstObject(inArray: "sky", of: line) {
            _ = decode(json: sky)
        }
        // An empty list or a mode-0 TPV means gpsd has no fix to tell.
        guard let tpv = PollResponse.firstObject(inArray: "tpv", of: line) else { return .noFix }
        let report = decode(json: tpv)
        return report == .other ? .noFix : report
    }

    private func noteSky(_ gps: UnsafePointer<gps_data_t>) {
        let used = Int(gps.pointee.satellites_used)
        satellitesUsed = Plausible.satellites.contains(used) ? used : nil
        hdop = Plausible.value(gps.pointee.dop.hdop, in: Plausible.dilution)
    }

    /// gpsd's own client rules: a TPV is a fix only with mode 2 or 3 and a finite latitude and
    /// longitude; every double may be NaN ("check all floats with isfinite()", libgps(3)). libgps
    /// takes any number gpsd sends, so a position off the globe is no fix either, and any other
    /// value outside `Plausible`'s ranges (a time before 1980, a negative error) is unknown.
    private func decodeTPV(_ gps: UnsafePointer<gps_data_t>) -> GPSDReport {
        let fix = gps.pointee.fix
        let mode: FixMode
        switch fix.mode {
        case MODE_2D: mode = .twoDimensional
        case MODE_3D: mode = .threeDimensional
        default: return .noFix
        }
        guard gps.pointee.set & LATLON_SET != 0, Plausible.isPosition(latitude: fix.latitude, longitude: fix.longitude) else { return .noFix }
        let seconds = Double(fix.time.tv_sec) + Double(fix.time.tv_nsec) / 1e9
        let time = fix.time.tv_sec == 0 ? nil : Plausible.value(seconds, in: Plausible.time).map(Date.init(timeIntervalSince1970:))
        func altitude(_ value: Double) -> Double? {
            mode == .threeDimensional ? Plausible.value(value, in: Plausible.altitude) : nil
        }
        return .fix(Location(
            latitude: fix.latitude, longitude: fix.longitude, time: time,
            altitudeMSL: altitude(fix.altMSL), altitudeHAE: altitude(fix.altHAE),
            horizontalAccuracy: Plausible.value(fix.eph, in: Plausible.error), verticalAccuracy: Plausible.value(fix.epv, in: Plausible.error),
            speed: Plausible.value(fix.speed, in: Plausible.speed), speedAccuracy: Plausible.value(fix.eps, in: Plausible.error),
            course: Plausible.value(fix.track, in: Plausible.course), courseAccuracy: Plausible.value(fix.epd, in: Plausible.error),
            climb: Plausible.value(fix.climb, in: Plausible.climb), hdop: hdop,
            mode: mode, satellitesUsed: satellitesUsed,
            device: Self.string(gps.pointee.dev.path), source: .gpsd))
    }

    private func devicePaths(_ gps: UnsafePointer<gps_data_t>) -> [String] {
        let count = Int(max(0, gps.pointee.devices.ndevices))
        return withUnsafeBytes(of: gps.pointee.devices.list) { raw in
            let list = raw.bindMemory(to: devconfig_t.self)
            return list.prefix(count).map { Self.string($0.path) ?? "" }
        }
    }

    /// A fixed-size C character array (imported as a tuple) as a String, `nil` when empty. It is
    /// gpsd's text (a device path, an error message), so its control characters are made visible
    /// before it can reach a record or a message.
    private static func string<T>(_ tuple: T) -> String? {
        let text = withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? nil : UntrustedText.visible(text, limit: 256)
    }
}
