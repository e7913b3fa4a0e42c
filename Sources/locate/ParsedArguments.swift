import GPSLocation
import GPSLocationConsent
import LocateSupport

/// What the parser has read of a command line: the command word, each command's options as the
/// table's entries set them (`OptionTable`), the options several commands share, and what is
/// checked only once every word is read. Each command's options type takes its own slice from
/// here, checked, into a `ParsedCommandLine`.
struct ParsedArguments {
    /// The command a command line runs: its first word's, or `locate`'s own (positions).
    enum Command: Sendable {
        case locate, permission, status, geocode, monitor, visits, publish, serve, access, record, history, agent
    }

    /// `locate`'s own mode: `--once` (the default) or `--follow`.
    enum Mode: Sendable { case once, follow }

    var command = Command.locate
    var mode = Mode.once
    var showHelp = false
    /// The command whose help `--help` or `locate help COMMAND` shows: `nil` for all of them,
    /// `""` for `locate` itself.
    var helpCommand: String?
    var showVersion = false

    /// `--gpsd`, as given.
    var gpsdOption: String?
    /// `--app`, checked as an app name.
    var app: String?
    /// The output format options given, in order (more than one is an error).
    var formats: [String] = []
    /// `--format` and `--null`, as given: the template is read once the command's kind of record is known.
    var template: String?
    var nullText: String?

    // The slices, each set by the options of its command (or commands); the shared ones (`stream`,
    // `output`, `fleet`) join a command's own when its options are checked.
    var stream = StreamOptions()
    var output = OutputOptions()
    var once = OnceOptions()
    var status = StatusOptions()
    var permission = PermissionOptions()
    var geocode = GeocodeOptions()
    var fleet = FleetOptions()
    var monitor = MonitorOptions()
    var visits = VisitsOptions()
    var publish = PublishOptions()
    var serve = ServeOptions()
    var history = HistoryOptions()

    /// The arguments that are no option, in order.
    private(set) var positional: [String] = []
    /// The options given, in order.
    private(set) var used: [OptionSpec] = []

    /// The spellings of the options given.
    var flags: Set<String> { Set(used.flatMap(\.flags)) }
}

extension ParsedArguments {
    /// Reads the arguments (without the program name). A first word that is a command selects it
    /// (`CommandTable`); options take their value as the next argument or after `=`, and every
    /// option is one of `OptionTable.options`, which records it in its slice. Only the options'
    /// values are checked here; `ParsedCommandLine` checks the rest.
    init(_ arguments: [String]) throws(UsageError) {
        self.init()
        var remaining = arguments[...]
        if let first = remaining.first, let command = CommandTable.command(first) {
            remaining.removeFirst()
            helpCommand = command.name
            try command.select(&self, &remaining)
        }
        while let argument = remaining.popFirst() {
            // A negative number is an argument (a coordinate, also `-33.9,151.2`), not an option.
            let firstNumber = argument.split(maxSplits: 1) { $0 == "," || $0 == " " }.first.map(String.init) ?? argument
            guard argument.hasPrefix("-"), argument != "-", !NumericText.isNumber(firstNumber) else {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                positional += remaining
                break
            }
            // `-fn2` is `-f -n 2`, as getopt reads it: switches bundle, and a short option that
            // takes a value takes the rest of the word.
            if !argument.hasPrefix("--"), argument.dropFirst().count > 1 {
                remaining = ArraySlice(Self.unbundled(argument)) + remaining
                continue
            }
            let name = String(argument.prefix { $0 != "=" })
            let inlineValue = argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = OptionTable.option(name) else {
                throw UsageError(
                    message: "unknown option '\(UntrustedText.visible(name, limit: 80))'"
                        + Suggestion.didYouMean(name, among: OptionTable.options.flatMap(\.flags)))
            }
            let value: String
            if option.value == nil {
                guard inlineValue == nil else { throw UsageError(message: "'\(name)' takes no value") }
                value = ""
            } else if let inlineValue {
                value = inlineValue
            } else if let next = remaining.popFirst() {
                value = next
            } else {
                throw UsageError(message: "missing value for '\(name)'")
            }
            do {
                try option.apply(&self, name, value)
            } catch {
                throw error as? UsageError ?? UsageError(message: "'\(name)': \(error)")
            }
            used.append(option)
        }
    }

    /// Where the options must apply: the command, and the mode for positions.
    var scope: OptionScope {
        switch command {
        case .locate: mode == .once ? .once : .follow
        case .permission:
            switch permission.action {
            case .status: .permissionStatus
            case .allow: .permissionAllow
            case .deny: .permissionDeny
            case .reset: .permissionReset
            }
        case .status: .status
        case .geocode: .geocode
        case .monitor: .monitor
        case .visits: .visits
        case .publish: .publish
        case .serve: .serve
        case .access: .access
        case .record: .record
        case .history: .history
        case .agent: .agent
        }
    }

