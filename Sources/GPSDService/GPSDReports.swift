import FoundationEssentials
import GPSLocation
import LocateSupport

/// The reports `locate serve` writes in gpsd's JSON protocol that are its own, not gpsd's lines
/// passed on: its answers to requests (WATCH, DEVICES, POLL, ERROR), the TPV of a grid cell for
/// an app with reduced accuracy, and the no-fix TPV that keeps a silent watch alive. Compact,
/// members in gpsd 3.22's order and number formats, each line ended by CR LF (the Python client
/// reads nothing else, and libgps's class match needs the compact form).
enum GPSDReports {
    /// The banner of gpsd 3.22, for a client that comes before gpsd's own is known.
    static let version = Array(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#.utf8)

    /// `bytes` as a line of the protocol.
    static func line(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var line = [UInt8]()
        line.reserveCapacity(bytes.count + 2)
        line += bytes
        line += [0x0D, 0x0A]
        return line
    }

    /// The DEVICES report of `devices`, each a DEVICE object as gpsd wrote it.
    static func devices(_ devices: [[UInt8]]) -> [UInt8] {
        var bytes = Array(#"{"class":"DEVICES","devices":["#.utf8)
        for (index, device) in devices.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += device
        }
        bytes += Array("]}".utf8)
        return line(bytes)
    }

    /// The WATCH report: the client's policy, as gpsd echoes it.
    static func watch(_ policy: WatchPolicy) -> [UInt8] {
        var text = #"{"class":"WATCH","enable":\#(policy.enabled),"json":\#(policy.json),"nmea":\#(policy.nmea),"raw":\#(policy.raw),"#
        text += #""scaled":\#(policy.scaled),"timing":\#(policy.timing),"split24":\#(policy.split24),"pps":\#(policy.pps)"#
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

    /// The POLL reply at `now`: the watched receivers' count and their reports (objects as
    /// gpsd wrote them, or a cell's TPV), as gpsd lists them.
    static func poll(now: Date, active: Int, tpv: [[UInt8]], gst: [[UInt8]], sky: [[UInt8]]) -> [UInt8] {
        var bytes = Array(#"{"class":"POLL","time":""#.utf8)
        _ = UTCTimestamp.append(now, to: &bytes)
        bytes += Array(#"","active":\#(active),"tpv":["#.utf8)
        func list(_ objects: [[UInt8]]) {
            for (index, object) in objects.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += object
            }
        }
        list(tpv)
        bytes += Array(#"],"gst":["#.utf8)
        list(gst)
        bytes += Array(#"],"sky":["#.utf8)
        list(sky)
        bytes += Array("]}".utf8)
        return line(bytes)
    }

    /// The TPV of a grid cell (a released location under reduced accuracy): its centre and
    /// time, and nothing finer (no height, motion or error below the cell's).
    static func cell(_ cell: Location, device: String?) -> [UInt8] {
        var bytes = Array(#"{"class":"TPV""#.utf8)
        appendDevice(device, to: &bytes)
        bytes += Array(#","mode":\#(cell.mode == .threeDimensional ? 3 : 2)"#.utf8)
        if let time = cell.time {
            bytes += Array(#","time":""#.utf8)
            _ = UTCTimestamp.append(time, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        for (key, value) in [(#","lat":"#, cell.latitude), (#","lon":"#, cell.longitude)] {
            var member = Array(key.utf8)
            if NumberFormatting.append(value, decimals: 9, to: &member) { bytes += member }
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The TPV that says there is no fix, which keeps a silent watch alive (gpxlogger gives up
    /// after 5 s of silence).
    static func noFix(device: String?) -> [UInt8] {
        var bytes = Array(#"{"class":"TPV""#.utf8)
        appendDevice(device, to: &bytes)
        bytes += Array(#","mode":1}"#.utf8)
        return line(bytes)
    }

    /// gpsd's TPV `report` without the members only a watch with `"timing":true` gets (`rtime`,
    /// `pps`, `sor`, `chars`, `sats`, `week`, `tow`, `rollovers`: gpsd writes them together,
    /// after `geoidSep`); `report` itself when it has none.
    static func withoutTiming(_ report: [UInt8]) -> [UInt8] {
        let start = Array(#","rtime":"#.utf8)
        let last = Array(#","rollovers":"#.utf8)
        guard let from = report.firstRange(of: start)?.lowerBound, let rollovers = report[from...].firstRange(of: last)?.upperBound
        else { return report }
        // The value of `rollovers` is a number: it ends at the next `,` or `}`.
        let end = report[rollovers...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? report.endIndex
        return Array(report[..<from] + report[end...])
    }

    private static func appendDevice(_ device: String?, to bytes: inout [UInt8]) {
        guard let device else { return }
        bytes += Array(#","device":"#.utf8)
        FlatJSON.appendQuoted(device, to: &bytes)
    }
}
