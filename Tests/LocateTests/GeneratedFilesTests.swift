import Foundation
import Testing

@testable import locate

/// The man page and the completion scripts are tracked in Scripts/ and rendered from the same
/// tables as `--help`; these tests fail when they drift. `make generated` rewrites them
/// (it runs these tests with LOCATE_UPDATE_GENERATED=1).
struct GeneratedFilesTests {
    private static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts")

    private func check(_ relativePath: String, _ rendered: String) throws {
        let file = Self.scripts.appendingPathComponent(relativePath)
        if ProcessInfo.processInfo.environment["LOCATE_UPDATE_GENERATED"] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try rendered.write(to: file, atomically: true, encoding: .utf8)
        }
        let tracked = try String(contentsOf: file, encoding: .utf8)
        #expect(tracked == rendered, "Scripts/\(relativePath) is out of date: run make generated")
    }

    @Test func theManPageIsRenderedFromTheHelpTables() throws {
        try check("locate.1", ManPage.text)
    }

    @Test func theCompletionsAreRenderedFromTheHelpTables() throws {
        try check("completions/locate.bash", Completions.bash)
        try check("completions/_locate", Completions.zsh)
        try check("completions/locate.fish", Completions.fish)
    }

    /// Whether `text` has `word` as a word of its own: not inside a longer flag (`-f` in `--format`).
    private func mentions(_ text: String, _ word: String) -> Bool {
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "-" || character == "_"
        }
        return text.ranges(of: word).contains { range in
            let before = range.lowerBound == text.startIndex ? " " : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? " " : text[range.upperBound]
            return !isWordCharacter(before) && !isWordCharacter(after)
        }
    }

    @Test func theWordCheckDoesNotMatchInsideLongerFlags() {
        #expect(!mentions("  --format TEMPLATE", "-f") && !mentions("--no-header", "-n") && mentions("  -f, --follow", "-f"))
    }

    @Test func helpManPageAndCompletionsNameEveryOptionTheParserKnows() {
        let help = HelpText.text
        let fishLines = Completions.fish.split(separator: "\n").map(String.init)
        for option in OptionTable.options {
            let term = option.flags.joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")
            // A long term stands on a line of its own, its text below.
            #expect(help.contains("\n  " + term + " ") || help.contains("\n  " + term + "\n"), "--help lacks the entry \(term)")
            for flag in option.flags {
                #expect(mentions(help, flag), "--help lacks \(flag)")
                #expect(ManPage.text.contains("\\fB" + flag.replacing("-", with: "\\-") + "\\fR"), "the man page lacks \(flag)")
                #expect(mentions(Completions.bash, flag) && mentions(Completions.zsh, flag), "a completion lacks \(flag)")
                let fishFlag = flag.hasPrefix("--") ? "-l \(flag.dropFirst(2))" : "-s \(flag.dropFirst())"
                #expect(fishLines.contains { mentions($0, fishFlag) || $0.contains(" " + fishFlag + " ") }, "fish lacks \(flag)")
            }
        }
        for status in Usage.exitStatuses {
            #expect(help.contains("  \(status.code) "))
        }
    }

    @Test func theParserKnowsExactlyTheOptionsOfTheTable() throws {
        // Each option parses in a place where it applies; anything spelled otherwise is unknown.
        for option in OptionTable.options {
            for flag in option.flags {
                #expect(throws: Never.self, "\(flag)") { try CommandLineOptions(arguments: example(flag, option), environment: [:]) }
            }
        }
        for flag in ["--bogus", "-x", "--follows", "--Follow", "-F", "--json-lines", "---json", "--f"] {
            #expect(OptionTable.option(flag) == nil)
            #expect(throws: UsageError(message: "unknown option '\(flag)'")) { try CommandLineOptions(arguments: [flag], environment: [:]) }
        }
    }

    /// A command line on which `flag` is valid: in its first scope, with a value and what it goes with.
    private func example(_ flag: String, _ option: OptionSpec) -> [String] {
        let value: [String] =
            switch option.value {
            case nil: []
            case "SPEC": ["localhost:2947"]
            case "TEMPLATE": ["%lat"]
            case "NAME", "TEXT": ["x"]
            case "LANG": ["ko"]
            case "NAME=LAT,LON,RADIUS": ["home=1,2,3"]
            case "STATE:NAME": ["inside:home"]
            case "FILE": ["track.gpx"]
            case "FORMAT": ["owntracks"]
            case "V": ["5"]
            case "ADDR": ["127.0.0.1:2948"]
            case "PATH": ["/tmp/locate-test.sock"]
            case "URL": ["mqtt://localhost/fleet"]
            default: ["1"]
            }
        var arguments = [flag] + value
        switch option.scopes?.sorted(by: { $0.rawValue < $1.rawValue }).first {
        case .follow?: arguments = ["--follow"] + arguments
        case .permissionAllow?: arguments = ["permission", "allow"] + arguments
        case .geocode?: arguments = ["geocode"] + (flag == "--batch" ? [] : ["Seoul"]) + arguments
        case .monitor?: arguments = ["monitor"] + arguments
        case .visits?: arguments = ["visits"] + arguments
        case .publish?: arguments = ["publish", "mqtt://localhost/owntracks/user/device"] + arguments
        case .serve?: arguments = ["serve"] + arguments
        default: break
        }
        switch flag {
        case "--events", "--geocode": arguments.append("--json")
        case "--no-header": arguments.append("--csv")
        case "--null": arguments += ["--format", "%lat"]
        case "--replay-speed": arguments += ["--replay", "track.gpx"]
        default: break
        }
        return arguments
    }
}
