import GPSLocation
import HostileInput
import LocateSupport
import Testing

@testable import locate

/// Hostile values for every option that takes one, and mutated command lines: each value is
/// accepted exactly when it is what the option documents, and a refusal is one short line that
/// names the option and shows no control character raw.
struct HostileOptionTests {
    static let values = [
        "nan", "NaN", "inf", "-inf", "-1", "0", "-0", "1e308", "1e-308", "999999999999999999999999999999",
        "0x10", "1,5", " 5", "", "\u{1B}[2J", "\u{202E}", String(repeating: "9", count: 10_000), "%", "%lat%", "\\",
        "C.UTF-8",
    ]

    /// What each option must accept of `values`; everything else is a usage error. Seconds and
    /// metres are plain decimals in range (a duration of at least a millisecond; `inf` where waiting
    /// without end makes sense); counts are whole
    /// numbers from 1; an endpoint is host[:port[:device]] of a host name's characters; a language
    /// is a locale name; an app name (and a monitor's) is 1 to 64 of letters, digits, `.`, `_`, `-`; free text is free.
    static let accepted: [String: Set<String>] = [
        "--timeout": ["inf"], "--duration": ["inf"], "--heartbeat": [],
        "--max-age": ["0", "-0", "inf"], "--interval": ["0", "-0"],
        "--accuracy": ["1e-308"], "--distance": ["0", "-0", "1e-308"],
        "--radius": ["1e-308"], "--dwell": [], "--replay-speed": ["0", "-0", "1e-308"],
        "--region": [], "--until": [],
        "--as": [], "--min-fix": [], "--qos": ["0"], "--mqtt-version": [], "--subscribe": [], "--publish": [],
        "--replay": Set(values).subtracting(["", "\u{1B}[2J", "\u{202E}"]),
        "--count": [], "--limit": [], "--outbox-limit": [], "--every": [],
        "--gpsd": [
            "nan", "NaN", "inf", "-inf", "-1", "0", "-0", "1e308", "1e-308", "999999999999999999999999999999", "0x10", "", "C.UTF-8",
        ],
        "--lang": ["nan", "NaN", "inf", "C.UTF-8"],
        "--app": ["nan", "NaN", "inf", "0", "1e308", "1e-308", "999999999999999999999999999999", "0x10", "C.UTF-8"],
        "--by": Set(values).subtracting(["", "\u{1B}[2J", "\u{202E}", " 5", String(repeating: "9", count: 10_000)]),
        "--name": ["nan", "NaN", "inf", "0", "1e308", "1e-308", "999999999999999999999999999999", "0x10", "C.UTF-8"],
        "--format": Set(values).subtracting(["%", "%lat%", "\\"]),
        "--null": Set(values), "--purpose": Set(values),
        "--listen": [], "--nmea": [],
        // Unix seconds are digits; a time is a date, or one with its zone.
        "--from": ["0"], "--to": ["0"], "--before": ["0"], "--near": [],
    ]

    /// The words before an option so that it applies where it is given.
    private static func context(_ option: OptionSpec) -> [String] {
        switch option.scopes?.first {
        case .follow?: ["--follow"]
        case .geocode?: ["geocode", "Paris"]
        case .monitor?: ["monitor"]
        case .visits?: ["visits"]
        case .publish?: ["publish", "mqtt://localhost/locate/test"]
        case .serve?: ["serve"]
        case .record?: ["record"]
        case .history?: option.name == "--before" ? ["history", "--forget"] : ["history"]
        default: option.name == "--null" ? ["--format", "%lat"] : option.name == "--replay-speed" ? ["--replay", "x"] : []
        }
    }