    /// Every option given applies to the command (and mode) the command line runs.
    func checkScopes() throws(UsageError) {
        let scope = scope
        if let misplaced = used.first(where: { !($0.scopes?.contains(scope) ?? true) }) {
            throw UsageError(message: "'\(misplaced.name)' does not apply to \(scope.rawValue)")
        }
    }

    /// What a command's argument is, for `endpoint(_:_:environment:)`.
    enum EndpointArgument {
        /// A gpsd endpoint.
        case endpoint
        /// A gpsd endpoint, unless it is a slip of a command or option name (`statsu`, `follow`),
        /// for the commands a newcomer types first: `locate`, `status`, `serve`, `publish`.
        case endpointUnlessSlip
        /// Nothing: the command takes no argument (`permission`, `agent`).
        case none
    }

    /// The gpsd endpoint: the command's argument in `words` (at most one), else `--gpsd`, else
    /// `environment["LOCATE_GPSD"]`; `nil` leaves it to the settings.
    func endpoint(
        _ words: [String], _ argument: EndpointArgument, environment: EnvironmentVariables
    ) throws(UsageError) -> GPSDEndpoint? {
        if let word = words.first, argument == .endpointUnlessSlip {
            try Self.checkIsNoCommand(word)
        }
        guard words.count <= 1 else {
            throw UsageError(message: "unexpected argument '\(UntrustedText.visible(words[1], limit: 80))'")
        }
        if let word = words.first, stream.replay != nil {
            throw UsageError(message: "unexpected argument '\(UntrustedText.visible(word, limit: 80))': a replay reads no gpsd")
        }
        if words.first != nil, gpsdOption != nil {
            throw UsageError(message: "give the gpsd endpoint either as an argument or with --gpsd, not both")
        }
        if argument == .none, let word = words.first {
            throw UsageError(message: "unexpected argument '\(UntrustedText.visible(word, limit: 80))'")
        }
        guard let spec = words.first ?? gpsdOption ?? environment["LOCATE_GPSD"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return nil
        }
        do {
            return try GPSDEndpoint(parsing: spec)
        } catch {
            throw UsageError(message: error.description)
        }
    }

    /// `--app`, else `environment["LOCATE_APP"]` (checked as an app name); `nil` for `[location]`.
    func app(environment: EnvironmentVariables) throws(UsageError) -> String? {
        if let app { return app }
        guard let fromEnvironment = environment["LOCATE_APP"], !fromEnvironment.isEmpty else { return nil }
        do {
            try ConsentStore.checkAppName(fromEnvironment)
            return fromEnvironment
        } catch {
            throw UsageError(message: "LOCATE_APP: \(error.description)")
        }
    }

    /// The options of a bundle of short ones (`-fn2` as `-f`, `-n`, `2`); a letter that is no
    /// option ends the bundle, to be reported as unknown.
    private static func unbundled(_ bundle: String) -> [String] {
        var words: [String] = []
        var rest = bundle.dropFirst()
        while let letter = rest.first {
            rest = rest.dropFirst()
            let flag = "-" + String(letter)
            words.append(flag)
            guard let option = OptionTable.option(flag) else { break }
            if option.value != nil {
                if !rest.isEmpty { words.append(String(rest.first == "=" ? rest.dropFirst() : rest)) }
                return words
            }
        }
        return rest.isEmpty ? words : words + ["-" + rest]
    }

    /// A gpsd endpoint word that is a slip of a command or option name (`statsu`, `follow`,
    /// `help`) is a usage error, before any name lookup; `host:port`, a dotted name or an address
    /// is always an endpoint, as is anything given with `--gpsd`.
    private static func checkIsNoCommand(_ word: String) throws(UsageError) {
        guard !word.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }) else {
            return
        }
        var names: [(name: String, shown: String)] = []
        for command in CommandTable.commands { names.append((command.name, command.name)) }
        for command in CommandTable.commands {
            for subcommand in command.words { names.append((subcommand, command.name + " " + subcommand)) }
        }
        for option in OptionTable.options where option.name.hasPrefix("--") {
            names.append((String(option.name.dropFirst(2)), option.name))
        }
        let near = Suggestion.nearest(word, among: names)
        guard !near.isEmpty else { return }
        let shown = UntrustedText.visible(word, limit: 80)
        throw UsageError(
            message: "'\(shown)' is not a command; did you mean "
                + near.prefix(2).map { "'\($0)'" }.joined(separator: " or ")
                + "? (a gpsd host of that name is given as \(shown):2947 or with --gpsd \(shown))")
    }
}
