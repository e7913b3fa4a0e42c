import GPSLocation
import LocateFormats
import LocateSupport

/// One line from gpsd as the service passes it on: the message, its place in the order of
/// everything relayed (a record is taken when it arrives), and its bytes as a line of the
/// protocol, with and without the members only a `"timing":true` watch gets.
struct RelayedRecord {
    let message: GPSDMessage
    let sequence: UInt64
    /// The receiver the record is of: the one its report names, or, for a sentence (which names
    /// none), gpsd's only receiver when it has one; `nil` when it cannot be told.
    let device: String?
    /// The line as gpsd sent it, CR LF ended.
    let line: [UInt8]
    /// The line without the timing members (the same line for every other report).
    let plainLine: [UInt8]

    init(_ message: GPSDMessage, sequence: UInt64, soleDevice: String? = nil) {
        self.message = message
        self.sequence = sequence
        device = message.device ?? soleDevice
        line = GPSDReports.line(message.bytes)
        switch message.kind {
        case .fix, .noFix: plainLine = GPSDReports.line(GPSDReports.withoutTiming(message.bytes))
        default: plainLine = line
        }
    }

    /// The report as an object in a list (POLL's), for a watch with or without timing.
    func object(timing: Bool) -> [UInt8] {
        Array((timing ? line : plainLine).dropLast(2))
    }
}

/// What the service knows of gpsd now: its banner, its receivers (each a DEVICE object as gpsd
/// wrote it, kept current by the DEVICE reports gpsd sends when a receiver comes or goes), and
/// each receiver's latest TPV, SKY and GST, for POLL. Forgotten when gpsd goes away.
struct Upstream {
    /// The latest reports of one receiver.
    struct Latest {
        var tpv: RelayedRecord?
        var sky: RelayedRecord?
        var gst: RelayedRecord?
    }

    /// gpsd's VERSION line (gpsd 3.22's until gpsd's own is known).
    private(set) var version = GPSDReports.line(GPSDReports.version)
    /// The receivers, in gpsd's order: their paths and DEVICE objects.
    private(set) var devices: [(path: String, object: [UInt8])] = []
    /// The latest reports of each receiver, by path.
    private(set) var latest: [String: Latest] = [:]

    /// Takes in what `record` says of gpsd.
    mutating func note(_ record: RelayedRecord) {
        let message = record.message
        switch message.kind {
        case .version:
            version = record.line
        case .devices:
            let objects = FlatJSON.objectSpans(inArray: GPSDReports.Key.devices.rawValue, of: message.bytes[...]) ?? []
            devices = objects.compactMap { object in Self.path(of: object).map { ($0, Array(object)) } }
            latest = latest.filter { entry in devices.contains { $0.path == entry.key } }
        case .device:
            guard let path = Self.path(of: message.bytes[...]) else { return }
            let removed = FlatJSON.parse(message.bytes)?[GPSDReports.Key.activated.rawValue] == .number(0)
            if let index = devices.firstIndex(where: { $0.path == path }) {
                if removed {
                    devices.remove(at: index)
                    latest[path] = nil
                } else {
                    devices[index].object = message.bytes
                }
            } else if !removed {
                devices.append((path, message.bytes))
            }
        case .fix, .noFix:
            if let device = message.device { latest[device, default: Latest()].tpv = record }
        case .sky:
            if let device = message.device { latest[device, default: Latest()].sky = record }
        case .gst:
            if let device = message.device { latest[device, default: Latest()].gst = record }
        case .watch, .error, .timing, .other, .sentence:
            break
        }
    }

    /// The receiver, when gpsd has exactly one.
    var soleDevice: String? { devices.count == 1 ? devices.first?.path : nil }

    /// gpsd went away: it knows no receiver until it says again.
    mutating func forget() {
        devices = []
        latest = [:]
    }

    /// The DEVICES report.
    var devicesReport: [UInt8] { GPSDReports.devices(devices.map(\.object)) }

    /// The answer to `?DEVICE;` (`path` `nil`: every receiver's DEVICE, none when there is none)
    /// or `?DEVICE={"path":...}`, as gpsd gives them.
    func deviceReport(_ path: String?) -> [UInt8] {
        guard let path else { return devices.flatMap { GPSDReports.line($0.object) } }
        guard let device = devices.first(where: { $0.path == path }) else { return GPSDReports.error("Can't open \(path).") }
        return GPSDReports.line(device.object)
    }

    /// The path a DEVICE object names, if it names one.
    private static func path(of object: ArraySlice<UInt8>) -> String? {
        guard case .string(let path)? = FlatJSON.parse(Array(object))?[GPSDReports.Key.path.rawValue] else { return nil }
        return UntrustedText.visible(path, limit: 256)
    }
}
