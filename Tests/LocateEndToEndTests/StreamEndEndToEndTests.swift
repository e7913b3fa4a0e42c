import Foundation
import Testing

/// How streams and single fixes end when their reader went away or their options held every fix
/// back: never 0 after nothing. (What a slow reader still gets after a revoke is
/// ConsentEndToEndTests' `aSlowReaderGetsNoQueuedFixAfterARevoke`.)
struct StreamEndEndToEndTests {
    /// `locate` with its stdout a pipe whose reader has already gone: every write is EPIPE.
    private func runIntoClosedPipe(_ arguments: [String], settings: SettingsHome) async throws -> Int32 {
        let pipe = try PipeEnds()
        close(pipe.read)
        let nullDevice = try openNullDevice()
        let process = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", Package.locate.path] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(settings.environment) { $1 },
            stdin: nullDevice, stdout: pipe.write, stderr: nullDevice)
        close(pipe.write)
        close(nullDevice)
        try await waitUntil(timeout: 30, failing: HarnessError(description: "locate \(arguments) did not end")) { !process.isRunning }
        return process.terminationStatus ?? -1
    }

    /// A reader gone before the first byte: the status is what the run would have said, never
    /// 0 when nothing of a position was there to be read.
    @Test(arguments: [
        ("denied", ["--once", "--csv"], 77), ("denied", ["--once", "--json"], 77),
        ("denied", ["monitor", "--csv", "--region", "a=1,1,1"], 77), ("denied", ["visits", "--csv"], 77),
        ("denied", ["--follow", "--csv"], 77),
        ("always", ["monitor", "--csv", "--until", "inside:a", "--region", "a=1,1,1"], 69),
        ("always", ["--follow", "--csv"], 69), ("always", ["--once", "--csv"], 69),
    ])
    func aReaderGoneAtOnceNeverMakesNothingASuccess(authorization: String, command: [String], status: Int32) async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = \(authorization)\n")
        let duration = command.contains("--once") ? [] : ["--duration", "2"]
        let ended = try await runIntoClosedPipe(command + duration + ["127.0.0.1:1"], settings: settings)
        #expect(ended == status, "\(authorization) \(command): \(ended)")
    }

    /// Fixes that the stream's own `--accuracy` holds back are gpsd answering: 75 ("no fix good
    /// enough"), as for `--once`, not 69 ("gpsd did not answer").
    @Test func fixesHeldBackByTheOptionsAreAnAnswerWithoutAFix() async throws {
        let gpsd = try await GpsdServer(track: "weather")
        async let follow = runLocate(["--follow", "--accuracy", "1", "--duration", "2", gpsd.endpoint])
        async let monitor = runLocate(["monitor", "--region", "a=64.15,-21.94,100", "--accuracy", "1", "--duration", "2", gpsd.endpoint])
        async let visits = runLocate(["visits", "--accuracy", "1", "--duration", "2", gpsd.endpoint])
        for (name, run) in try await [("follow", follow), ("monitor", monitor), ("visits", visits)] {
            #expect(run.status == 75, "\(name): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("passed the stream's filters"), "\(name): \(run.stderr)")
            #expect(!run.stderr.contains("did not answer"), "\(name)")
        }
    }
}
