internal import CLibGPS
import FoundationEssentials
import LocateFormats
import LocateSupport

// The libgps boundary: the only Swift file that touches libgps's C types. gpsd's socket is the
// library's own (GPSDConnection); libgps parses what arrives on it, line by line, with
// libgps_json_unpack, the parser its own gps_read uses (see shim.h for why not gps_unpack).

/// The libgps this build was made with.
enum LibGPS {
    /// The libgps API this build was compiled against, `major.minor` (gpsd 3.22 is 11.0), and
    /// the release of the libgps it runs with, when libgps says (`3.22`).
    static let version: String = {
        let api = "API \(GPSD_API_MAJOR_VERSION).\(GPSD_API_MINOR_VERSION)"
        guard let release = CLibGPS_releaseVersion() else { return api }
        return String(cString: release) + ", " + api
    }()
}

/// Turns gpsd's messages into `GPSDReport` values, through libgps's own JSON parser (a TPV in
/// gpsd's plain form through `TPVScan`, which reads it as libgps does). It
/// remembers the latest sky view, whose satellites, their count and HDOP go with the fixes that
/// follow it.
///
/// - Important: not thread-safe and deliberately not `Sendable`: each connection owns one, on
///   its thread; only the `GPSDReport` values it returns leave that thread.
final class GPSDMessageDecoder {
    /// gps_data_t is about 24 KB: one stable heap copy, parsed into for every message.
    private let data: UnsafeMutablePointer<gps_data_t>
    private var satellitesUsed: Int?
    /// The latest sky view: its satellites and dilutions. gpsd sends one an epoch; a view older
    /// than `skyLifetime`, or of another device, goes with no fix.
    private var sky: SkyView?
    private var hdop: Double?
    /// The latest true heading (ATT): it goes with the fixes that follow it as a sky view does.
    private var heading: Heading?

    /// Which device a report was of and when it came: it goes with that device's fixes that
    /// follow it within `skyLifetime`.
    private struct Origin {
        let device: [UInt8]
        let received: ContinuousClock.Instant

        func isCurrent(for device: [UInt8], at now: ContinuousClock.Instant) -> Bool {
            self.device == device && received.duration(to: now) <= GPSDMessageDecoder.skyLifetime
        }
    }

    private struct SkyView {
        let satellites: [Satellite]
        let vdop: Double?
        let pdop: Double?
        let tdop: Double?
        let gdop: Double?
        let origin: Origin
    }

    private struct Heading {
        let degrees: Double
        let origin: Origin
    }

    /// Each receiver's fixes checked against the one before (``Location/integrity``).
    private var integrity = IntegrityCheck()
    /// The last device path and its text, so a stream of fixes from one receiver makes one string.
    private var lastDevice: (bytes: [UInt8], text: String?) = ([], nil)

    /// How long a sky view goes with the fixes that follow it: a few epochs of a 1 Hz receiver.
    static let skyLifetime = Duration.seconds(5)

    /// Whether a TPV in gpsd's plain form is read by `TPVScan` rather than by libgps's parser
    /// (the same values, several times faster); off only for the test that holds them side by side.
    private let readsTPVItself: Bool

    init(readsTPVItself: Bool = true) {
        self.readsTPVItself = readsTPVItself
        data = .allocate(capacity: 1)
        data.initialize(to: gps_data_t())
    }

    deinit {
        data.deallocate()
    }

