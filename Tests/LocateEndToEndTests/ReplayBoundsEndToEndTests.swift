import Foundation
import Testing

/// `--replay` held to its bounds, with hostile tracks: memory that does not grow with a track,
/// a request for one fix that reads one fix, a pipe that stays open and still lets a signal
/// through, and points that are data (their recorded permission means nothing, their fields
/// follow their format's grammar).
@Suite
struct ReplayBoundsEndToEndTests {
    private func file(_ name: String, in settings: SettingsHome, _ write: (FileHandle) throws -> Void) throws -> String {
        let url = settings.root.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try write(handle)
        return url.path
    }

    /// One point, then 128 MB of blank lines: the old reader made room for a fix per line before
    /// reading (a 30 GB allocation, status 134); `--once` needs the first point only.
    @Test func aPointAndMillionsOfBlankLinesGiveThePointAtOnce() async throws {
        let settings = try SettingsHome()
        let track = try file("blank.jsonl", in: settings) { handle in
            try handle.write(contentsOf: Data(#"{"type":"fix","lat":64.13,"lon":-21.9}"#.utf8 + [0x0A]))
            let blanks = Data(repeating: 0x0A, count: 1 << 20)
            for _ in 0..<128 { try handle.write(contentsOf: blanks) }
        }
        let run = try await runLocateMeasuringMemory(["--replay", track], settings: settings, timeout: 20)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "64.130000 -21.900000\n")
        #expect(run.peakKiB < 48 * 1024, "peak \(run.peakKiB) KiB")
    }

    /// A GPX of 24 MB: `--once` reads as far as its first point, in the memory of a small track.
    @Test func aLargeGPXIsReadOnlyAsFarAsTheFixAsked() async throws {
        let settings = try SettingsHome()
        let point = #"<trkpt lat="64.13" lon="-21.9"><ele>10</ele><time>2026-01-01T08:00:00Z</time></trkpt>"# + "\n"
        let track = try file("big.gpx", in: settings) { handle in
            try handle.write(contentsOf: Data("<gpx><trk><trkseg>\n".utf8))
            let block = Data(String(repeating: point, count: 10_000).utf8)
            for _ in 0..<(24 << 20) / block.count { try handle.write(contentsOf: block) }
            try handle.write(contentsOf: Data("</trkseg></trk></gpx>\n".utf8))
        }
        let run = try await runLocateMeasuringMemory(["--replay", track, "--json"], settings: settings, timeout: 20)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\"lat\":64.13"))
        #expect(run.peakKiB < 40 * 1024, "peak \(run.peakKiB) KiB")
    }

    /// The whole of a track ten times as long takes no more memory.
    @Test func memoryDoesNotGrowWithTheTrack() async throws {
        let settings = try SettingsHome()
        func track(_ count: Int) throws -> String {
            try file("track-\(count).jsonl", in: settings) { handle in
                var text = ""
                for index in 0..<count {
                    text +=
                        #"{"type":"fix","time":"2026-01-01T08:00:00.000Z","lat":\#(64 + Double(index % 1000) / 1e5),"lon":-21.9,"h_acc":3}"#
                    text += "\n"
                }
                try handle.write(contentsOf: Data(text.utf8))
            }
        }
        let short = try await runLocateMeasuringMemory(
            ["--follow", "--replay", try track(3_000), "--replay-speed", "0"], settings: settings)
        let long = try await runLocateMeasuringMemory(
            ["--follow", "--replay", try track(30_000), "--replay-speed", "0"], settings: settings)
        #expect(short.status == 0 && long.status == 0, "\(short.stderr) \(long.stderr)")
        #expect(long.stdout.split(separator: "\n").count == 30_000)
        // The live queue holds up to 4,096 updates (about 3 MiB of them) when the reader of the
        // output is slower than the track, as on a loaded machine: the bound is that queue, well
        // below the 15 MiB and more that the long track's 30,000 fixes would take if kept.
        #expect(long.peakKiB - short.peakKiB < 6 * 1024, "\(short.peakKiB) KiB, then \(long.peakKiB) KiB")
    }

    /// `sleep 30 | locate --follow --replay -`: a pipe that stays open without a byte. Each of
    /// SIGINT, SIGTERM and SIGHUP ends the stream at once, for --follow, monitor and visits.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalStopsAReplayOfAPipeThatStaysOpen(signal: Int32) async throws {
        let settings = try SettingsHome()
        for command in [["--follow"], ["monitor", "--region", "a=1,1,10"], ["visits"]] {
            let run = try RunningProcess(
                URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", Package.locate.path] + command + ["--replay", "-"],
                environment: settings.environment, input: true)
            // It waits for the pipe: nothing, for a while.
            try await Task.sleep(for: .milliseconds(300))
            #expect(run.process.isRunning && run.stdout.text.isEmpty)
            run.signal(signal)
            let status = try await run.waitForExit(timeout: 5)
            #expect(status == 75, "\(command) \(signal): \(status) \(run.stderr.text)")
            #expect(run.stderr.text.contains("no fix from the track standard input"), "\(run.stderr.text)")
            #expect(run.stdout.text.isEmpty, "no fallback for a replay")
            try run.stdin?.close()
        }
    }

    /// A point recorded under reduced accuracy is a point, its `h_acc` its accuracy: a monitor
    /// over it decides as over any other (the old reader took `"accuracy":"reduced"` for a
    /// permission, and ended with 77).
    @Test func aPointRecordedUnderReducedAccuracyIsData() async throws {
        let settings = try SettingsHome()
        let track = try file("reduced.jsonl", in: settings) { handle in
            try handle.write(
                contentsOf: Data(
                    """
                    {"type":"fix","time":"2026-01-01T08:00:00.000Z","lat":64.13,"lon":-21.9,"h_acc":5,"accuracy":"reduced"}
                    {"type":"fix","time":"2026-01-01T08:00:01.000Z","lat":64.2,"lon":-21.9,"h_acc":5,"accuracy":"reduced"}

                    """.utf8))
        }
        let run = try await runLocate(
            ["monitor", "--replay", track, "--replay-speed", "0", "--region", "depot=64.13,-21.9,100"], settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                "initial inside", "exit outside",
            ])
    }

    /// NMEA fields that break their sentence's grammar in a sentence that claims a fix (a sign
    /// before a latitude, minutes of 60, a date that does not exist) are an error on their line,
    /// status 65, after the fixes before them; a sentence without a fix says only that (an
    /// MTK-3301 writes a latitude of 8960.000000 before its first fix).
    @Test(arguments: [
        ("$GPRMC,080001.00,A,-608.00000,N,02154.60687,W,6.41,359.6,010126,,,A", "RMC field 3 is '-608.00000', not a latitude"),
        ("$GPRMC,080001.00,A,6460.00000,N,02154.60687,W,6.41,359.6,010126,,,A", "RMC field 3 is '6460.00000', not a latitude"),
        ("$GPRMC,080001.00,A,6408.40000,N,02154.60687,W,6.41,359.6,300226,,,A", "RMC field 9 is '300226', not a real date"),
        ("$GPRMC,250001.00,A,6408.40000,N,02154.60687,W,6.41,359.6,010126,,,A", "RMC field 1 is '250001.00', not a time of day"),
        ("$GPGGA,080001.00,6408.40000,X,02154.60687,W,1,08,0.9,30.1,M,45.0,M,,", "GGA field 3 is 'X', not N or S"),
        ("$GPGGA,080001.00,6408.40000,N,02154.60687,W,1,-8,0.9,30.1,M,45.0,M,,", "GGA field 7 is '-8', not a number of satellites"),
    ])
    func nmeaFieldsFollowTheSentenceGrammar(sentence: String, problem: String) async throws {
        let settings = try SettingsHome()
        func checksummed(_ body: String) -> String {
            let sum = body.dropFirst().utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return body + "*" + String(format: "%02X", sum) + "\r\n"
        }
        let track = try file("bad.nmea", in: settings) { handle in
            let text =
                checksummed("$GPRMC,080000.00,A,6408.40000,N,02154.60686,W,6.41,0.0,010126,,,A")
                + checksummed("$GPGGA,080000.00,8960.000000,N,00000.000000,E,0,0,,137.000,M,13.000,M,,")
                + checksummed(sentence)
            try handle.write(contentsOf: Data(text.utf8))
        }
        let run = try await runLocate(["--follow", "--replay", track, "--replay-speed", "0"], settings: settings)
        #expect(run.status == 65, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("bad.nmea:3: \(problem)"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "the first epoch had no fix (its GGA said so), and nothing stands in")
    }

    /// `tail -f run.jsonl | locate --follow --replay - --replay-speed 0`: what was read goes out
    /// while the pipe stays open, not when a batch fills or the pipe ends.
    @Test func aPipeThatStaysOpenHasItsFixesPlayedAsTheyCome() async throws {
        let settings = try SettingsHome()
        let run = try RunningProcess(
            Package.locate, ["--follow", "--replay", "-", "--replay-speed", "0"], environment: settings.environment, input: true)
        try run.stdin?.write(
            contentsOf: Data(
                """
                {"type":"fix","time":"2026-01-01T08:00:00.000Z","lat":64.13,"lon":-21.9,"h_acc":3}
                {"type":"fix","time":"2026-01-01T08:00:01.000Z","lat":64.14,"lon":-21.9,"h_acc":3}

                """.utf8))
        try await run.stdout.wait(timeout: 10, for: "both fixes while the pipe is open") { run.stdout.lines.count == 2 }
        #expect(run.process.isRunning)
        try run.stdin?.write(contentsOf: Data(#"{"type":"fix","lat":64.15,"lon":-21.9}"#.utf8 + [0x0A]))
        try await run.stdout.wait(timeout: 10, for: "the third fix") { run.stdout.lines.count == 3 }
        try run.stdin?.close()
        #expect(try await run.waitForExit(timeout: 10) == 0, "\(run.stderr.text)")
        #expect(run.stdout.lines == ["64.130000 -21.900000", "64.140000 -21.900000", "64.150000 -21.900000"])
    }

    /// A track is no guess: `--once --replay` of a track without a fix, or one that cannot be read,
    /// is 65 with the reason, and prints no fallback coordinate.
    @Test(arguments: [
        ("nofix.jsonl", #"{"type":"status","event":"timeout"}"# + "\n", "has no fix"),
        ("empty.gpx", "<gpx><trk><trkseg></trkseg></trk></gpx>\n", "has no fix"),
        ("bad.jsonl", "{\"type\":\"fix\",\"lat\":91,\"lon\":0}\n", "bad.jsonl:1"),
    ])
    func aTrackWithoutAFixHasNoStandIn(name: String, content: String, problem: String) async throws {
        let settings = try SettingsHome()
        let track = try file(name, in: settings) { try $0.write(contentsOf: Data(content.utf8)) }
        for json in [false, true] {
            let run = try await runLocate(["--once", "--replay", track] + (json ? ["--json"] : []), settings: settings)
            #expect(run.status == 65, "\(run.stdout) \(run.stderr)")
            #expect(run.stderr.contains(problem), "\(run.stderr)")
            #expect(run.stdout.isEmpty, "no fallback for a track: \(run.stdout)")
        }
    }

    /// `--accuracy` a track never meets: the track's own most accurate fix, marked, status 75.
    @Test func anAccuracyATrackNeverMeetsGivesItsBestFixMarked() async throws {
        let settings = try SettingsHome()
        let track = try file("coarse.jsonl", in: settings) { handle in
            try handle.write(
                contentsOf: Data(
                    """
                    {"type":"fix","lat":64.13,"lon":-21.9,"h_acc":80}
                    {"type":"fix","lat":64.14,"lon":-21.9,"h_acc":40}
                    {"type":"fix","lat":64.15,"lon":-21.9,"h_acc":60}

                    """.utf8))
        }
        let run = try await runLocate(["--once", "--replay", track, "--accuracy", "5", "--json"], settings: settings)
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stdout.contains("\"lat\":64.14") && run.stdout.contains("\"timed_out\":true"), "\(run.stdout)")
        #expect(!run.stdout.contains("fallback"), "\(run.stdout)")
    }

    /// GPX from a pipe in one pass: waypoints first wait, and the track that follows wins.
    @Test func aPipedGPXPlaysItsTrackOverTheWaypointsBeforeIt() async throws {
        let settings = try SettingsHome()
        let run = try RunningProcess(
            Package.locate, ["--follow", "--replay", "-", "--replay-speed", "0"], environment: settings.environment, input: true)
        try run.stdin?.write(
            contentsOf: Data(
                """
                <?xml version="1.0"?>\r
                <!-- a comment <trkpt lat="1" lon="1"> -->\r
                <gpx version="1.1"><wpt lat="10" lon="10"/><wpt lat="11" lon="11"></wpt>\r
                <trk><trkseg><trkpt lat = "64.13"\r
                  lon="-21.9"><time>2026-01-01T08:00:00Z</time></trkpt></trkseg></trk></gpx>\r

                """.utf8))
        try run.stdin?.close()
        #expect(try await run.waitForExit(timeout: 10) == 0, "\(run.stderr.text)")
        #expect(run.stdout.lines == ["64.130000 -21.900000"])
    }
}
