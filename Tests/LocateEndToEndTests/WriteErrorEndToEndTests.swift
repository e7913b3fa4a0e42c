import Foundation
import Testing

/// A closed pipe is a normal end; any other write error (a full disk, an I/O error) is a
/// failure: a message on stderr and status 74, never 0.
struct WriteErrorEndToEndTests {
    private let locate = Package.locate.path
    private let message = "locate: cannot write to standard output: No space left on device\n"

    @Test func aFullDiskIsStatus74ForEveryCommand() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try SettingsHome.allowingAlways()
        for arguments in [
            "--once \(receiver.endpoint)", "--once --json \(receiver.endpoint)", "--follow --count 2 \(receiver.endpoint)",
            "--follow --gpx --count 1 \(receiver.endpoint)", "--help", "--version", "permission status", "status \(receiver.endpoint)",
        ] {
            let run = try await runShell("'\(locate)' \(arguments) > /dev/full", settings: settings)
            #expect(run.status == 74, "\(arguments)")
            // status may say first that this machine's clock is far from the receiver's (the
            // track is of 2026-01-01): the write error is its last word.
            #expect(run.stderr.hasSuffix(message) && run.stderr.split(separator: "\n").count <= 2, "\(arguments): \(run.stderr)")
        }
    }

    @Test func theFallbackThatCannotBeWrittenIsStatus74Too() async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = denied\n")
        let run = try await runShell("'\(locate)' 127.0.0.1:1 > /dev/full", settings: settings)
        #expect(run.status == 74)
        #expect(run.stderr.hasSuffix(message))
    }
}
