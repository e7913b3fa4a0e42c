import Foundation
import Testing

/// The installed completions, in a real bash, zsh and fish on a pseudo-terminal: what Tab shows.
struct CompletionEndToEndTests {
    static let shells = ["bash", "zsh", "fish"]

    /// What `shell` shows after `line` and Tab, once it shows `waitFor`.
    private func complete(_ shell: String, _ line: String, waitFor: String, settings: SettingsHome) async throws -> String {
        let file = ["bash": "locate.bash", "zsh": "_locate", "fish": "locate.fish"][shell] ?? ""
        let script = Package.root.appendingPathComponent("Scripts/complete-in-terminal").path
        let completion = Package.root.appendingPathComponent("Scripts/completions/" + file).path
        let run = try RunningProcess(URL(fileURLWithPath: script), [shell, completion, line, waitFor], environment: settings.environment)
        let status = try await run.waitForExit(timeout: 30)
        #expect(status == 0, "\(shell): '\(line)' never showed \(waitFor): \(run.stdout.text) \(run.stderr.text)")
        return run.stdout.text
    }

    @Test(arguments: shells)
    func tabOffersWhatTheCommandTakes(shell: String) async throws {
        let settings = try SettingsHome(
            user: "[region \"home\"]\nlatitude = 1\nlongitude = 2\nradius = 100\n[app \"weather\"]\nauthorization = always\n")
        let track = settings.root.appendingPathComponent("commute-track.gpx")
        try "<gpx/>".write(to: track, atomically: true, encoding: .utf8)
        async let geocode = complete(shell, "locate geocode --", waitFor: "--batch", settings: settings)
        async let replay = complete(
            shell, "locate --replay " + settings.root.appendingPathComponent("commute-tr").path, waitFor: "commute-track.gpx",
            settings: settings)
        async let until = complete(shell, "locate monitor --until ", waitFor: "outside:home", settings: settings)
        async let app = complete(shell, "locate --app ", waitFor: "weather", settings: settings)
        async let permission = complete(shell, "locate permission ", waitFor: "reset", settings: settings)
        let options = try await geocode
        #expect(options.contains("--limit") && !options.contains("--follow") && !options.contains("--region"), "\(shell): \(options)")
        _ = try await replay
        let conditions = try await until
        #expect(conditions.contains("inside:home") && !conditions.contains("commute-track"), "\(shell): no files there: \(conditions)")
        #expect(!(try await app).contains("commute-track"), "\(shell): app names, not files")
        let actions = try await permission
        #expect(actions.contains("allow") && actions.contains("deny"), "\(shell): \(actions)")
    }
}
