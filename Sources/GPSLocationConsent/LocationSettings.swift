import GPSLocation
import LocateSupport

/// Where a setting came from: a file and a line, so `locate permission status` can say what decided.
public struct SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// The 1-based line.
    public var line: Int

    /// `file:line`, with any control character in the path made visible.
    public var description: String { UntrustedText.visible("\(file):\(line)") }
}

/// A value read from a file, with its origin. (Its conformances are conditional, not
/// requirements of the type: a generic requirement makes the runtime look the conformance up
/// whenever the type's metadata is first made, a scan of every conformance in the binary.)
struct Setting<Value> {
    /// The value.
    var value: Value
    /// The file and line it came from.
    var origin: SettingOrigin
}

extension Setting: Sendable where Value: Sendable {}
extension Setting: Equatable where Value: Equatable {}
extension Setting: Hashable where Value: Hashable {}

/// The settings of one `[location]` or `[app "NAME"]` section.
struct LocationSectionSettings: Sendable, Hashable {
    /// `services = on | off` (`[location]` only).
    var services: Setting<Bool>?
    /// `authorization = when-in-use | always | denied`: the user's choice (user settings only).
    var authorization: Setting<AuthorizationStatus>?
    /// `authorization = restricted` (the policy only): location is forbidden.
    var restricted: Setting<Bool>?
    /// `accuracy = full | reduced`; in the policy, a cap.
    var accuracy: Setting<AccuracyAuthorization>?
    /// `timeout`: how long `locate --once` waits by default (`[location]` only), to the millisecond.
    var timeout: Setting<Duration>?
    /// `program = PATH` (`[app "NAME"]` only): the one executable the section applies to, for
    /// a client whose app is told by its executable (`locate serve`).
    var program: Setting<String>?
}

/// One settings file (the user's `locate.conf` or the administrator's `policy.conf`), parsed and
/// checked. Unknown sections, unknown keys and bad values are errors, never ignored, so a typo
/// cannot silently widen what is allowed.
struct LocationSettings: Sendable, Hashable {
    /// Which of the two files this is; the policy may only restrict.
    enum Role: Sendable, Hashable {
        /// `$XDG_CONFIG_HOME/locate/locate.conf`.
        case user
        /// `locate/policy.conf` in `$XDG_CONFIG_DIRS`.
        case policy
    }

    /// The path the settings were read from.
    var file: String
    /// The `[location]` section.
    var location = LocationSectionSettings()
    /// `[app "NAME"]` sections by app name.
    var apps: [AppName: LocationSectionSettings] = [:]
    /// `[fallback] latitude`.
    var fallbackLatitude: Setting<Double>?
    /// `[fallback] longitude`.
    var fallbackLongitude: Setting<Double>?
    /// `[fallback] place = NAME`: a place whose coordinate is the fallback, resolved when the
    /// fallback is asked for (see `ConsentStore.fallback(resolvingPlaceNames:)`).
    var fallbackPlace: Setting<String>?
    /// `[fallback] enabled = yes | no`.
    var fallbackEnabled: Setting<Bool>?
    /// `[gpsd] server = host[:port[:device]]`.
    var gpsdServer: Setting<GPSDEndpoint>?
    /// `[region "NAME"]` sections (`center = LAT,LON`, `radius = M`), in the file's order.
    var regions: [CircularRegion] = []
    /// `[mqtt] password-file = PATH`: the private file that holds the broker's password.
    var mqttPasswordFile: Setting<String>?
    /// `[mqtt] ca-file = PATH`: the CA certificates `mqtts://` trusts instead of the system's.
    var mqttCAFile: Setting<String>?
    /// `[http] password-file = PATH`: the private file that holds an HTTP endpoint's password (Basic).
    var httpPasswordFile: Setting<String>?
    /// `[http] ca-file = PATH`: the CA certificates `https://` trusts instead of the system's.
    var httpCAFile: Setting<String>?
    /// `[history] keep = Nd`: how many days `locate record` keeps points.
    var historyKeep: Setting<Int>?

    /// Settings with nothing set, as for a file that does not exist.
    init(file: String) {
        self.file = file
    }

    /// Parses and checks the lines of a settings file.
    /// - Throws: `GPSLocationError.invalidSettings` naming the file, line and column, and what
    ///   was expected.
    init(_ lines: SettingsLines, file: String, role: Role) throws(GPSLocationError) {
        try self.init(SettingsDocument(lines, file: file), file: file, role: role)
    }

