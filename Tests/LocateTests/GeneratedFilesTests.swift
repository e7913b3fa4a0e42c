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

    @Test func helpManPageAndCompletionsNameEveryOption() {
        let help = HelpText.text
        for flag in Usage.options.flatMap(\.flags) {
            #expect(help.contains(flag), "--help lacks \(flag)")
            #expect(ManPage.text.contains(flag.replacing("-", with: "\\-")), "the man page lacks \(flag)")
            #expect(Completions.bash.contains(flag) && Completions.zsh.contains(flag), "a completion lacks \(flag)")
        }
        for status in Usage.exitStatuses {
            #expect(help.contains("  \(status.code) "))
        }
    }

    @Test func everyOptionTheParserKnowsIsDocumented() throws {
        // Each documented flag parses (help and version stop at once), and an undocumented one does not.
        for option in Usage.options {
            for flag in option.flags {
                var arguments = [flag] + (option.value.map { _ in [valueExample(for: flag)] } ?? [])
                if ["--always", "--reduced"].contains(flag) { arguments = ["permission", "allow", flag] }
                if ["--events"].contains(flag) { arguments = ["--json", flag] }
                if ["--no-header"].contains(flag) { arguments = ["--csv", flag] }
                if ["--null"].contains(flag) { arguments = ["--format", "%lat", flag, "-"] }
                if ["--count", "-n", "--duration", "--distance", "--interval", "--heartbeat"].contains(flag) { arguments = ["--follow"] + arguments }
                #expect(throws: Never.self, "\(arguments)") { try CommandLineOptions(arguments: arguments, environment: [:]) }
            }
        }
    }

    private func valueExample(for flag: String) -> String {
        switch flag {
        case "--gpsd": "localhost:2947"
        case "--format": "%lat"
        case "--app", "--purpose", "--null": "x"
        default: "1"
        }
    }
}