    @Test func everyValuedOptionAcceptsExactlyWhatItDocuments() throws {
        for option in OptionTable.options where option.value != nil {
            let accepted = try #require(Self.accepted[option.name], "\(option.name) has no expectation")
            for flag in option.flags {
                for value in Self.values {
                    let arguments = Self.context(option) + [flag, value]
                    do {
                        let options = try ParsedCommandLine(arguments: arguments, environment: [:])
                        #expect(accepted.contains(value), "\(flag) accepted '\(value.prefix(20))'")
                        for number in [options.stream?.accuracy, options.stream?.distance].compactMap({ $0 }) {
                            #expect(number.isFinite && number >= 0 && number <= 1e9, "\(flag) '\(value.prefix(20))' gave \(number)")
                        }
                    } catch {
                        #expect(!accepted.contains(value), "\(flag) refused '\(value.prefix(20))': \(error.message)")
                        #expect(
                            error.message.contains(flag) || error.message.contains("--format") || option.name == "--gpsd",
                            "\(flag): the message names the option: \(error.message)")
                        #expect(!UntrustedText.hasHidden(error.message) && !error.message.contains("\n"), "\(arguments): \(error.message)")
                        #expect(error.message.count < 300, "\(flag): \(error.message.count) characters")
                    }
                }
            }
        }
    }

    @Test func mutatedCommandLinesParseToSaneValuesOrAreOneLineErrors() {
        var mutator = Mutator(seed: 5)
        let seeds = [
            "--follow --count 3 --json --distance 10 localhost:2947", "--once --timeout 1.5 --format %lat,%lon --null - host:1:/dev/gps",
            "permission allow --always --app weather",
        ]
        var parsed = 0
        var refused = 0
        for bytes in mutator.corpus(from: seeds, count: 2000) {
            let arguments = String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init)
            do {
                let options = try ParsedCommandLine(arguments: arguments, environment: [:])
                parsed += 1
                #expect(options.timeout.map { $0 > .zero } ?? true, "\(arguments)")
                #expect(options.stream?.count.map { $0 >= 1 } ?? true, "\(arguments)")
                #expect(options.stream?.accuracy.map { $0 > 0 && $0.isFinite } ?? true, "\(arguments)")
                #expect(options.stream.map { $0.distance >= 0 && $0.distance.isFinite } ?? true, "\(arguments)")
                #expect(!UntrustedText.hasHidden(options.endpoint?.description ?? ""), "\(arguments)")
                #expect(options.app.map { !UntrustedText.hasHidden($0) && $0.utf8.count <= 64 } ?? true, "\(arguments)")
            } catch {
                refused += 1
                #expect(!UntrustedText.hasHidden(error.message) && !error.message.contains("\n"), "\(arguments): \(error.message)")
                #expect(error.message.count < 300, "\(arguments)")
            }
        }
        #expect(parsed > 0 && refused > 0, "the mutations reach both the values and the errors: \(parsed) parsed, \(refused) refused")
    }
}

extension ParsedCommandLine {
    /// The stream's options of a command that reads positions, for the checks every parsed value passes.
    var stream: StreamOptions? {
        switch self {
        case .once(let options): options.stream
        case .follow(let options): options.stream
        case .monitor(let options): options.stream
        case .visits(let options): options.stream
        case .publish(_, let options): options.stream
        case .record(let options): options
        case .history(let options): options.stream
        case .help, .version, .permission, .status, .geocode, .serve, .access, .agent: nil
        }
    }

    /// `--timeout`, of `--once` or `status`.
    var timeout: Duration? {
        switch self {
        case .once(let options): options.timeout
        case .status(let options): options.timeout
        default: nil
        }
    }

    /// The gpsd endpoint of a command that has one.
    var endpoint: GPSDEndpoint? {
        switch self {
        case .status(let options): options.endpoint
        case .serve(let options): options.endpoint
        default: stream?.endpoint
        }
    }

    /// The app of a command that has one.
    var app: String? {
        switch self {
        case .status(let options): options.app
        case .serve(let options): options.app
        case .permission(let options): options.app
        case .access(let app, _), .agent(let app): app
        default: stream?.app
        }
    }
}