    /// Decodes the message in `buffer[range]`, one line without its line end. The byte at
    /// `range.upperBound` (the line end) is overwritten with the NUL that libgps needs. A message
    /// libgps cannot parse whole (an unknown class, a value of the wrong type) says nothing.
    func decode(_ buffer: inout [UInt8], _ range: Range<Int>) -> GPSDReport {
        buffer[range.upperBound] = 0
        if PollResponse.isPoll(buffer[range]) {
            return decodePoll(buffer[range])
        }
        if readsTPVItself, let scan = TPVScan(buffer.span.extracting(range)) {
            return scan.mode == MODE_NOT_SEEN ? .other : decodeTPV(TPVFields(scan, in: buffer, at: range.lowerBound))
        }
        let status = buffer.withUnsafeMutableBytes { raw in
            // The buffer holds at least the NUL written above, so it has an address.
            guard let base = raw.baseAddress else { return Int32(-1) }
            data.pointee.set = 0
            var end: UnsafePointer<CChar>?
            return libgps_json_unpack(base.assumingMemoryBound(to: CChar.self) + range.lowerBound, data, &end)
        }
        if status == 0 { return report() }
        // Only a line libgps refused is looked at again: gpsd 3.22's broken ATT (GPSDQuirks).
        if let repaired = GPSDQuirks.repairedAttitude(buffer[range]) { return decode(bytes: repaired[...]) }
        return .other
    }

    /// Decodes one message given as JSON text, exactly as if gpsd had sent it.
    func decode(json: some StringProtocol) -> GPSDReport {
        decode(bytes: Array(json.utf8)[...])
    }

    /// Decodes one message given as bytes, exactly as if gpsd had sent it.
    private func decode(bytes: ArraySlice<UInt8>) -> GPSDReport {
        var line = Array(bytes) + [0]
        return decode(&line, 0..<(line.count - 1))
    }

    /// What libgps parsed into `data`.
    private func report() -> GPSDReport {
        let set = data.pointee.set
        if set & SATELLITE_SET != 0 {
            noteSky()
        }
        if set & ATTITUDE_SET != 0 {
            noteHeading()
            return .other
        }
        if set & MODE_SET != 0 {
            return decodeTPV(TPVFields(data.pointee))
        }
        if set & DEVICELIST_SET != 0 {
            return .devices(devicePaths())
        }
        if set & DEVICE_SET != 0, data.pointee.dev.activated.tv_sec > 0, let path = Self.string(data.pointee.dev.path) {
            return .deviceAdded(path)
        }
        if set & ERROR_SET != 0 {
            return .error(Self.string(data.pointee.error) ?? "unknown error")
        }
        return .other
    }

    private func decodePoll(_ line: ArraySlice<UInt8>) -> GPSDReport {
        if let sky = FlatJSON.firstObject(inArray: "sky", of: line) {
            _ = decode(bytes: sky)
        }
        // An empty list or a mode-0 TPV means gpsd has no fix to tell.
        guard let tpv = FlatJSON.firstObject(inArray: "tpv", of: line) else { return .noFix }
        let report = decode(bytes: tpv)
        return report == .other ? .noFix : report
    }

    private func noteSky() {
        let used = Int(data.pointee.satellites_used)
        satellitesUsed = Plausible.satellites.contains(used) ? used : nil
        let dop = data.pointee.dop
        hdop = Plausible.value(dop.hdop, in: Plausible.dilution)
        // libgps clears the whole view for each SKY and counts only the satellites with a PRN,
        // wherever they are in it: every entry is looked at, and one gpsd numbers outside NMEA's
        // PRNs (0: not known) is left out.
        let satellites: [Satellite] = withUnsafeBytes(of: data.pointee.skyview) { raw in
            raw.bindMemory(to: satellite_t.self).compactMap { satellite -> Satellite? in
                let prn = Int(satellite.PRN)
                guard Satellite.prns.contains(prn) else { return nil }
                return Satellite(
                    unchecked: prn, elevation: Plausible.value(satellite.elevation, in: Satellite.elevations),
                    azimuth: Plausible.value(satellite.azimuth, in: Satellite.azimuths),
                    signalStrength: Plausible.value(satellite.ss, in: Satellite.signalStrengths), isUsed: satellite.used)
            }
        }
        sky = SkyView(
            satellites: satellites, vdop: Plausible.value(dop.vdop, in: Plausible.dilution),
            pdop: Plausible.value(dop.pdop, in: Plausible.dilution), tdop: Plausible.value(dop.tdop, in: Plausible.dilution),
            gdop: Plausible.value(dop.gdop, in: Plausible.dilution), origin: Origin(device: deviceBytes(), received: .now))
    }

