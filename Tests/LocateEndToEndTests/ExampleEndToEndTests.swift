import Foundation
import Testing

/// The example program (Sources/WeatherAndRun) does what it says against a real gpsd: asks,
/// gets one fix with its place, then follows.
struct ExampleEndToEndTests {
    private static let example = Package.locate.deletingLastPathComponent().appendingPathComponent("WeatherAndRun")

    @Test func theExampleAsksThenGetsAFixAndAStream() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome()
        // The place index as a first run leaves it (building it is not what is tested here).
        try await settings.installPlaceIndex()
        // Not determined: the example's prompter asks on stdin, and "a" (always) is saved.
        let run = try RunningProcess(
            Self.example, [receiver.endpoint, "2"],
            environment: settings.environment.merging(["LANGUAGE": "C", "LANG": "C.UTF-8"]) { $1 }, input: true)
        try run.stdin?.write(contentsOf: Data("a\n".utf8))
        try run.stdin?.close()
        #expect(try await run.waitForExit(timeout: 60) == 0)
        let lines = run.stdout.text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("\"weather-and-run\" would like to use your location") == true, "\(run.stdout.text)")
        #expect(lines.contains { $0.contains("here: 64.1") && $0.hasSuffix("Reykjavik, Capital Region, Iceland") }, "\(run.stdout.text)")
        #expect(lines.filter { $0.hasPrefix("run: 64.1") }.count == 2, "\(run.stdout.text)")
        #expect(try String(contentsOf: settings.userFile, encoding: .utf8).contains("[app \"weather-and-run\"]\nauthorization = always"))
    }
}
