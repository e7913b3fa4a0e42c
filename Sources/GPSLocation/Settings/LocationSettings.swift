/// Where a setting came from: a file and a line, so `locate permission status` can say what decided.
public struct SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// The 1-based line.
    public var line: Int

    /// Creates an origin.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `file:line`, with any control character in the path made visible.
    public var description: String { UntrustedText.visible("\(file):\(line)") }
}

/// A value read from a file, with its origin.
public struct Setting<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value.
    public var value: Value
    /// The file and line it came from.
    public var origin: SettingOrigin
}

/// What a user chose in the permission prompt or with `locate permission`.
public enum AuthorizationChoice: String, Sendable, Hashable, CaseIterable {
    /// Authorized while `locate` runs in the foreground of its terminal.
    case whenInUse = "when-in-use"
    /// Authorized with or without a terminal.
    case always
    /// Not authorized.
    case denied
}

/// How precise positions may be: iOS's "Precise Location" switch, as CoreLocation's
/// `CLAccuracyAuthorization` names it. The raw values are the settings' words.
public enum AccuracyAuthorization: String, Sendable, Hashable, CaseIterable {
    /// Positions as the receiver reports them.
    case fullAccuracy = "full"
    /// Positions snapped to the centre of a grid cell of several kilometres.
    case reducedAccuracy = "reduced"
}

/// The settings of one `[location]` or `[app "NAME"]` section.
public struct LocationSectionSettings: Sendable, Hashable {
    /// `services = on | off` (`[location]` only).
    public var services: Setting<Bool>?
    /// `authorization = when-in-use | always | denied`: the user's choice (user settings only).
    public var authorization: Setting<AuthorizationChoice>?
    /// `authorization = restricted` (the policy only): location is forbidden.
    public var restricted: Setting<Bool>?
    /// `accuracy = full | reduced`; in the policy, a cap.
    public var accuracy: Setting<AccuracyAuthorization>?
    /// `timeout`: how long `locate --once` waits by default (`[location]` only), to the millisecond.
    public var timeout: Setting<Duration>?

    /// Creates empty section settings.
    public init() {}
}

/// One settings file (the user's `locate.conf` or the administrator's `policy.conf`), parsed and checked.
///
/// Unknown sections, unknown keys and bad values are errors, never ignored, so a typo cannot
/// silently widen what is allowed.
public struct LocationSettings: Sendable, Hashable {
    /// Which of the two files this is; the policy may only restrict.
    public enum Role: Sendable, Hashable {
        /// `$XDG_CONFIG_HOME/locate/locate.conf`.
        case user
        /// `locate/policy.conf` in `$XDG_CONFIG_DIRS`.
        case policy
    }

    /// The path the settings were read from.
    public var file: String
    /// The `[location]` section.
    public var location = LocationSectionSettings()
    /// `[app "NAME"]` sections by app name.
    public var apps: [AppName: LocationSectionSettings] = [:]
    /// `[fallback] latitude`.
    public var fallbackLatitude: Setting<Double>?
    /// `[fallback] longitude`.
    public var fallbackLongitude: Setting<Double>?
    /// `[fallback] place = NAME`: the place whose coordinate `fallbackLatitude` and
    /// `fallbackLongitude` were set to (resolved offline with `PlaceFinder`, English names).
    public var fallbackPlace: Setting<String>?
    /// `[fallback] enabled = yes | no`.
    public var fallbackEnabled: Setting<Bool>?
    /// `[gpsd] server = host[:port[:device]]`.
    public var gpsdServer: Setting<GPSDEndpoint>?

    /// Settings with nothing set, as for a file that does not exist.
    public init(file: String) {
        self.file = file
    }