    private func noteHeading() {
        guard let degrees = Plausible.value(data.pointee.attitude.heading, in: Plausible.course) else { return }
        heading = Heading(degrees: degrees, origin: Origin(device: deviceBytes(), received: .now))
    }

    /// The device path of the last message, as bytes.
    private func deviceBytes() -> [UInt8] {
        withUnsafeBytes(of: data.pointee.dev.path) { Array($0.prefix { $0 != 0 }) }
    }

    /// gpsd's own client rules: a TPV is a fix only with mode 2 or 3, a finite latitude and
    /// longitude, and (locate's) a time; every double may be NaN ("check all floats with isfinite()", libgps(3)). libgps
    /// takes any number gpsd sends, so a position off the globe is no fix either, and any other
    /// value outside `Plausible`'s ranges (a time before 1980, a negative error) is unknown.
    private func decodeTPV(_ fix: TPVFields) -> GPSDReport {
        let mode: FixMode
        switch fix.mode {
        case MODE_2D: mode = .twoDimensional
        case MODE_3D: mode = .threeDimensional
        default: return .noFix
        }
        // libgps's LATLON_SET: a finite longitude.
        guard fix.longitude.isFinite, Plausible.isPosition(latitude: fix.latitude, longitude: fix.longitude) else {
            return .noFix
        }
        let device = fix.device
        let seconds = Double(fix.seconds) + Double(fix.nanoseconds) / 1e9
        // A fix has a time, as CoreLocation's always do: a report without one (a receiver's first
        // epochs, a GGA before an RMC brought the date) is no fix yet, and the next epoch is waited for.
        guard fix.seconds != 0, let time = Plausible.value(seconds, in: Plausible.time).map(Date.init(timeIntervalSince1970:)) else {
            return .noFix
        }
        func altitude(_ value: Double) -> Double? {
            mode == .threeDimensional ? Plausible.value(value, in: Plausible.altitude) : nil
        }
        // The sky view and heading of this fix's device, when recent: a receiver whose SKY
        // stopped, or whose last one libgps refused, has none. (The clock is read only when there
        // is one to judge.)
        lazy var now = ContinuousClock.now
        let view = sky.flatMap { $0.origin.isCurrent(for: device, at: now) ? $0 : nil }
        let details = Location.Details(
            fix: Self.fixType(status: fix.status), vdop: view?.vdop, pdop: view?.pdop, tdop: view?.tdop, gdop: view?.gdop,
            xAccuracy: Plausible.value(fix.epx, in: Plausible.error), yAccuracy: Plausible.value(fix.epy, in: Plausible.error),
            timeAccuracy: Plausible.value(fix.ept, in: Plausible.error),
            heading: heading.flatMap { $0.origin.isCurrent(for: device, at: now) ? $0.degrees : nil },
            magneticVariation: Plausible.value(fix.magneticVariation, in: Plausible.magneticVariation),
            geoidSeparation: Plausible.value(fix.geoidSeparation, in: Plausible.geoidSeparation))
        var location = Location(
            unchecked: fix.latitude, longitude: fix.longitude, time: time,
            altitudeMSL: altitude(fix.altMSL), altitudeHAE: altitude(fix.altHAE),
            horizontalAccuracy: Plausible.value(fix.eph, in: Plausible.error),
            verticalAccuracy: Plausible.value(fix.epv, in: Plausible.error),
            speed: Plausible.value(fix.speed, in: Plausible.speed), speedAccuracy: Plausible.value(fix.eps, in: Plausible.error),
            course: Plausible.value(fix.track, in: Plausible.course), courseAccuracy: Plausible.value(fix.epd, in: Plausible.error),
            climb: Plausible.value(fix.climb, in: Plausible.climb), hdop: hdop,
            mode: mode, satellitesUsed: satellitesUsed, satellites: view?.satellites ?? [],
            device: devicePath(device), source: .gpsd, details: details)
        location.integrity = integrity.check(location)
        return .fix(location)
    }

