import GPSLocation

/// What the command line asked for, parsed and validated; README's "Usage" in value form.
struct CommandLineOptions: Sendable {
    enum Command: Sendable, Equatable {
        /// `locate [--once | --follow]`: positions.
        case locate
        /// `locate permission [status|allow|deny|reset]`.
        case permission(PermissionAction)
        /// `locate status`: explain services, permission, gpsd and the receiver.
        case status
    }

    enum PermissionAction: String, Sendable, CaseIterable {
        case status, allow, deny, reset
    }

    enum Mode: Sendable { case once, follow }
    enum Format: Sendable {
        case text, json, csv, gpx
        case template(TemplateFormat)
    }

    var command = Command.locate
    var mode = Mode.once
    /// The gpsd endpoint given on the command line or in `LOCATE_GPSD`; `nil` leaves it to the settings.
    var endpoint: GPSDEndpoint?
    /// `--timeout`; `nil` leaves it to the settings (default 30 s).
    var timeout: Duration?
    var accuracy: Double?
    /// `--max-age`: a cached or current fix this young is good enough.
    var maxAge: Duration?
    var distance = 0.0
    var interval: Duration?
    var heartbeat: Duration?
    var count: Int?
    var duration: Duration?
    var format = Format.text
    /// `--events`: status events into stdout (with `--json`).
    var events = false
    /// `--no-header` turns the CSV header off.
    var csvHeader = true
    var fallbackEnabled = true
    /// `--app` or `LOCATE_APP`.
    var app: AppName?
    var purpose: String?
    var always = false
    var reduced = false
    var showHelp = false
    var showVersion = false

    /// A fresh output format for one run.
    var outputFormat: any OutputFormat {
        switch format {
        case .text: TextFormat()
        case .json: JSONFormat(includesEvents: events)
        case .csv: CSVFormat(includesHeader: csvHeader)
        case .gpx: GPXFormat(shape: mode == .once ? .waypoint : .track)
        case .template(let template): template
        }
    }

    var isJSON: Bool {
        if case .json = format { return true }
        return false
    }
}

/// A command line that cannot be run; exit status 64.
struct UsageError: Error, Sendable {
    let message: String
}

