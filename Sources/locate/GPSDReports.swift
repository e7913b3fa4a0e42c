import FoundationEssentials
import GPSLocation
import LocateSupport

/// The reports of the gpsd JSON protocol as gpsd 3.22 writes them, for `locate serve`'s clients:
/// compact JSON, members in gpsd's order and number formats, each line ended by CR LF (the
/// Python client reads nothing else, and libgps's class match needs the compact form).
enum GPSDReports {
    /// The banner, sent on accept and for `?VERSION;`. The release is gpsd's, as cgps checks it.
    static let version = line(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)

    /// The DEVICES report: the receiver `locate serve` reads, when one has been seen.
    static func devices(_ device: String?, now: Date) -> [UInt8] {
        var bytes = Array(#"{"class":"DEVICES","devices":["#.utf8)
        if let device { bytes += deviceObject(device, now: now) }
        bytes += Array("]}".utf8)
        return line(bytes)
    }

    /// The DEVICE report (`?DEVICE;`): the receiver alone, or an ERROR when none has been seen.
    static func device(_ device: String?, now: Date) -> [UInt8] {
        guard let device else { return error("No device seen yet") }
        return line(deviceObject(device, now: now))
    }

    /// The WATCH report: the client's policy, as gpsd echoes it.
    static func watch(_ policy: WatchPolicy) -> [UInt8] {
        var text = #"{"class":"WATCH","enable":\#(policy.enabled),"json":\#(policy.json),"nmea":\#(policy.nmea),"#
        text += #""raw":0,"scaled":false,"timing":false,"split24":false,"pps":false"#
        var bytes = Array(text.utf8)
        if let device = policy.device {
            bytes += Array(#","device":"#.utf8)
            FlatJSON.appendQuoted(device, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return line(bytes)
    }

    /// An ERROR report.
    static func error(_ message: String) -> [UInt8] {
        var bytes = Array(#"{"class":"ERROR","message":"#.utf8)
        FlatJSON.appendQuoted(message, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return line(bytes)
    }

    /// A TPV of `location` (a released one: under reduced accuracy, its grid cell, without
    /// altitude, speed, course or errors); `nil` gives the no-fix TPV.
    static func tpv(_ location: Location?, device: String?) -> [UInt8] {
        line(tpvObject(location, device: device))
    }

    /// A SKY report of the sky view `location` carries (a released one: under reduced accuracy
    /// it carries none), with the fix's time; an empty list says the view is gone.
    static func sky(_ location: Location, device: String?) -> [UInt8] {
        line(skyObject(location, device: device))
    }

    /// The POLL reply: the client's current fix (released) and its sky view, or none.
    static func poll(_ location: Location?, device: String?, active: Bool, now: Date) -> [UInt8] {
        var bytes = Array(#"{"class":"POLL","time":""#.utf8)
        _ = UTCTimestamp.append(now, to: &bytes)
        bytes += Array(#"","active":\#(active ? 1 : 0),"tpv":["#.utf8)
        if let location { bytes += tpvObject(location, device: device) }
        bytes += Array(#"],"gst":[],"sky":["#.utf8)
        if let location, !location.satellites.isEmpty { bytes += skyObject(location, device: device) }
        bytes += Array("]}".utf8)
        return line(bytes)
    }

    /// gpsd 3.22's SKY object: the device, the time (the fix's), the HDOP, the counts, then each
    /// satellite's PRN, elevation, azimuth, signal and use, in gpsd's number formats. The other
    /// dilutions and the GNSS ids are not carried by the library, so they are left out (gpspipe,
    /// cgps, libgps and the Python client read the report without them).
    private static func skyObject(_ location: Location, device: String?) -> [UInt8] {
        var bytes = Array(#"{"class":"SKY""#.utf8)
        if let device {
            bytes += Array(#","device":"#.utf8)
            FlatJSON.appendQuoted(device, to: &bytes)
        }
        if let time = location.time {
            bytes += Array(#","time":""#.utf8)
            _ = UTCTimestamp.append(time, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        append(",\"hdop\":", location.hdop, 2, to: &bytes)
        let used = location.satellites.count { $0.isUsed }
        bytes += Array(#","nSat":\#(location.satellites.count),"uSat":\#(used),"satellites":["#.utf8)
        for (index, satellite) in location.satellites.enumerated() {
            bytes += Array((index == 0 ? #"{"PRN":"# : #",{"PRN":"#).utf8) + Array(String(satellite.prn).utf8)
            append(#","el":"#, satellite.elevation, 1, to: &bytes)
            append(#","az":"#, satellite.azimuth, 1, to: &bytes)
            append(#","ss":"#, satellite.signalStrength, 1, to: &bytes)
            bytes += Array(#","used":\#(satellite.isUsed)}"#.utf8)
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    /// `key` and `value` in `decimals`, when there is a value.
    private static func append(_ key: String, _ value: Double?, _ decimals: Int, to bytes: inout [UInt8]) {
        guard let value else { return }
        var text = Array(key.utf8)
        guard NumberFormatting.append(value, decimals: decimals, to: &text) else { return }
        bytes += text
    }

    private static func tpvObject(_ location: Location?, device: String?) -> [UInt8] {
        var bytes = Array(#"{"class":"TPV""#.utf8)
        if let device {
            bytes += Array(#","device":"#.utf8)
            FlatJSON.appendQuoted(device, to: &bytes)
        }
        guard let location, let mode = location.mode else {
            bytes += Array(#","mode":1}"#.utf8)
            return bytes
        }
        bytes += Array(#","mode":\#(mode == .threeDimensional ? 3 : 2)"#.utf8)
        if let time = location.time {
            bytes += Array(#","time":""#.utf8)
            _ = UTCTimestamp.append(time, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        func number(_ key: String, _ value: Double?, _ decimals: Int) {
            append(",\"\(key)\":", value, decimals, to: &bytes)
        }
        number("lat", location.latitude, 9)
        number("lon", location.longitude, 9)
        // Under reduced accuracy the cell is all there is: no height, motion or error below it.
        guard location.accuracy == .fullAccuracy else {
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }
        number("altHAE", location.altitudeHAE, 4)
        number("altMSL", location.altitudeMSL, 4)
        number("alt", location.altitudeMSL, 4)
        number("epv", location.verticalAccuracy, 3)
        number("track", location.course, 4)
        number("speed", location.speed, 3)
        if mode == .threeDimensional { number("climb", location.climb, 3) }
        number("epd", location.courseAccuracy, 4)
        number("eps", location.speedAccuracy, 2)
        number("eph", location.horizontalAccuracy, 3)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private static func deviceObject(_ device: String, now: Date) -> [UInt8] {
        var bytes = Array(#"{"class":"DEVICE","path":"#.utf8)
        FlatJSON.appendQuoted(device, to: &bytes)
        bytes += Array(#","activated":""#.utf8)
        _ = UTCTimestamp.append(now, to: &bytes)
        bytes += Array(#"","flags":1,"native":0}"#.utf8)
        return bytes
    }

    private static func line(_ text: String) -> [UInt8] { line(Array(text.utf8)) }

    private static func line(_ bytes: [UInt8]) -> [UInt8] { bytes + [0x0D, 0x0A] }
}

/// What a client asked to be sent (`?WATCH=`), as gpsd keeps it per client.
struct WatchPolicy: Sendable, Equatable {
    var enabled = false
    var json = false
    var nmea = false
    /// The device the client watches; `nil` for all.
    var device: String?

    /// Whether fixes go to the client.
    var streams: Bool { enabled && (json || nmea) }
}