    /// gpsd's TPV `status` as a fix type; a fix gpsd gave no status (libgps's 0) is a plain one.
    private static func fixType(status: Int32) -> Location.FixType {
        switch status {
        case STATUS_DGPS_FIX: .dgps
        case STATUS_RTK_FIX: .rtkFixed
        case STATUS_RTK_FLT: .rtkFloat
        case STATUS_DR: .deadReckoning
        case STATUS_GNSSDR: .gnssDeadReckoning
        case STATUS_TIME: .surveyed
        case STATUS_SIM: .simulated
        case STATUS_PPS_FIX: .pps
        default: .gps
        }
    }

    /// The text of the device path `bytes`, made once per distinct path.
    private func devicePath(_ bytes: [UInt8]) -> String? {
        if bytes != lastDevice.bytes {
            lastDevice = (bytes, bytes.isEmpty ? nil : UntrustedText.visible(String(decoding: bytes, as: UTF8.self), limit: 256))
        }
        return lastDevice.text
    }

    private func devicePaths() -> [String] {
        let count = Int(max(0, min(data.pointee.devices.ndevices, Int32(MAXUSERDEVS))))
        return withUnsafeBytes(of: data.pointee.devices.list) { raw in
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

/// The values of a TPV that a fix is made of, as libgps holds them (NaN for a number not sent,
/// 0 for a mode or status not sent): read by libgps into its `gps_data_t`, or by `TPVScan`
/// with libgps's own number reader.
private struct TPVFields {
    var mode: Int32
    var status: Int32
    var seconds: Int
    var nanoseconds: Int
    var latitude, longitude, altHAE, altMSL, eph, epv, speed, eps, track, epd, climb, epx, epy, ept: Double
    var magneticVariation, geoidSeparation: Double
    var device: [UInt8]
}

extension TPVFields {
    /// What libgps parsed.
    init(_ data: gps_data_t) {
        let fix = data.fix
        mode = fix.mode
        status = fix.status
        seconds = Int(fix.time.tv_sec)
        nanoseconds = Int(fix.time.tv_nsec)
        latitude = fix.latitude
        longitude = fix.longitude
        altHAE = fix.altHAE
        altMSL = fix.altMSL
        eph = fix.eph
        epv = fix.epv
        speed = fix.speed
        eps = fix.eps
        track = fix.track
        epd = fix.epd
        climb = fix.climb
        epx = fix.epx
        epy = fix.epy
        ept = fix.ept
        magneticVariation = fix.magnetic_var
        geoidSeparation = fix.geoid_sep
        device = withUnsafeBytes(of: data.dev.path) { Array($0.prefix { $0 != 0 }) }
    }

    /// What `scan` found in the line at `start` of `buffer`, its numbers read by `safe_atof`
    /// exactly as libgps reads them (the byte after each is `,` or `}`, where it stops).
    init(_ scan: TPVScan, in buffer: [UInt8], at start: Int) {
        let device = Array(buffer[start + scan.device.lowerBound..<start + scan.device.upperBound])
        self = buffer.withUnsafeBytes { raw in
            let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
            func real(_ which: TPVScan.Real) -> Double {
                let range = scan.range(of: which)
                guard let base, !range.isEmpty else { return .nan }
                return safe_atof(base + start + range.lowerBound)
            }
            return TPVFields(
                mode: scan.mode, status: scan.status, seconds: scan.seconds, nanoseconds: scan.nanoseconds,
                latitude: real(.latitude), longitude: real(.longitude), altHAE: real(.altHAE), altMSL: real(.altMSL),
                eph: real(.eph), epv: real(.epv), speed: real(.speed), eps: real(.eps), track: real(.track), epd: real(.epd),
                climb: real(.climb), epx: real(.epx), epy: real(.epy), ept: real(.ept), magneticVariation: real(.magvar),
                geoidSeparation: real(.geoidSep), device: device)
        }
    }
}