    /// Checks a parsed settings file.
    /// - Throws: `GPSLocationError.invalidSettings`, as `init(_:file:role:)`.
    init(_ document: SettingsDocument, file: String, role: Role) throws(GPSLocationError) {
        self.init(file: file)
        var regionHeaders: Set<String> = []
        for header in document.headers {
            let known =
                header.section.app == nil
                ? ["location", "fallback", "gpsd", "mqtt", "http", "history"].contains(header.section.name)
                : ["app", "region"].contains(header.section.name)
            guard known else {
                throw .invalidSettings(
                    SettingsProblem(
                        file: file, line: header.line, column: 2,
                        message:
                            "unknown section \(header.section.description) (expected [location], [fallback], [gpsd], [mqtt], [http], [history], [app \"NAME\"] or [region \"NAME\"])"
                    ))
            }
            if header.section.name == "region", let name = header.section.app {
                guard CircularRegion.isValidName(name) else {
                    throw .invalidSettings(
                        SettingsProblem(
                            file: file, line: header.line, column: 9,
                            message: "a region name has \(CircularRegion.nameRule)"
                        ))
                }
                guard regionHeaders.insert(name).inserted else {
                    throw .invalidSettings(
                        SettingsProblem(file: file, line: header.line, column: 2, message: "\(header.section.description) is given twice"))
                }
            } else if let app = header.section.app {
                do {
                    _ = try AppName(app)
                } catch {
                    throw .invalidSettings(SettingsProblem(file: file, line: header.line, column: 6, message: error.description))
                }
            }
        }
        var regionParts: [String: (center: (Double, Double)?, radius: Double?)] = [:]
        for entry in document.entries {
            if entry.section.name == "region", let name = entry.section.app {
                try applyRegion(entry, to: &regionParts[name, default: (nil, nil)])
            } else {
                try apply(entry, role: role)
            }
        }
        for header in document.headers where header.section.name == "region" {
            guard let name = header.section.app, let parts = regionParts[name], let center = parts.center, let radius = parts.radius,
                let region = try? CircularRegion(name: name, latitude: center.0, longitude: center.1, radius: radius)
            else {
                throw .invalidSettings(
                    SettingsProblem(
                        file: file, line: header.line, column: 2, message: "\(header.section.description) needs both center and radius"))
            }
            regions.append(region)
        }
    }

    /// A key of a `[region "NAME"]` section: `center = LAT,LON` or `radius = M` (above 0, at
    /// most `CircularRegion.maximumRadius`).
    private func applyRegion(
        _ entry: SettingsDocument.Entry, to parts: inout (center: (Double, Double)?, radius: Double?)
    )
        throws(GPSLocationError)
    {
        func fail(_ message: String, atValue: Bool = true) -> GPSLocationError {
            .invalidSettings(
                SettingsProblem(file: file, line: entry.line, column: atValue ? entry.valueColumn : entry.keyColumn, message: message))
        }
        switch entry.key {
        case "center":
            // `37.5178,126.8863` or `37.5178, 126.8863`.
            let numbers = entry.value.split(separator: ",", omittingEmptySubsequences: false).map { String($0.drop { $0 == " " }) }
            guard numbers.count == 2, let latitude = try? NumericText.number(numbers[0], in: -90...90),
                let longitude = try? NumericText.number(numbers[1], in: -180...180)
            else {
                throw fail("bad value '\(entry.value)' for 'center' (expected LAT,LON, such as 37.5178,126.8863)")
            }
            parts.center = (latitude, longitude)
        case "radius":
            do {
                parts.radius = try NumericText.number(entry.value, in: 0...CircularRegion.maximumRadius, excludingZero: true)
            } catch {
                throw fail("bad value '\(entry.value)' for 'radius' (expected \(error.expected), in metres)")
            }
        default:
            throw fail("unknown key '\(entry.key)' in [region \"\(entry.section.app ?? "")\"] (expected center, radius)", atValue: false)
        }
    }