    /// Parses and checks the content of a settings file.
    /// - Throws: `ConfigurationError` naming the file, line and column, and what was expected.
    package init(bytes: [UInt8], file: String, role: Role) throws(ConfigurationError) {
        self.init(file: file)
        let document = try SettingsDocument(bytes: bytes, file: file)
        for header in document.headers {
            let known = header.section.app == nil ? ["location", "fallback", "gpsd"].contains(header.section.name) : header.section.name == "app"
            guard known else {
                throw ConfigurationError(file: file, line: header.line, column: 2,
                                         message: "unknown section \(header.section.description) (expected [location], [fallback], [gpsd] or [app \"NAME\"])")
            }
            if let app = header.section.app {
                do {
                    _ = try AppName(app)
                } catch {
                    throw ConfigurationError(file: file, line: header.line, column: 6, message: error.description)
                }
            }
        }
        for entry in document.entries {
            try apply(entry, role: role)
        }
    }

    private mutating func apply(_ entry: SettingsDocument.Entry, role: Role) throws(ConfigurationError) {
        let origin = SettingOrigin(file: file, line: entry.line)
        func fail(_ message: String, atValue: Bool = true) -> ConfigurationError {
            ConfigurationError(file: file, line: entry.line, column: atValue ? entry.valueColumn : entry.keyColumn, message: message)
        }
        func choice<T>(_ options: [String: T]) throws(ConfigurationError) -> Setting<T> {
            guard let value = options[entry.value] else {
                throw fail("bad value '\(entry.value)' for '\(entry.key)' (expected \(options.keys.sorted().joined(separator: " or ")))")
            }
            return Setting(value: value, origin: origin)
        }
        func number(_ range: ClosedRange<Double>) throws(ConfigurationError) -> Setting<Double> {
            do {
                return Setting(value: try NumericText.number(entry.value, in: range), origin: origin)
            } catch {
                throw fail("bad value '\(entry.value)' for '\(entry.key)' (expected \(error.expected))")
            }
        }
        func seconds() throws(ConfigurationError) -> Setting<Duration> {
            do {
                return Setting(value: try NumericText.seconds(entry.value, allowingZero: false), origin: origin)
            } catch {
                throw fail("bad value '\(entry.value)' for '\(entry.key)' (expected \(error.expected))")
            }
        }
        let section = entry.section
        switch (section.name, section.app, entry.key) {
        case ("location", nil, "services"):
            location.services = try choice(["on": true, "off": false])
        case ("location", nil, "timeout"):
            location.timeout = try seconds()
        case (_, _, "authorization") where section.name == "location" || section.name == "app":
            switch role {
            case .user:
                let value = try choice(Dictionary(uniqueKeysWithValues: AuthorizationChoice.allCases.map { ($0.rawValue, $0) }))
                update(section) { $0.authorization = value }
            case .policy:
                let value = try choice(["restricted": true])
                update(section) { $0.restricted = value }
            }
        case (_, _, "accuracy") where section.name == "location" || section.name == "app":
            let value = try choice(Dictionary(uniqueKeysWithValues: AccuracyAuthorization.allCases.map { ($0.rawValue, $0) }))
            update(section) { $0.accuracy = value }
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
            let finder: PlaceFinder
            do {
                finder = try PlaceFinder(language: .english)
            } catch {
                throw fail("cannot look up the place '\(entry.value)': \(error.description)")
            }
            let place: Placemark
            do {
                place = try finder.uniquePlace(named: entry.value)
            } catch {
                throw fail(error.description)
            }
            fallbackPlace = Setting(value: entry.value, origin: origin)
            fallbackLatitude = Setting(value: place.latitude, origin: origin)
            fallbackLongitude = Setting(value: place.longitude, origin: origin)
        case ("fallback", nil, "enabled"):
            fallbackEnabled = try choice(["yes": true, "no": false])
        case ("gpsd", nil, "server"):
            do {
                gpsdServer = Setting(value: try GPSDEndpoint(parsing: entry.value), origin: origin)
            } catch {
                throw fail("bad value for 'server': \(error.description)")
            }
        default:
            throw fail("unknown key '\(entry.key)' in \(section.description) (expected \(Self.keys(for: section).joined(separator: ", ")))", atValue: false)
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
        default: ["authorization", "accuracy"]
        }
    }
}
