import FoundationEssentials
import GPSLocation
import LocateSupport

/// A named monitor's regions and their last states, kept between runs: the file NAME in the
/// user's private monitors directory (`$XDG_STATE_HOME/locate/monitors`), mode 0600, replaced
/// atomically, read only when it is the user's own and writable by no one else.
///
/// JSON Lines: the file's own line (`{"format":1,"monitor":NAME}`), then one line a region, in
/// the monitor's order: `{"region":…,"lat":…,"lon":…,"radius":…,"state":…,"date":SECONDS}`
/// (`date` is the Unix time the state was decided, `null` when unknown). The file is not trusted:
/// a line that is not one this store wrote is an error naming the file and the line, and the
/// monitor does not start (fail closed), rather than reporting against a state it cannot trust.
enum MonitorStateFile {
    /// The version of the file's layout.
    static let format = 1
    /// The lock file that orders keeping a monitor's state and purging every monitor's.
    static let lockName = ".monitors.lock"
    /// The largest state file read: some 2,000 regions.
    static let maximumSize = 512 * 1024

    /// The records in `bytes`, the file `path` of the monitor `name`.
    /// - Throws: `GPSLocationError.invalidSettings` naming the file and the line at fault.
    static func parse(_ bytes: [UInt8], name: String, path: String) throws(GPSLocationError) -> [MonitoringRecord] {
        guard !bytes.isEmpty else {
            throw .invalidSettings(SettingsProblem(file: path, line: 1, message: "is empty; remove the file to start afresh"))
        }
        var records: [MonitoringRecord] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func problem(_ message: String) -> GPSLocationError {
                .invalidSettings(SettingsProblem(file: path, line: number, message: message))
            }
            if line.isEmpty, index > 0 { continue }
            guard let members = FlatJSON.parse(Array(line)) else { throw problem("not a flat JSON object") }
            if index == 0 {
                guard members["format"] == .number(Double(format)), members["monitor"] == .string(name) else {
                    throw problem("not the state of monitor '\(name)' (format \(format)); remove the file to start afresh")
                }
                continue
            }
            guard case .string(let regionName)? = members["region"], case .number(let latitude)? = members["lat"],
                case .number(let longitude)? = members["lon"], case .number(let radius)? = members["radius"],
                case .string(let stateName)? = members["state"], let state = RegionState(rawValue: stateName)
            else { throw problem("not a region's state (region, lat, lon, radius, state, date)") }
            let region: CircularRegion
            do throws(GPSLocationError) {
                region = try CircularRegion(name: regionName, latitude: latitude, longitude: longitude, radius: radius)
            } catch {
                throw problem("not a region: \(error.description)")
            }
            var date: Date?
            switch members["date"] {
            case .number(let seconds)? where seconds.isFinite && seconds >= 0 && seconds < 1e11:
                date = Date(timeIntervalSince1970: seconds)
            case .null?, nil:
                date = nil
            default:
                throw problem("'date' is not a time in seconds")
            }
            records.append(MonitoringRecord(region: region, state: state, date: date))
        }
        return records
    }

    /// The file's bytes for `records` of the monitor `name`.
    static func bytes(of records: [MonitoringRecord], name: String) -> [UInt8] {
        var header = JSONObjectWriter()
        header.add("format", json: String(format))
        header.add("monitor", string: name)
        var bytes = header.finishLine()
        for record in records {
            var line = JSONObjectWriter(appendingTo: bytes)
            line.add("region", string: record.region.name)
            // The shortest text that reads back as the same number: a region read back is the
            // same region, so its state is restored.
            line.add("lat", json: "\(record.region.latitude)")
            line.add("lon", json: "\(record.region.longitude)")
            line.add("radius", json: "\(record.region.radius)")
            line.add("state", string: record.state.rawValue)
            line.add("date", json: record.date.flatMap { NumberFormatting.fixed($0.timeIntervalSince1970, decimals: 3) } ?? "null")
            bytes = line.finishLine()
        }
        return bytes
    }
}