    private mutating func apply(_ entry: SettingsDocument.Entry, role: Role) throws(GPSLocationError) {
        let origin = SettingOrigin(file: file, line: entry.line)
        func fail(_ message: String, atValue: Bool = true) -> GPSLocationError {
            .invalidSettings(
                SettingsProblem(file: file, line: entry.line, column: atValue ? entry.valueColumn : entry.keyColumn, message: message))
        }
        /// The value as one of `options` (named by `word`), or an error listing them.
        func choice<T>(_ options: @autoclosure () -> [String], _ value: T?) throws(GPSLocationError) -> Setting<T> {
            guard let value else {
                throw fail("bad value '\(entry.value)' for '\(entry.key)' (expected \(options().sorted().joined(separator: " or ")))")
            }
            return Setting(value: value, origin: origin)
        }
        func flag(_ yes: String, _ no: String) throws(GPSLocationError) -> Setting<Bool> {
            try choice([yes, no], entry.value == yes ? true : entry.value == no ? false : nil)
        }
        func number(_ range: ClosedRange<Double>) throws(GPSLocationError) -> Setting<Double> {
            do {
                return Setting(value: try NumericText.number(entry.value, in: range), origin: origin)
            } catch {
                throw fail("bad value '\(entry.value)' for '\(entry.key)' (expected \(error.expected))")
            }
        }
        func seconds() throws(GPSLocationError) -> Setting<Duration> {
            do {
                return Setting(value: try NumericText.seconds(entry.value, allowingZero: false), origin: origin)
            } catch {
                throw fail("bad value '\(entry.value)' for '\(entry.key)' (expected \(error.expected))")
            }
        }
        let section = entry.section
        switch (section.name, section.app, entry.key) {
        case ("location", nil, "services"):
            location.services = try flag("on", "off")
        case ("location", nil, "timeout"):
            location.timeout = try seconds()
        case ("history", nil, "keep"):
            guard entry.value.hasSuffix("d"), let days = Int(entry.value.dropLast()), (1...36_500).contains(days) else {
                throw fail("bad value '\(entry.value)' for 'keep' (expected a number of days from 1 to 36500 and d, such as 90d)")
            }
            historyKeep = Setting(value: days, origin: origin)
        case (_, _, "authorization") where section.name == "location" || section.name == "app":
            switch role {
            case .user:
                let value = try choice(
                    ConsentStore.userChoices.map(\.rawValue),
                    AuthorizationStatus(rawValue: entry.value).flatMap { ConsentStore.userChoices.contains($0) ? $0 : nil })
                update(section) { $0.authorization = value }
            case .policy:
                let value = try choice(["restricted"], entry.value == "restricted" ? true : nil)
                update(section) { $0.restricted = value }
            }
        case (_, _, "accuracy") where section.name == "location" || section.name == "app":
            let value = try choice(AccuracyAuthorization.allCases.map(\.rawValue), AccuracyAuthorization(rawValue: entry.value))
            update(section) { $0.accuracy = value }
        case ("app", _?, "program"):
            guard entry.value.hasPrefix("/"), entry.value.count <= 4096, !UntrustedText.hasHidden(entry.value) else {
                throw fail("bad value '\(entry.value)' for 'program' (expected the absolute path of an executable)")
            }
            let value = Setting(value: entry.value, origin: origin)
            update(section) { $0.program = value }
        case ("fallback", nil, "latitude"), ("fallback", nil, "longitude"):
            if let place = fallbackPlace {
                throw fail("'\(entry.key)' and 'place' (line \(place.origin.line)) both set the fallback; keep one", atValue: false)
            }
            if entry.key == "latitude" {
                fallbackLatitude = try number(-90...90)
            } else {
                fallbackLongitude = try number(-180...180)
            }
        case ("fallback", nil, "place"):
            if let coordinate = fallbackLatitude ?? fallbackLongitude {
                throw fail("'place' and the coordinate (line \(coordinate.origin.line)) both set the fallback; keep one", atValue: false)
            }
            guard entry.value.count <= 200 else { throw fail("bad value for 'place' (expected a place name of at most 200 characters)") }
            fallbackPlace = Setting(value: entry.value, origin: origin)
        case ("fallback", nil, "enabled"):
            fallbackEnabled = try flag("yes", "no")
        case ("gpsd", nil, "server"):
            do {
                gpsdServer = Setting(value: try GPSDEndpoint(parsing: entry.value), origin: origin)
            } catch {
                throw fail("bad value for 'server': \(error.description)")
            }
        case ("mqtt", nil, "password-file"), ("mqtt", nil, "ca-file"), ("http", nil, "password-file"), ("http", nil, "ca-file"):
            guard entry.value.hasPrefix("/"), entry.value.utf8.count <= 4096, !UntrustedText.hasHidden(entry.value) else {
                throw fail("bad value for '\(entry.key)' (expected an absolute path)")
            }
            let setting = Setting(value: entry.value, origin: origin)
            switch (section.name, entry.key) {
            case ("mqtt", "password-file"): mqttPasswordFile = setting
            case ("mqtt", _): mqttCAFile = setting
            case (_, "password-file"): httpPasswordFile = setting
            default: httpCAFile = setting
            }
        default:
            throw fail(
                "unknown key '\(entry.key)' in \(section.description) (expected \(Self.keys(for: section).joined(separator: ", ")))",
                atValue: false)
        }
    }

    private mutating func update(_ section: SettingsDocument.SectionName, _ change: (inout LocationSectionSettings) -> Void) {
        if let app = section.app.flatMap({ try? AppName($0) }) {
            change(&apps[app, default: LocationSectionSettings()])
        } else {
            change(&location)
        }
    }

    private static func keys(for section: SettingsDocument.SectionName) -> [String] {
        switch section.name {
        case "location": ["services", "authorization", "accuracy", "timeout"]
        case "fallback": ["latitude", "longitude", "place", "enabled"]
        case "gpsd": ["server"]
        case "mqtt", "http": ["password-file", "ca-file"]
        case "history": ["keep"]
        default: ["authorization", "accuracy", "program"]
        }
    }
}
