import GPSLocation

/// What the command line asked for, parsed and validated; README's "Usage" in value form.
struct CommandLineOptions: Sendable {
    enum Mode: Sendable { case once, follow }
    enum Format: Sendable { case text, json }

    var mode = Mode.once
    var endpoint = GPSDEndpoint.default
    var timeout = Duration.seconds(30)
    var accuracy: Double?
    var distance = 0.0
    var interval: Duration?
    var heartbeat: Duration?
    var count: Int?
    var duration: Duration?
    var format = Format.text
    var showHelp = false
    var showVersion = false

    var recordFormat: any RecordFormat {
        switch format {
        case .text: TextRecordFormat()
        case .json: JSONRecordFormat()
        }
    }
}

/// A command line that cannot be run; exit status 64.
struct UsageError: Error, Sendable {
    let message: String
}

extension CommandLineOptions {
    /// Parses the arguments (without the program name). The gpsd endpoint comes from the
    /// positional `host[:port[:device]]`, else `--gpsd`, else `environment["LOCATE_GPSD"]`, else
    /// `localhost:2947`. Options take their value as the next argument or after `=`.
    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        var positional: [String] = []
        var gpsdOption: String?
        var followOnly: [String] = []
        var onceOnly: [String] = []
        var remaining = arguments[...]
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
            case "--json": format = .json
            case "--gpsd": gpsdOption = try value()
            case "--timeout":
                timeout = try Self.seconds(value(), for: name, allowZero: false)
                onceOnly.append(name)
            case "--accuracy":
                accuracy = try Self.number(value(), for: name, allowZero: false)
                onceOnly.append(name)
            case "--distance":
                distance = try Self.number(value(), for: name, allowZero: true)
                followOnly.append(name)
            case "--interval":
                interval = try Self.seconds(value(), for: name, allowZero: true)
                followOnly.append(name)
            case "--heartbeat":
                heartbeat = try Self.seconds(value(), for: name, allowZero: false)
                followOnly.append(name)
            case "-n", "--count":
                let text = try value()
                guard let number = Int(text), number > 0 else {
                    throw UsageError(message: "'\(name)' needs a whole number above 0, not '\(text)'")
                }
                count = number
                followOnly.append(name)
            case "--duration":
                duration = try Self.seconds(value(), for: name, allowZero: false)
                followOnly.append(name)
            default:
                throw UsageError(message: "unknown option '\(name)'")
            }
            if inlineValue != nil {
                throw UsageError(message: "'\(name)' takes no value")
            }
        }
        if showHelp || showVersion { return }
        if mode == .once, let option = followOnly.first {
            throw UsageError(message: "'\(option)' applies to --follow only")
        }
        if mode == .follow, let option = onceOnly.first {
            throw UsageError(message: "'\(option)' applies to --once only")
        }
        guard positional.count <= 1 else {
            throw UsageError(message: "unexpected argument '\(positional[1])'")
        }
        if positional.first != nil, gpsdOption != nil {
            throw UsageError(message: "give the gpsd endpoint either as an argument or with --gpsd, not both")
        }
        if let spec = positional.first ?? gpsdOption ?? environment["LOCATE_GPSD"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do {
                endpoint = try GPSDEndpoint(parsing: spec)
            } catch {
                throw UsageError(message: error.description)
            }
        }
    }

    private static func number(_ text: String, for option: String, allowZero: Bool) throws(UsageError) -> Double {
        guard let number = Double(text), number.isFinite, allowZero ? number >= 0 : number > 0 else {
            throw UsageError(message: "'\(option)' needs a number \(allowZero ? "of 0 or more" : "above 0"), not '\(text)'")
        }
        return number
    }

    private static func seconds(_ text: String, for option: String, allowZero: Bool) throws(UsageError) -> Duration {
        let seconds = try number(text, for: option, allowZero: allowZero)
        guard seconds <= 1e9 else { throw UsageError(message: "'\(option)' is too large: '\(text)'") }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
