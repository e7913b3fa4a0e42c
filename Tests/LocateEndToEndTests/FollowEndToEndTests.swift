import Foundation
import Testing

/// `locate --follow` against a real gpsd (gpsfake replaying the bundled tracks).
struct FollowEndToEndTests {
    /// The index in `track` of the point at (latitude, longitude), to 1e-6 degrees.
    private func trackIndex(_ record: [String: Any], in track: [(latitude: Double, longitude: Double)]) -> Int? {
        guard let lat = record["lat"] as? Double, let lon = record["lon"] as? Double else { return nil }
        return track.firstIndex { abs($0.latitude - lat) < 1e-6 && abs($0.longitude - lon) < 1e-6 }
    }

    @Test func countGivesThatManyFixesInTrackOrder() async throws {
        let receiver = try await GpsdServer(track: "running")
        let run = try await runLocate(["--follow", "--json", "--count", "4", receiver.endpoint])
        #expect(run.status == 0)
        let records = try run.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(records.count == 4)
        let track = try trackPoints("running")
        let indices = records.compactMap { trackIndex($0, in: track) }
        #expect(indices.count == 4, "every fix is a point of the track")
        #expect(indices == indices.sorted(), "fixes come in the order of the track")
        let times = records.compactMap { $0["time"] as? String }
        #expect(times == times.sorted())
        for (earlier, later) in zip(records, records.dropFirst()) where earlier["time"] as? String == later["time"] as? String {
            // gpsd's current fix (2D, before the epoch's altitude) and the same epoch as 3D.
            #expect(earlier["mode"] as? String != later["mode"] as? String, "a point twice only as a better fix of its epoch")
        }
        #expect(records.allSatisfy { ($0["speed"] as? Double).map { abs($0 - 3.3) < 0.05 } == true })
    }

    /// gpsd reports one epoch several times: a 2D fix, then the same time as 3D, then a position a
    /// later message of the same second corrects. Each that changes the record is printed; an
    /// unchanged repeat is not.
    @Test func refinementsOfAnEpochArePrintedAndRepeatsAreNot() async throws {
        let gpsd = try await GpsdServer(misbehaving: "epochs")
        let run = try await runLocate(["--follow", "--json", "--count", "4", gpsd.endpoint])
        #expect(run.status == 0)
        let records = try run.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        let shown = records.map { "\($0["time"] as? String ?? "-") \($0["mode"] as? String ?? "-") \($0["lat"] as? Double ?? 0)" }
        #expect(
            shown == [
                "2026-01-01T08:00:01.000Z 2d 10.0", "2026-01-01T08:00:01.000Z 3d 10.0",
                "2026-01-01T08:00:01.000Z 3d 10.000018", "2026-01-01T08:00:02.000Z 3d 10.000018",
            ])
    }

    @Test func recordsArriveAsFixesDoNotAtTheEnd() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["--follow", "--json", receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "two records while locate still runs") { run.stdout.lines.count >= 2 }
        #expect(run.process.isRunning)
        run.signal(SIGINT)
        #expect(try await run.waitForExit() == 0)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsTheStreamCleanly(signal: Int32) async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["--follow", receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "a first record") { !run.stdout.lines.isEmpty }
        run.signal(signal)
        #expect(try await run.waitForExit() == 0)
        #expect(run.stdout.text.hasSuffix("\n"), "no partial line")
        #expect(run.stderr.text.isEmpty)
    }

    /// A reader that stops reading leaves locate blocked in a write: the first signal must end it
    /// at once (a clean end would have to write), with the signal's own status.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsAStreamWhoseReaderStoppedReading(signal: Int32) async throws {
        let gpsd = try await GpsdServer(misbehaving: "flood")
        let settings = try SettingsHome.allowingAlways()
        let fifo = settings.root.appendingPathComponent("out").path
        let script = """
            mkfifo '\(fifo)' && exec 3<>'\(fifo)'
            '\(Package.locate.path)' --follow --json '\(gpsd.endpoint)' > '\(fifo)' & pid=$!
            until grep -qs pipe_write /proc/$pid/task/*/wchan; do sleep 0.02; done
            kill -\(signal) $pid; wait $pid; echo "status $?"
            """
        let run = try await runShell(script, settings: settings, timeout: 20)
        #expect(run.stdout == "status \(128 + signal)\n")
    }

    @Test func aClosedPipeEndsTheStreamQuietly() async throws {
        let receiver = try await GpsdServer(track: "running")
        // What `locate --follow | head -3` does: the reader takes three lines and goes away.
        let run = try await runShell(
            "'\(Package.locate.path)' --follow '\(receiver.endpoint)' | head -3; echo \"status ${PIPESTATUS[0]}\" >&2",
            settings: SettingsHome.allowingAlways())
        #expect(run.stdout.split(separator: "\n").count == 3)
        #expect(run.stderr == "status 0\n")
    }

    @Test func durationEndsTheStream() async throws {
        let receiver = try await GpsdServer(track: "running")
        let run = try await runLocate(["--follow", "--duration", "2.5", receiver.endpoint])
        #expect(run.status == 0, "ended by --duration, not by the harness's time limit")
        let records = run.stdout.split(separator: "\n")
        // 5 epochs a second for 2.5 s: a stream that printed nothing would not be a success.
        #expect(records.count >= 2, "\(run.stdout)")
        #expect(records.allSatisfy { $0.split(separator: " ").count == 2 && !$0.hasPrefix("37.517829") }, "whole live records only")
    }

    @Test func survivesAGpsdRestartAndResumes() async throws {
        let first = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        // No --count: however long a loaded machine takes to stop the first gpsd, the stream
        // cannot end before it has lost it.
        let run = try startLocate(["--follow", "--json", first.endpoint], settings: settings)
        try await run.stdout.wait(for: "two records from the first gpsd") { run.stdout.lines.count >= 2 }
        await first.stop()
        try await run.stderr.wait(for: "the loss to be reported") { run.stderr.text.contains("lost gpsd") }
        let beforeLoss = run.stdout.lines.count
        let second = try await GpsdServer(track: "running", port: first.port, wait: "listen")
        try await run.stdout.wait(for: "records from the second gpsd") { run.stdout.lines.count >= beforeLoss + 3 }
        run.signal(SIGTERM)
        #expect(try await run.waitForExit(timeout: 40) == 0, "its last record was a live fix")
        #expect(try run.stdout.lines.allSatisfy { try jsonObject($0)["type"] as? String == "fix" }, "no partial line")
        #expect(run.stderr.text.contains("locate: lost gpsd at \(first.endpoint); reconnecting"))
        #expect(run.stderr.text.contains("locate: reconnected to gpsd at \(first.endpoint)"))
        await second.stop()
    }

    @Test func gpsdThatIsDownAtTheStartGivesStatus69() async throws {
        try await withRefusingEndpoint { endpoint in
            let run = try await runLocate(["--follow", endpoint])
            #expect(run.status == 69)
            #expect(run.stdout == "37.517829 126.886270\n", "the fallback coordinate")
            #expect(run.stderr.contains("cannot reach gpsd at \(endpoint)"))
        }
    }
}
