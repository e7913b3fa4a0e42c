package import FoundationEssentials
import LocateSupport

/// The reports of gpsd's JSON protocol, their classes and members spelled here once: what
/// `locate serve` writes of its own (its answers to requests: VERSION, DEVICES, WATCH, POLL,
/// ERROR; the TPV of a grid cell for an app with reduced accuracy; the no-fix TPV that keeps a
/// silent watch alive), and the head of a report gpsd wrote (``head(_:)``: its class and its
/// receiver), by which the relay tells gpsd's lines apart. Compact, members in gpsd 3.22's order
/// and number formats, each line ended by CR LF (the Python client reads nothing else, and
/// libgps's class match needs the compact form). The constant parts of each report are bytes
/// made once; serve writes these in its loop, for every client.
package enum GPSDReports {
    /// The classes of gpsd's reports.
    package enum Class: String, Sendable, CaseIterable {
        case version = "VERSION"
        case devices = "DEVICES"
        case device = "DEVICE"
        case watch = "WATCH"
        case poll = "POLL"
        case error = "ERROR"
        case tpv = "TPV"
        case sky = "SKY"
        case gst = "GST"
        case att = "ATT"
        case toff = "TOFF"
        case pps = "PPS"
    }

    /// The members of gpsd's reports read or written here (a WATCH's own are
    /// ``WatchChange/Key``'s).
    package enum Key: String, Sendable, CaseIterable {
        case `class`, device, path, activated, devices, message, time, active, tpv, gst, sky, mode, lat, lon
        /// A TPV's other members that `TPVScan` reads.
        case status, altHAE, altMSL, eph, epv, speed, eps, track, epd, climb, epx, epy, ept, magvar, geoidSep
        case leapseconds, dgpsSta, datum
        case release, rev
        case protocolMajor = "proto_major"
        case protocolMinor = "proto_minor"
        /// The first and the last of the members only a watch with `"timing":true` gets.
        case receivedTime = "rtime"
        case rollovers
    }

    /// The release and protocol of gpsd that `locate serve` answers as.
    private static let release = "3.22"
    private static let protocolVersion = (major: 3, minor: 14)

    /// `{"class":"NAME"`: how every report of `name` starts.
    package static func start(_ name: Class) -> [UInt8] {
        Array(#"{"\#(Key.class.rawValue)":"\#(name.rawValue)""#.utf8)
    }

    /// `,"key":`, a member after the first.
    private static func member(_ key: String) -> [UInt8] {
        Array(#","\#(key)":"#.utf8)
    }

    private static func member(_ key: Key) -> [UInt8] { member(key.rawValue) }

    /// `bytes` as a line of the protocol.
    package static func line(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var line = [UInt8]()
        line.reserveCapacity(bytes.count + 2)
        line += bytes
        line += [0x0D, 0x0A]
        return line
    }

    // MARK: - Serve's answers

    /// The banner of gpsd 3.22, for a client that comes before gpsd's own is known.
    package static let version: [UInt8] = {
        var bytes = start(.version)
        for key in [Key.release, .rev] {
            bytes += member(key)
            FlatJSON.appendQuoted(release, to: &bytes)
        }
        bytes += member(.protocolMajor) + Array(String(protocolVersion.major).utf8)
        bytes += member(.protocolMinor) + Array(String(protocolVersion.minor).utf8)
        return bytes + [UInt8(ascii: "}")]
    }()

    private static let devicesStart = start(.devices) + member(.devices) + [UInt8(ascii: "[")]

    /// The DEVICES report of `devices`, each a DEVICE object as gpsd wrote it.
    package static func devices(_ devices: [[UInt8]]) -> [UInt8] {
        var bytes = devicesStart
        list(devices, to: &bytes)
        bytes += Array("]}".utf8)
        return line(bytes)
    }

    /// The members of a WATCH report after `enable`, in gpsd's order, each as `,"key":`.
    private static let watchMembers: [(key: WatchChange.Key, bytes: [UInt8])] = [.json, .nmea, .raw, .scaled, .timing, .split24, .pps]
        .map { ($0, member($0.rawValue)) }
    private static let watchStart = start(.watch) + member(WatchChange.Key.enable.rawValue)
    private static let watchDevice = member(WatchChange.Key.device.rawValue)
    private static let (trueBytes, falseBytes) = (Array("true".utf8), Array("false".utf8))

    /// The WATCH report: the client's policy, as gpsd echoes it.
    package static func watch(_ policy: WatchPolicy) -> [UInt8] {
        var bytes = watchStart
        func append(_ flag: Bool) { bytes += flag ? trueBytes : falseBytes }
        append(policy.enabled)
        for member in watchMembers {
            bytes += member.bytes
            switch member.key {
            case .json: append(policy.json)
            case .nmea: append(policy.nmea)
            case .raw: bytes += Array(String(policy.raw).utf8)
            case .scaled: append(policy.scaled)
            case .timing: append(policy.timing)
            case .split24: append(policy.split24)
            case .pps: append(policy.pps)
            case .enable, .device: break
            }
        }
        if let device = policy.device {
            bytes += watchDevice
            FlatJSON.appendQuoted(device, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return line(bytes)
    }

    private static let errorStart = start(.error) + member(.message)

    /// An ERROR report.
    package static func error(_ message: String) -> [UInt8] {
        var bytes = errorStart
        FlatJSON.appendQuoted(message, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return line(bytes)
    }

    private static let pollStart = start(.poll) + member(.time) + [UInt8(ascii: "\"")]
    private static let pollActive = [UInt8(ascii: "\"")] + member(.active)
    private static let pollLists = [Key.tpv, .gst, .sky].map { member($0) + [UInt8(ascii: "[")] }

    /// The POLL reply at `now`: the watched receivers' count and their reports (objects as
    /// gpsd wrote them, or a cell's TPV), as gpsd lists them.
    package static func poll(now: Date, active: Int, tpv: [[UInt8]], gst: [[UInt8]], sky: [[UInt8]]) -> [UInt8] {
        var bytes = pollStart
        _ = UTCTimestamp.append(now, to: &bytes)
        bytes += pollActive
        bytes += Array(String(active).utf8)
        for (listStart, objects) in zip(pollLists, [tpv, gst, sky]) {
            bytes += listStart
            list(objects, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
        return line(bytes)
    }

    private static let tpvStart = start(.tpv)
    private static let tpvMode = member(.mode)
    private static let tpvTime = member(.time) + [UInt8(ascii: "\"")]
    private static let tpvLatitude = member(.lat)
    private static let tpvLongitude = member(.lon)

    /// The TPV of a grid cell (a released location under reduced accuracy), not a line: its
    /// centre, its time and its mode (`threeDimensional` or 2D), and nothing finer (no height,
    /// motion or error below the cell's).
    package static func cell(latitude: Double, longitude: Double, time: Date?, threeDimensional: Bool, device: String?) -> [UInt8] {
        var bytes = tpvStart
        appendDevice(device, to: &bytes)
        bytes += tpvMode
        bytes.append(threeDimensional ? UInt8(ascii: "3") : UInt8(ascii: "2"))
        if let time {
            bytes += tpvTime
            _ = UTCTimestamp.append(time, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        appendCoordinate(tpvLatitude, latitude, to: &bytes)
        appendCoordinate(tpvLongitude, longitude, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The member `key` of `degrees` to 9 decimals, as gpsd writes a coordinate; none for one
    /// that is not finite.
    private static func appendCoordinate(_ key: [UInt8], _ degrees: Double, to bytes: inout [UInt8]) {
        var member = key
        if NumberFormatting.append(degrees, decimals: 9, to: &member) { bytes += member }
    }

    /// The TPV that says there is no fix, which keeps a silent watch alive (gpxlogger gives up
    /// after 5 s of silence).
    package static func noFix(device: String?) -> [UInt8] {
        var bytes = tpvStart
        appendDevice(device, to: &bytes)
        bytes += tpvMode
        bytes += Array("1}".utf8)
        return line(bytes)
    }

    private static let timingStart = member(.receivedTime)
    private static let timingLast = member(.rollovers)

    /// gpsd's TPV `report` without the members only a watch with `"timing":true` gets (`rtime`,
    /// `pps`, `sor`, `chars`, `sats`, `week`, `tow`, `rollovers`: gpsd writes them together,
    /// after `geoidSep`); `report` itself when it has none.
    package static func withoutTiming(_ report: [UInt8]) -> [UInt8] {
        guard let from = report.firstRange(of: timingStart)?.lowerBound,
            let rollovers = report[from...].firstRange(of: timingLast)?.upperBound
        else { return report }
        // The value of `rollovers` is a number: it ends at the next `,` or `}`.
        let end = report[rollovers...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? report.endIndex
        return Array(report[..<from] + report[end...])
    }

    private static let deviceMember = member(.device)

    private static func appendDevice(_ device: String?, to bytes: inout [UInt8]) {
        guard let device else { return }
        bytes += deviceMember
        FlatJSON.appendQuoted(device, to: &bytes)
    }

    /// `objects` one after another, a comma between each two.
    private static func list(_ objects: [[UInt8]], to bytes: inout [UInt8]) {
        for (index, object) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += object
        }
    }

    // MARK: - gpsd's reports, read

    /// What a report's first members say: its class (`nil` for one not named here, such as
    /// AIS) and the receiver it names, if it names one.
    package struct Head: Sendable, Equatable {
        package let name: Class?
        package let device: String?
    }

    private static let classStart = Array(#"{"\#(Key.class.rawValue)":""#.utf8)
    private static let deviceStart = deviceMember + [UInt8(ascii: "\"")]

    /// The head of `line` as gpsd writes it: `{"class":"NAME"` first, and `,"device":"PATH"`
    /// next when it names a receiver (the path made visible, at most 256 characters); `nil` for
    /// a line that does not start so.
    package static func head(_ line: [UInt8]) -> Head? {
        guard line.starts(with: classStart), let close = line[classStart.count...].firstIndex(of: UInt8(ascii: "\"")) else {
            return nil
        }
        let name = Class(rawValue: String(decoding: line[classStart.count..<close], as: UTF8.self))
        let rest = line[(close + 1)...]
        guard rest.starts(with: deviceStart), let end = rest.dropFirst(deviceStart.count).firstIndex(of: UInt8(ascii: "\"")) else {
            return Head(name: name, device: nil)
        }
        let path = String(decoding: line[(close + 1 + deviceStart.count)..<end], as: UTF8.self)
        return Head(name: name, device: UntrustedText.visible(path, limit: 256))
    }
}