extension CommandLineOptions {
    /// Parses the arguments (without the program name). A first word `permission` or `status`
    /// selects that command. The gpsd endpoint comes from the positional `host[:port[:device]]`,
    /// else `--gpsd`, else `environment["LOCATE_GPSD"]`. Options take their value as the next
    /// argument or after `=`.
    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        var remaining = arguments[...]
        if let first = remaining.first, first == "permission" || first == "status" {
            remaining.removeFirst()
            if first == "status" {
                command = .status
            } else if let word = remaining.first, !word.hasPrefix("-") {
                guard let action = PermissionAction(rawValue: word) else {
                    throw UsageError(message: "unknown permission action '\(word)' (expected status, allow, deny or reset)")
                }
                remaining.removeFirst()
                command = .permission(action)
            } else {
                command = .permission(.status)
            }
        }
        var positional: [String] = []
        var gpsdOption: String?
        var used: [String] = []
        var formats: [String] = []
        var template: String?
        var nullText: String?
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                positional += remaining
                break
            }
            let name = String(argument.prefix { $0 != "=" })
            var inlineValue = argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst()) : nil
            func value() throws(UsageError) -> String {
                if let text = inlineValue {
                    inlineValue = nil
                    return text
                }
                guard let next = remaining.popFirst() else { throw UsageError(message: "missing value for '\(name)'") }
                return next
            }
            switch name {
            case "-h", "--help": showHelp = true
            case "-V", "--version": showVersion = true
            case "--once": mode = .once
            case "-f", "--follow": mode = .follow
            case "--json":
                format = .json
                formats.append(name)
            case "--csv":
                format = .csv
                formats.append(name)
            case "--gpx":
                format = .gpx
                formats.append(name)
            case "--format":
                template = try value()
                formats.append(name)
            case "--null": nullText = try value()
            case "--no-header": csvHeader = false
            case "--events": events = true
            case "--gpsd": gpsdOption = try value()
            case "--timeout": timeout = try Self.seconds(value(), for: name, allowZero: false)
            case "--accuracy": accuracy = try Self.number(value(), for: name, excludingZero: true)
            case "--max-age": maxAge = try Self.seconds(value(), for: name, allowZero: true)
            case "--distance": distance = try Self.number(value(), for: name, excludingZero: false)
            case "--interval": interval = try Self.seconds(value(), for: name, allowZero: true)
            case "--heartbeat": heartbeat = try Self.seconds(value(), for: name, allowZero: false)
            case "-n", "--count": count = try Self.count(value(), for: name)
            case "--duration": duration = try Self.seconds(value(), for: name, allowZero: false)
            case "--no-fallback": fallbackEnabled = false
            case "--app":
                let text = try value()
                do {
                    app = try AppName(text)
                } catch {
                    throw UsageError(message: "'--app' needs an app name: \(error.description)")
                }
            case "--purpose": purpose = try value()
            case "--always": always = true
            case "--reduced": reduced = true
            default:
                throw UsageError(message: "unknown option '\(name)'")
            }
            if inlineValue != nil {
                throw UsageError(message: "'\(name)' takes no value")
            }
            used.append(name)
        }
        if showHelp || showVersion { return }
        try check(used)
        if formats.count > 1 {
            throw UsageError(message: "choose one output format, not \(formats.joined(separator: " and "))")
        }
        for (option, needs, given) in [("--events", "--json", isJSON), ("--no-header", "--csv", !csvHeader && formats == ["--csv"]),
                                       ("--null", "--format", template != nil)] where used.contains(option) && !given {
            throw UsageError(message: "'\(option)' goes with \(needs)")
        }
        if let template {
            format = .template(try TemplateFormat(template, nullText: nullText ?? ""))
        }
        guard positional.count <= 1 else {
            throw UsageError(message: "unexpected argument '\(positional[1])'")
        }
        if positional.first != nil, gpsdOption != nil {
            throw UsageError(message: "give the gpsd endpoint either as an argument or with --gpsd, not both")
        }
        if case .permission = command, let word = positional.first {
            throw UsageError(message: "unexpected argument '\(word)'")
        }
        if let spec = positional.first ?? gpsdOption ?? environment["LOCATE_GPSD"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do {
                endpoint = try GPSDEndpoint(parsing: spec)
            } catch {
                throw UsageError(message: error.description)
            }
        }
        if app == nil, let fromEnvironment = environment["LOCATE_APP"], !fromEnvironment.isEmpty {
            do {
                app = try AppName(fromEnvironment)
            } catch {
                throw UsageError(message: "LOCATE_APP: \(error.description)")
            }
        }
    }

    /// Rejects options that do not apply to the chosen command and mode.
    private func check(_ used: [String]) throws(UsageError) {
        let allowed: Set<String>
        let context: String
        switch command {
        case .locate where mode == .once:
            allowed = Set(["--once", "--timeout", "--accuracy", "--max-age", "--gpsd", "--no-fallback", "--app", "--purpose"]).union(Self.formatOptions)
            context = "--once"
        case .locate:
            allowed = Set(["-f", "--follow", "--distance", "--interval", "--heartbeat", "-n", "--count", "--duration",
                       "--gpsd", "--no-fallback", "--app", "--purpose"]).union(Self.formatOptions)
            context = "--follow"
        case .permission(.allow):
            allowed = ["--always", "--reduced", "--app"]
            context = "permission allow"
        case .permission(.status):
            allowed = ["--json", "--app"]
            context = "permission status"
        case .permission(let action):
            allowed = ["--app"]
            context = "permission \(action.rawValue)"
        case .status:
            allowed = ["--json", "--gpsd", "--app"]
            context = "status"
        }
        if let option = used.first(where: { !allowed.contains($0) }) {
            throw UsageError(message: "'\(option)' does not apply to \(context)")
        }
    }

    private static let formatOptions = ["--json", "--csv", "--gpx", "--format", "--null", "--no-header", "--events"]

    private static func number(_ text: String, for option: String, excludingZero: Bool) throws(UsageError) -> Double {
        do {
            return try NumericText.number(text, excludingZero: excludingZero)
        } catch {
            throw UsageError(message: "'\(option)' needs \(error.expected), not '\(text)'")
        }
    }

    private static func seconds(_ text: String, for option: String, allowZero: Bool) throws(UsageError) -> Duration {
        do {
            return try NumericText.seconds(text, allowingZero: allowZero)
        } catch {
            throw UsageError(message: "'\(option)' needs \(error.expected), not '\(text)'")
        }
    }

    /// A record count: a whole number from 1 to a billion.
    private static func count(_ text: String, for option: String) throws(UsageError) -> Int {
        let expected = "a whole number from 1 to 1000000000"
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw UsageError(message: "'\(option)' needs \(expected), not '\(text)'")
        }
        guard let number = Int(text), (1...1_000_000_000).contains(number) else {
            throw UsageError(message: "'\(option)' needs \(expected), not '\(text)'")
        }
        return number
    }
}
