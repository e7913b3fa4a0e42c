import Foundation
import Testing

/// `locate serve` end to end: a real gpsd (gpsfake) behind it and Debian's own gpsd clients in
/// front (gpspipe, gpxlogger, the Python gps module), each given what its app's permission says.
/// Clients run in sessions of their own (no terminal): daemons, which need `always`.
struct ServeEndToEndTests {
    /// Whether `report` is a point of `track`, to 1e-6 degrees.
    private func isTrackPoint(_ report: [String: Any], _ track: [(latitude: Double, longitude: Double)]) -> Bool {
        guard let lat = report["lat"] as? Double, let lon = report["lon"] as? Double else { return false }
        return track.contains { abs($0.latitude - lat) < 1e-6 && abs($0.longitude - lon) < 1e-6 }
    }

    /// Python for a client connected as `s`: it watches, reads until two positions came (or the
    /// connection ended) and prints what it read; its lines indented by `indent`.
    private static func watchForTwoPositions(indent: String) -> String {
        #"""
        s.sendall(b'?WATCH={"enable":true,"json":true};\n')
        data = b""
        while data.count(b'"lat"') < 2:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        sys.stdout.write(data.decode())
        """#.split(separator: "\n").joined(separator: "\n" + indent)
    }

    @Test func gpspipeGetsTheBannerTheWatchAndTheTracksFixes() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"gpspipe\"]\nauthorization = always\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let pipe = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "9", serve.endpoint])
        #expect(try await pipe.waitForExit() == 0)
        let lines = gpsdLines(pipe.stdout.text)
        // Three greetings, then each epoch's SKY and TPV, as gpsd sends them.
        #expect(lines.count == 9, "\(lines)")
        #expect(lines.first == #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)
        // The receiver is listed once serve has heard of it (a loaded machine may connect gpspipe first).
        #expect(lines.dropFirst().first?.hasPrefix(#"{"class":"DEVICES","devices":["#) == true, "\(lines)")
        #expect(lines.dropFirst(2).first?.hasPrefix(#"{"class":"WATCH","enable":true,"json":true,"nmea":false,"#) == true, "\(lines)")
        let reports = positionReports(lines)
        #expect(reports.count >= 2, "\(lines)")
        let track = try trackPoints("running")
        #expect(reports.allSatisfy { isTrackPoint($0, track) && [2, 3].contains($0["mode"] as? Int) && $0["time"] is String })
        // The SKY reports gpsd made of the track's GSV sentences, one an epoch, as gpsd writes them.
        let skies = try lines.filter { $0.hasPrefix(#"{"class":"SKY""#) }.map(jsonObject)
        #expect(skies.count >= 1 && skies.count + reports.count == 6, "\(lines)")
        let satellites = skies.first?["satellites"] as? [[String: Any]] ?? []
        #expect(satellites.map { $0["PRN"] as? Int ?? 0 } == [2, 5, 12, 15, 18, 24, 25, 29], "\(skies)")
        #expect(satellites.first.map { $0["el"] as? Double == 20 && $0["az"] as? Double == 0 && $0["ss"] as? Double == 30 } == true)
        #expect(satellites.allSatisfy { $0["used"] as? Bool == true } && skies.first?["uSat"] as? Int == 8)
    }

    /// The sky view comes every epoch, as gpsd sends it (a tool that waits for two SKYs gets
    /// them), again after a watch is stopped and started, and POLL's `sky` holds it.
    @Test func aNewWatchAndAPollGetTheSkyView() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let client = try RawGPSDClient(port: serve.port)
        func skies(_ lines: [String]) -> Int { lines.filter { $0.hasPrefix(#"{"class":"SKY""#) }.count }
        await client.send("?WATCH={\"enable\":true,\"json\":true};\n")
        try await client.read { skies($0) >= 2 && positionReports($0).count >= 2 }
        await client.send("?WATCH={\"enable\":false};\n?WATCH={\"enable\":true,\"json\":true};\n")
        try await client.read { lines in
            let again = lines.split { $0.hasPrefix(#"{"class":"WATCH","enable":true"#) }.last ?? []
            return skies(Array(again)) >= 1 && positionReports(Array(again)).count >= 1
        }
        // Without a line end, as `printf '?POLL;' | nc` sends it: gpsd answers a request ended by `;`.
        await client.send("?POLL;")
        try await client.read { $0.contains { $0.hasPrefix(#"{"class":"POLL""#) } }
        let poll = try jsonObject(try #require(client.lines.last { $0.hasPrefix(#"{"class":"POLL""#) }))
        let sky = (poll["sky"] as? [[String: Any]])?.first
        #expect((sky?["satellites"] as? [[String: Any]])?.count == 8 && sky?["device"] is String, "\(poll)")
    }

    @Test func gpspipeRawGetsChecksummedNMEAOfTheTrack() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"gpspipe\"]\nauthorization = always\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let pipe = try serve.client("/usr/bin/gpspipe", ["-r", "-n", "9", serve.endpoint])
        #expect(try await pipe.waitForExit() == 0)
        let sentences = gpsdLines(pipe.stdout.text).filter { $0.hasPrefix("$") }
        #expect(sentences.count == 6, "\(gpsdLines(pipe.stdout.text))")
        for sentence in sentences {
            let body = sentence.dropFirst().prefix { $0 != "*" }
            let checksum = body.utf8.reduce(UInt8(0), ^)
            #expect(sentence.hasSuffix("*" + String(format: "%02X", checksum)), "\(sentence)")
        }
        #expect(Set(sentences.map { $0.prefix(6) }).isSuperset(of: ["$GPGGA", "$GPRMC", "$GPGSA"]))
    }

    /// gpxlogger allowed and gpspipe denied, at the same time, from the same serve.
    @Test func eachAppGetsWhatItsSectionSays() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(
            user: "[app \"gpxlogger\"]\nauthorization = always\n[app \"gpspipe\"]\nauthorization = denied\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let gpx = settings.root.appendingPathComponent("track.gpx")
        let logger = try serve.client("/usr/bin/gpxlogger", ["-f", gpx.path, serve.endpoint])
        let pipe = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "6", serve.endpoint])
        #expect(try await pipe.waitForExit() == 0)
        let denied = gpsdLines(pipe.stdout.text)
        #expect(positionReports(denied).isEmpty, "no position for a denied app: \(denied)")
        #expect(denied.contains { $0.hasPrefix(#"{"class":"ERROR","message":"gpspipe: location permission is denied"#) }, "\(denied)")
        #expect(!denied.joined().contains("\"lat\"") && !denied.joined().contains("SKY"), "no position and no sky view")
        try await waitUntil(timeout: 20, failing: HarnessError(description: "gpxlogger wrote no 5 points")) {
            readWholeFile(gpx.path).components(separatedBy: "<trkpt ").count > 5
        }
        logger.signal(SIGTERM)
        _ = try await logger.waitForExit()
        let document = readWholeFile(gpx.path)
        #expect(document.hasSuffix("</gpx>\n"), "gpxlogger closed its document")
        let track = try trackPoints("running")
        let points = document.components(separatedBy: "<trkpt ").dropFirst().compactMap { point -> [String: Any]? in
            let fields = point.split(separator: "\"")
            guard fields.count > 3, let lat = Double(fields[1]), let lon = Double(fields[3]) else { return nil }
            return ["lat": lat, "lon": lon]
        }
        #expect(points.count >= 5 && points.allSatisfy { isTrackPoint($0, track) }, "\(document)")
        // Who had the location: both sessions, what each was given, and never where.
        try await waitUntil(timeout: 10, failing: HarnessError(description: "no two sessions in the access log")) {
            readWholeFile(settings.root.appendingPathComponent("state/locate/access.jsonl").path).split(separator: "\n").count >= 2
        }
        let access = try await runLocate(["access", "--json"], settings: settings)
        #expect(access.status == 0, "\(access.stderr)")
        let sessions = try access.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        let allowedSession = try #require(sessions.first { $0["app"] as? String == "gpxlogger" })
        let deniedSession = try #require(sessions.first { $0["app"] as? String == "gpspipe" })
        #expect((allowedSession["count"] as? Int ?? 0) >= 5, "\(access.stdout)")
        #expect(allowedSession["accuracy"] as? String == "full" && allowedSession["program"] as? String == "/usr/bin/gpxlogger")
        #expect(deniedSession["count"] as? Int == 0 && deniedSession["denial"] as? String == "denied", "\(access.stdout)")
        let state = settings.allFiles().filter { $0.path.contains("/state/") }.map { String(decoding: $0.content, as: UTF8.self) }.joined()
        #expect(!leaksParkedCoordinate(state, known: [settings.root.path]), "no position in the access log: \(state)")
    }

    @Test func thePythonGPSClientReadsTheServedFixes() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let script = settings.root.appendingPathComponent("client.py")
        try Data(
            """
            import gps
            session = gps.gps(host="127.0.0.1", port="\(serve.port)")
            session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON)
            fixes = 0
            while fixes < 3:
                report = next(session)
                if report["class"] == "TPV" and getattr(report, "lat", None) is not None:
                    print(report.lat, report.lon)
                    fixes += 1

            """.utf8
        ).write(to: script)
        let client = try serve.client("/usr/bin/python3", [script.path])
        #expect(try await client.waitForExit() == 0, "\(client.stderr.text)")
        let track = try trackPoints("running")
        let fixes = gpsdLines(client.stdout.text).map { $0.split(separator: " ").compactMap { Double($0) } }
        #expect(fixes.count == 3 && fixes.allSatisfy { $0.count == 2 && isTrackPoint(["lat": $0[0], "lon": $0[1]], track) })
    }

    /// Reduced accuracy: the grid cell, nothing finer, and one report for five minutes (the
    /// no-fix TPVs between keep gpxlogger and its kind from giving up).
    @Test func reducedAccuracyGetsOneGridCellAndNothingFiner() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"gpspipe\"]\nauthorization = always\naccuracy = reduced\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let pipe = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "6", serve.endpoint])
        #expect(try await pipe.waitForExit() == 0)
        let lines = gpsdLines(pipe.stdout.text)
        let reports = positionReports(lines)
        #expect(reports.count == 1, "\(lines)")
        let track = try trackPoints("running")
        let cell = try #require(reports.first)
        #expect(!isTrackPoint(cell, track), "the cell's centre, not the fix")
        #expect(Set(cell.keys) == ["class", "device", "mode", "time", "lat", "lon"], "\(cell)")
        #expect(lines.suffix(2).allSatisfy { $0.hasSuffix(#""mode":1}"#) }, "\(lines)")
        #expect(!lines.contains { $0.contains("SKY") }, "a sky view places the receiver: none under reduced accuracy")
        // The five minutes are the app's, not the connection's: a reconnect gets no cell, only
        // the no-fix TPV that keeps it alive (after 2 s, while fixes come every second).
        let again = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "4", serve.endpoint])
        #expect(try await again.waitForExit() == 0)
        #expect(positionReports(gpsdLines(again.stdout.text)).isEmpty, "\(again.stdout.text)")
        #expect(gpsdLines(again.stdout.text).last?.hasSuffix(#""mode":1}"#) == true, "\(again.stdout.text)")
    }

    /// When-in-use: a client in the foreground of its terminal gets positions, the same client as
    /// a daemon gets the reason only.
    @Test func whenInUseServesTheForegroundClientOnly() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"gpspipe\"]\nauthorization = when-in-use\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let output = settings.root.appendingPathComponent("foreground.out")
        let foreground = try RunningProcess(
            Package.root.appendingPathComponent("Scripts/with-terminal"),
            ["--stdout", output.path, "--", "/usr/bin/gpspipe", "-w", "-n", "9", serve.endpoint])
        #expect(try await foreground.waitForExit() == 0)
        #expect(positionReports(gpsdLines(readWholeFile(output.path))).count >= 2, "\(readWholeFile(output.path))")
        let daemon = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "5", serve.endpoint])
        #expect(try await daemon.waitForExit() == 0)
        let lines = gpsdLines(daemon.stdout.text)
        #expect(positionReports(lines).isEmpty)
        #expect(
            lines.contains { $0.contains("gpspipe: location is allowed only while in use, and gpspipe is not in the foreground") },
            "\(lines)")
    }

    /// A Unix socket: mode 0600, its peer named by SO_PEERCRED, served like TCP.
    @Test func aUnixSocketServesItsOwnersClients() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let path = settings.root.appendingPathComponent("serve.sock").path
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, arguments: ["--listen", "unix:" + path])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let script = settings.root.appendingPathComponent("client.py")
        try Data(
            """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            \(Self.watchForTwoPositions(indent: ""))

            """.utf8
        ).write(to: script)
        let client = try serve.client("/usr/bin/python3", [script.path, path])
        #expect(try await client.waitForExit() == 0, "\(client.stderr.text)")
        #expect(positionReports(gpsdLines(client.stdout.text)).count >= 2, "\(client.stdout.text)")
        // SIGHUP has nothing to re-read: serve goes on; SIGTERM ends it, and every client.
        serve.run.signal(SIGHUP)
        let again = try serve.client("/usr/bin/python3", [script.path, path])
        #expect(try await again.waitForExit() == 0)
        #expect(positionReports(gpsdLines(again.stdout.text)).count >= 2, "served after SIGHUP: \(serve.run.stderr.text)")
        serve.run.signal(SIGTERM)
        #expect(try await serve.run.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "the socket is removed at the end")
    }

    /// A second serve on the Unix socket of a live one refuses to start (69) and leaves it be;
    /// a socket left by a serve that is gone is taken over; and a serve removes at its end only
    /// the socket it made.
    @Test func aLiveUnixSocketIsNotTakenOver() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let path = settings.root.appendingPathComponent("serve.sock").path
        let first = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, arguments: ["--listen", "unix:" + path])
        let second = try await runLocate(["serve", "--listen", "unix:" + path, gpsd.endpoint], settings: settings)
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stderr.contains("cannot listen on unix:\(path): Address already in use"), "\(second.stderr)")
        // The first is still served at its path.
        let script = settings.root.appendingPathComponent("client.py")
        try Data(
            """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            sys.stdout.write(s.recv(4096).decode())

            """.utf8
        ).write(to: script)
        let client = try first.client("/usr/bin/python3", [script.path, path])
        #expect(try await client.waitForExit() == 0 && client.stdout.text.contains(#""class":"VERSION""#), "\(client.stderr.text)")
        // A third takes the path of one that was killed (its file stays), and removes it at its end.
        first.run.signal(SIGKILL)
        _ = try await first.run.waitForExit()
        let third = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, arguments: ["--listen", "unix:" + path])
        let again = try third.client("/usr/bin/python3", [script.path, path])
        #expect(try await again.waitForExit() == 0 && again.stdout.text.contains(#""class":"VERSION""#), "\(again.stderr.text)")
        third.run.signal(SIGTERM)
        #expect(try await third.run.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// `program = PATH` pins a section to one executable: a section named otherwise applies to
    /// it, and the section of its name does not when pinned elsewhere.
    @Test func aProgramPinDecidesWhichSectionAClientGets() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(
            user: "[location]\nauthorization = denied\n[app \"tracker\"]\nauthorization = always\nprogram = /usr/bin/gpspipe\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let pinned = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "9", serve.endpoint])
        #expect(try await pinned.waitForExit() == 0)
        #expect(positionReports(gpsdLines(pinned.stdout.text)).count >= 2, "\(pinned.stdout.text)")
        try settings.write(
            "[location]\nauthorization = denied\n[app \"gpspipe\"]\nauthorization = always\nprogram = /opt/other/gpspipe\n",
            to: settings.userFile)
        let elsewhere = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "4", serve.endpoint])
        #expect(try await elsewhere.waitForExit() == 0)
        let lines = gpsdLines(elsewhere.stdout.text)
        #expect(positionReports(lines).isEmpty && lines.contains { $0.contains("location permission is denied") }, "\(lines)")
    }

    /// A libgps C program (Scripts/libgps-client.c, compiled here against Debian's libgps)
    /// reads the served fixes as it reads gpsd's.
    @Test func aLibgpsProgramReadsTheServedFixes() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"libgps-client\"]\nauthorization = always\n")
        let binary = settings.root.appendingPathComponent("libgps-client")
        let build = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/cc"),
            ["-o", binary.path, Package.root.appendingPathComponent("Scripts/libgps-client.c").path, "-lgps", "-lm"])
        #expect(try await build.waitForExit() == 0, "\(build.stderr.text)")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let client = try serve.client(binary.path, ["127.0.0.1", String(serve.port), "3"])
        #expect(try await client.waitForExit() == 0)
        let track = try trackPoints("running")
        let lines = gpsdLines(client.stdout.text)
        let fixes = lines.filter { $0.hasPrefix("FIX ") }.map { $0.split(separator: " ").dropFirst().compactMap { Double($0) } }
        #expect(fixes.count == 3 && fixes.allSatisfy { $0.count == 2 && isTrackPoint(["lat": $0[0], "lon": $0[1]], track) }, "\(fixes)")
        // libgps's own parser reads the served sky view: the track's 8 satellites, all used.
        #expect(lines.contains("SKY 8 8"), "\(lines)")
    }

    /// cgps, in the foreground of a terminal of its own (when-in-use is enough), shows the
    /// served position.
    @Test func cgpsOnATerminalShowsTheServedPosition() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"cgps\"]\nauthorization = when-in-use\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let screen = try RunningProcess(
            Package.root.appendingPathComponent("Scripts/with-terminal"),
            ["--", "/usr/bin/timeout", "--foreground", "3", "/usr/bin/cgps", serve.endpoint], environment: ["TERM": "xterm"])
        _ = try await screen.waitForExit()
        let shown = screen.stdout.text
        #expect(shown.contains("Latitude"), "\(shown.suffix(500))")
        let track = try trackPoints("running")
        let degrees = Set(track.map { String(format: "%.8f", $0.latitude) })
        #expect(degrees.contains { shown.contains($0) }, "a latitude of the track is on the screen")
    }

    /// Not determined: nothing but the reason; `locate permission allow` starts the stream of
    /// the client already connected.
    @Test func anAllowStartsAWaitingClientsStreamWithoutAReconnect() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[location]\nservices = on\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let pipe = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "8", serve.endpoint])
        try await pipe.stdout.wait(for: "the reason") { pipe.stdout.text.contains(#""class":"ERROR""#) }
        #expect(
            pipe.stdout.text.contains(
                "gpspipe: location permission has not been given to app \\\"gpspipe\\\"; allow it with: locate permission allow --always --app gpspipe"
            ),
            "\(pipe.stdout.text)")
        #expect(positionReports(gpsdLines(pipe.stdout.text)).isEmpty)
        let allow = try await runLocate(["permission", "allow", "--always", "--app", "gpspipe"], settings: settings)
        #expect(allow.status == 0)
        #expect(try await pipe.waitForExit() == 0)
        #expect(!positionReports(gpsdLines(pipe.stdout.text)).isEmpty, "\(gpsdLines(pipe.stdout.text))")
    }

    /// A revoke while a client is not reading (with the kernel's default buffers, which hold
    /// hundreds of records), then an allow: once it reads again, what was in flight from before
    /// the revoke (4 KiB at most, and the record that began below that), then only fixes taken
    /// after the allow: none of the fixes taken while its app was denied, which serve would have
    /// had queued for it. A witness of the same app that reads all along marks the denial in
    /// receiver time (its last fix before its ERROR, its first after), and a client of another
    /// app, allowed all along, shows that fixes were taken meanwhile.
    @Test func aRevokeHoldsBackWhatASlowClientHadQueued() async throws {
        let gpsd = try await GpsdServer(track: "running", cycle: 0.05, restamp: true)
        let allowed = "[location]\nauthorization = always\n[app \"gpspipe\"]\nauthorization = always\n"
        let settings = try SettingsHome(user: allowed)
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let slow = try RawGPSDClient(port: serve.port)
        await slow.send("?WATCH={\"enable\":true,\"json\":true};\n")
        try await slow.read { $0.contains { $0.hasPrefix(#"{"class":"WATCH""#) } }
        // From here it reads nothing until after the allow.
        let readBeforeStopping = slow.byteCount
        let witness = try RawGPSDClient(port: serve.port)
        await witness.send("?WATCH={\"enable\":true,\"json\":true};\n")
        let observer = try serve.client("/usr/bin/gpspipe", ["-w", serve.endpoint])
        func times(_ lines: some Collection<String>) -> [String] { positionReports(Array(lines)).compactMap { $0["time"] as? String } }
        try await witness.read { times($0).count >= 20 }
        try settings.write("[location]\nauthorization = denied\n[app \"gpspipe\"]\nauthorization = always\n", to: settings.userFile)
        try await witness.read { $0.contains { $0.contains(#""class":"ERROR""#) } }
        // Twenty fixes taken while the app is denied, as the other app's client sees them.
        let deniedSince = try #require(times(witness.lines).last)
        try await observer.stdout.wait(for: "fixes during the denial") {
            times(gpsdLines(observer.stdout.text)).filter { $0 > deniedSince }.count >= 20
        }
        try settings.write(allowed, to: settings.userFile)
        try await witness.read { lines in times(lines.drop { !$0.contains(#""class":"ERROR""#) }).count >= 5 }
        let allowedFrom = try #require(times(witness.lines.drop { !$0.contains(#""class":"ERROR""#) }).first)
        try await slow.read(timeout: 10) { lines in times(lines.drop { !$0.contains(#""class":"ERROR""#) }).count >= 5 }
        let error = try #require(slow.text.range(of: #"{"class":"ERROR""#)).lowerBound.utf16Offset(in: slow.text)
        #expect(error - readBeforeStopping <= 4096 + 2048, "in flight to a client that did not read: \(error - readBeforeStopping) bytes")
        // ISO 8601 with milliseconds, all in UTC: the strings sort as the times do.
        let taken = times(slow.lines)
        #expect(!taken.contains { $0 > deniedSince && $0 < allowedFrom }, "fixes taken while denied reached the slow client: \(taken)")
        #expect(taken.contains { $0 >= allowedFrom } && taken.contains { $0 <= deniedSince })
        #expect(times(gpsdLines(observer.stdout.text)).contains { $0 > deniedSince && $0 < allowedFrom })
    }

    /// gpsd going away and coming back (on the same port): the clients stay connected, with
    /// no-fix TPVs meanwhile, and get fixes again.
    @Test func gpsdGoingAwayAndComingBackIsSurvived() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let client = try RawGPSDClient(port: serve.port)
        await client.send("?WATCH={\"enable\":true,\"json\":true};\n")
        try await client.read { positionReports($0).count >= 2 }
        await gpsd.stop()
        let before = positionReports(client.lines).count
        try await client.read(timeout: 10) { $0.last?.hasSuffix(#""mode":1}"#) == true }
        let again = try await GpsdServer(track: "running", port: gpsd.port)
        #expect(try await client.read(timeout: 30) { positionReports($0).count > before + 1 }, "still connected")
        withExtendedLifetime(again) {}
    }

    @Test func twoHundredClientsAtOnceEachGetFixes() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let clients = try (0..<200).map { _ in try RawGPSDClient(port: serve.port) }
        for client in clients { await client.send("?WATCH={\"enable\":true,\"json\":true}\n") }
        let started = Date()
        // Each reads what it has, as 200 programs at once do (serve writes to none that has not
        // read what it was sent); only those still short of two fixes are counted again (parsing
        // every client's every report each time took a loaded machine's CPU from serve).
        var waiting = clients
        try await waitUntil(
            timeout: 30,
            failing: HarnessError(
                description: "\(waiting.count) clients did not get two fixes; serve said: \(serve.run.stderr.text.suffix(600))")
        ) {
            for client in clients { client.drain() }
            waiting.removeAll { positionReports($0.lines).count >= 2 }
            return waiting.isEmpty
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 20, "200 clients served in \(elapsed) s")
        try await waitUntil(timeout: 10, failing: HarnessError(description: "locate status does not say 200 clients are served")) {
            FileManager.default.fileExists(atPath: settings.root.appendingPathComponent("state/locate").path)
        }
        var served: Int?
        for _ in 0..<20 where served != 200 {
            let status = try await runLocate(["status", "--json", "127.0.0.1:1"], settings: settings)
            served = try jsonObject(status.stdout)["served_clients"] as? Int
            if served != 200 { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(served == 200)
    }

    /// A client that never reads, ones that send a megabyte that is no request, garbage, or a
    /// request gpsd does not know: each gets what gpsd would give (a read that does not start
    /// with a request is ignored whole, an unknown request is an ERROR), serve's memory does not
    /// grow, and a client reading beside them gets its fixes.
    @Test func clientsThatNeverReadOrSendGarbageHoldUpNobody() async throws {
        let gpsd = try await GpsdServer(track: "running", cycle: 0.05)
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let stuck = try RawGPSDClient(port: serve.port, receiveBuffer: 2048)
        await stuck.send("?WATCH={\"enable\":true,\"json\":true,\"nmea\":true};\n")
        let garbage = try RawGPSDClient(port: serve.port)
        await garbage.send("hello\n?WATCH={\"enable\":true,\"json\":true};\n")
        let unknown = try RawGPSDClient(port: serve.port)
        await unknown.send("?FOO;\n")
        try await unknown.read { lines in lines.contains { $0 == #"{"class":"ERROR","message":"Unrecognized request '?FOO;\n'"}"# } }
        await unknown.send("?WATCH={\"enable\":true,\"json\":true};\n")
        try await unknown.read { positionReports($0).count >= 3 }
        garbage.drain()
        #expect(garbage.lines.count == 1 && garbage.lines.first?.hasPrefix(#"{"class":"VERSION""#) == true, "\(garbage.lines)")
        let before = serve.residentKiB
        let huge = try (0..<4).map { _ in try RawGPSDClient(port: serve.port) }
        for client in huge { #expect(await client.send(Array(repeating: UInt8(ascii: "x"), count: 1 << 20), timeout: 10)) }
        let pipe = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "9", serve.endpoint])
        #expect(try await pipe.waitForExit() == 0)
        #expect(positionReports(gpsdLines(pipe.stdout.text)).count == 3)
        let after = serve.residentKiB
        #expect(after - before < 8 * 1024, "serve's memory grew by \(after - before) KiB")
        #expect(huge.allSatisfy { $0.drain() }, "a megabyte that is no request is ignored, as gpsd ignores it")
        #expect(serve.run.process.isRunning)
    }

    /// 100 clients that each send one line of 1,364 `?POLL;` and never read: serve answers
    /// each only while its output is below the limit, so its memory does not grow with them.
    @Test func requestsOfClientsThatNeverReadAreAnsweredOnlyAsTheyRead() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let probe = try RawGPSDClient(port: serve.port)
        await probe.send("?WATCH={\"enable\":true,\"json\":true};\n")
        try await probe.read { positionReports($0).count >= 1 }
        let before = serve.residentKiB
        let line = Array(String(repeating: "?POLL;", count: 1364).utf8) + [UInt8(ascii: "\n")]
        let flood = try (0..<100).map { _ in try RawGPSDClient(port: serve.port) }
        for client in flood { #expect(await client.send(line)) }
        // Each of serve's turns reads 8 KiB of a client: three POLLs answered to the probe are
        // three turns, after every line has been read.
        for round in 1...3 {
            await probe.send("?POLL;\n")
            try await probe.read { $0.filter { $0.hasPrefix(#"{"class":"POLL""#) }.count >= round }
        }
        let after = serve.residentKiB
        #expect(after - before < 16 * 1024, "serve's memory grew by \(after - before) KiB")
        #expect(serve.run.process.isRunning)
        withExtendedLifetime(flood) {}
    }

    /// Another local user's client gets nothing at all, not even the banner, while this
    /// user's client is served.
    @Test func anotherUsersConnectionIsRefused() async throws {
        guard runsAsRoot() else { return }  // setpriv to another user needs root
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let stranger = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/setsid"),
            ["-w", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/gpspipe", "-w", "-n", "4", serve.endpoint])
        _ = try await stranger.waitForExit()
        #expect(stranger.stdout.text.isEmpty, "nobody got: \(stranger.stdout.text)")
        let mine = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "6", serve.endpoint])
        #expect(try await mine.waitForExit() == 0)
        #expect(positionReports(gpsdLines(mine.stdout.text)).count >= 1)
    }

    /// A program that hides its process (`prctl(PR_SET_DUMPABLE, 0)`: its `/proc/PID` becomes
    /// root's, so serve, running as the user, cannot find it holding the socket) does not fall
    /// back to `[location]`: it is refused with an ERROR, and the attempt is in the access log.
    @Test func aClientWhoseProgramCannotBeIdentifiedIsRefused() async throws {
        guard runsAsRoot() else { return }  // serve and its client run as another user
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(
            user: "[location]\nauthorization = always\n[app \"python3.11\"]\nauthorization = denied\n", reachableByOtherUsers: true)
        try settings.giveAway(to: 65534)
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, wrapper: asUser(65534))
        let script = settings.root.appendingPathComponent("hidden.py")
        try Data(
            """
            import ctypes, socket, sys
            ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=15)
            \(Self.watchForTwoPositions(indent: ""))

            """.utf8
        ).write(to: script)
        let client = try serve.client("/usr/bin/python3", [script.path, String(serve.port)], user: 65534)
        #expect(try await client.waitForExit() == 0, "\(client.stderr.text)")
        let lines = gpsdLines(client.stdout.text)
        #expect(positionReports(lines).isEmpty, "\(lines)")
        #expect(lines.contains { $0.contains("refused: its program cannot be identified") }, "\(lines)")
        try await waitUntil(timeout: 10, failing: HarnessError(description: "no attempt in the access log")) {
            readWholeFile(settings.root.appendingPathComponent("state/locate/access.jsonl").path).contains(#""refused":"#)
        }
        #expect(serve.run.stderr.text.contains("refused a connection"), "\(serve.run.stderr.text)")
    }

    /// A program that hands its socket to another (it forks, and its child becomes an allowed
    /// program) does not get that program's grant: processes of different programs holding one
    /// connection are refused, each named.
    @Test func aConnectionHeldByTwoProgramsIsRefused() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[location]\nauthorization = denied\n[app \"sleep\"]\nauthorization = always\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let script = settings.root.appendingPathComponent("handover.py")
        try Data(
            """
            import os, signal, socket, sys, time
            s = socket.socket()
            s.set_inheritable(True)
            child = os.fork()
            if child == 0:
                os.execv("/usr/bin/sleep", ["sleep", "30"])
            try:
                deadline = time.monotonic() + 10
                while os.readlink("/proc/%d/exe" % child) != "/usr/bin/sleep" and time.monotonic() < deadline:
                    time.sleep(0.01)
                s.settimeout(15)
                s.connect(("127.0.0.1", int(sys.argv[1])))
                \(Self.watchForTwoPositions(indent: "    "))
            finally:
                os.kill(child, signal.SIGTERM)

            """.utf8
        ).write(to: script)
        let client = try serve.client("/usr/bin/python3", [script.path, String(serve.port)])
        #expect(try await client.waitForExit() == 0, "\(client.stderr.text)")
        let lines = gpsdLines(client.stdout.text)
        #expect(positionReports(lines).isEmpty, "\(lines)")
        #expect(
            lines.contains { $0.contains("refused: it is held by processes of different programs") && $0.contains("/usr/bin/sleep") },
            "\(lines)")
    }

    /// A flood of connections (150 that get nothing, denied, and leave) does not push the
    /// sessions that had positions out of `locate access`: an empty connection is no session, and
    /// attempts of one app and reason are kept once a minute.
    @Test func aFloodOfConnectionsDoesNotHideWhoHadTheLocation() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[location]\nauthorization = denied\n[app \"gpspipe\"]\nauthorization = always\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let log = settings.root.appendingPathComponent("state/locate/access.jsonl").path
        let first = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "9", serve.endpoint])
        #expect(try await first.waitForExit() == 0)
        var flood = try (0..<150).map { _ in try RawGPSDClient(port: serve.port) }
        // (Each is identified from /proc before its banner: on a machine running the whole suite,
        // that is every test's processes to look through.)
        try await waitUntil(
            timeout: 60,
            failing: HarnessError(
                description: "the flood was not served: \(flood.filter { $0.text.contains(#""class":"VERSION""#) }.count) of 150 greeted")
        ) {
            for client in flood { client.drain() }
            return flood.allSatisfy { $0.text.contains(#""class":"VERSION""#) }
        }
        flood = []
        // The next session is logged after every one of the flood (the log is written in order).
        let second = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "9", serve.endpoint])
        #expect(try await second.waitForExit() == 0)
        try await waitUntil(timeout: 10, failing: HarnessError(description: "the second session is not in the log")) {
            readWholeFile(log).components(separatedBy: #""app":"gpspipe""#).count == 3
        }
        let access = try await runLocate(["access", "--json"], settings: settings)
        let sessions = try access.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        let ended = sessions.filter { $0["receiving"] as? Bool == false && $0["app"] as? String == "gpspipe" }
        #expect(ended.count == 2 && ended.allSatisfy { ($0["count"] as? Int ?? 0) >= 2 }, "\(access.stdout)")
        #expect(readWholeFile(log).split(separator: "\n").count <= 4, "\(readWholeFile(log))")
    }

    /// Out of descriptors (a limit of 48 and 80 clients): serve does not spin on a listener it
    /// cannot take connections from, says so once, and serves again when clients leave.
    @Test func runningOutOfDescriptorsIsWaitedOutNotSpunOn() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, wrapper: ["/usr/bin/prlimit", "--nofile=48:48"])
        var clients = try (0..<80).map { _ in try RawGPSDClient(port: serve.port) }
        try await serve.run.stderr.wait(for: "too many open files") { serve.run.stderr.text.contains("too many open files") }
        // CPU over a second of this (a rate: the second is the measure, not a wait for an event).
        let before = serve.cpuTicks
        let started = ContinuousClock.now
        try await Task.sleep(for: .seconds(1))
        let ticks = serve.cpuTicks - before
        let seconds =
            Double(started.duration(to: .now).components.attoseconds) / 1e18 + Double(started.duration(to: .now).components.seconds)
        #expect(Double(ticks) / 100 / seconds < 0.15, "serve used \(ticks) ticks in \(seconds) s")
        #expect(
            serve.run.stderr.text.components(separatedBy: "too many open files (at most 16 clients)").count == 2, "\(serve.run.stderr.text)"
        )
        #expect(!serve.run.stderr.text.contains("cannot be found"), "\(serve.run.stderr.text)")
        clients = []
        let pipe = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "9", serve.endpoint])
        #expect(try await pipe.waitForExit() == 0)
        #expect(positionReports(gpsdLines(pipe.stdout.text)).count >= 2, "\(pipe.stdout.text)")
        withExtendedLifetime(clients) {}
    }

    /// An access log that cannot be written (its directory is a file for a while): serving goes
    /// on, it is said once, and the sessions ended meanwhile are written once it can be again.
    @Test func sessionsWaitForAnAccessLogThatCannotBeWritten() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"gpspipe\"]\nauthorization = always\n")
        let state = settings.root.appendingPathComponent("state/locate")
        try settings.write("not a directory\n", to: state)
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let pipe = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "9", serve.endpoint])
        #expect(try await pipe.waitForExit() == 0)
        #expect(positionReports(gpsdLines(pipe.stdout.text)).count >= 2)
        try await serve.run.stderr.wait(for: "the failure") { serve.run.stderr.text.contains("the access log cannot be kept") }
        try FileManager.default.removeItem(at: state)
        try await waitUntil(timeout: 10, failing: HarnessError(description: "the session was not written: \(serve.run.stderr.text)")) {
            readWholeFile(state.appendingPathComponent("access.jsonl").path).contains(#""app":"gpspipe""#)
        }
        // Said a moment after the session is written.
        try await serve.run.stderr.wait(for: "the log kept again") { serve.run.stderr.text.contains("the access log is kept again") }
        #expect(serve.run.stderr.text.components(separatedBy: "cannot be kept").count == 2, "\(serve.run.stderr.text)")
    }

    /// GeoClue, Debian's own, on a private system bus, its NMEA source reading `--nmea`: its
    /// where-am-i demo prints the served position, and nothing when the app `geoclue` is denied.
    @Test(arguments: [true, false])
    func geoClueShowsTheServedPositionOnlyWhenAllowed(allowed: Bool) async throws {
        guard runsAsRoot() else { return }  // GeoClue's configuration is bind-mounted in a mount namespace of its own
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome(user: "[app \"geoclue\"]\nauthorization = \(allowed ? "always" : "denied")\n")
        let socket = settings.root.appendingPathComponent("nmea.sock").path
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, arguments: ["--nmea", socket])
        let run = try RunningProcess(
            Package.root.appendingPathComponent("Scripts/with-geoclue"), ["--nmea-socket", socket, "--seconds", "3"])
        #expect(try await run.waitForExit(timeout: 60) == 0, "\(run.stderr.text)")
        let latitudes = gpsdLines(run.stdout.text).filter { $0.hasPrefix("Latitude:") }.compactMap {
            Double($0.dropFirst(9).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "°", with: ""))
        }
        if allowed {
            let track = try trackPoints("running")
            #expect(!latitudes.isEmpty, "\(run.stdout.text)")
            #expect(latitudes.allSatisfy { latitude in track.contains { abs($0.latitude - latitude) < 2e-6 } }, "\(latitudes)")
        } else {
            #expect(latitudes.isEmpty, "\(run.stdout.text)")
            #expect(!run.stdout.text.contains("Longitude"))
        }
        #expect(serve.run.process.isRunning)
    }

    @Test(arguments: ["0.0.0.0:2948", "192.168.1.1:2948", "example.com:2948", "unix:relative.sock", "127.0.0.1"])
    func aListenAddressBeyondThisMachineIsAUsageError(address: String) async throws {
        let run = try await runLocate(["serve", "--listen", address])
        #expect(run.status == 64)
        #expect(run.stderr.contains("'--listen \(address)'"), "\(run.stderr)")
        #expect(run.stderr.contains("Usage: locate serve [--listen"), "serve's usage: \(run.stderr)")
    }

    @Test func aUnixSocketPathTooLongForASocketIsAUsageError() async throws {
        let path = "/tmp/" + String(repeating: "s", count: 110)
        for arguments in [["--listen", "unix:" + path], ["--nmea", path]] {
            let run = try await runLocate(["serve"] + arguments)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains("a Unix socket's path is at most 107 bytes, not 115"), "\(run.stderr)")
        }
    }

    /// A socket in a directory another user could write, or owns (who could move serve's socket
    /// aside and put one of theirs in its place, for the victim's clients to read), is refused
    /// as every path serve trusts: 78, naming the directory, and nothing listens.
    @Test(arguments: ["--listen", "--nmea"])
    func aSocketInADirectoryOthersCanWriteIsRefused(flag: String) async throws {
        let settings = try SettingsHome.allowingAlways()
        let shared = settings.root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        #expect(chmod(shared.path, 0o777) == 0)
        let path = shared.appendingPathComponent("serve.sock").path
        let run = try await runLocate(["serve", flag, flag == "--listen" ? "unix:" + path : path, "127.0.0.1:1"], settings: settings)
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains("\(shared.path) is writable by others"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
        // The sticky /tmp itself: anyone may put a file of theirs beside serve's.
        let inTmp = try await runLocate([
            "serve", flag, (flag == "--listen" ? "unix:" : "") + "/tmp/locate-\(getpid()).sock", "127.0.0.1:1",
        ])
        #expect(inTmp.status == 78 && inTmp.stderr.contains("/tmp is writable by others"), "\(inTmp.stderr)")
        guard runsAsRoot() else { return }  // a directory of another user's needs root to make
        #expect(chmod(shared.path, 0o755) == 0 && chown(shared.path, 65534, 65534) == 0)
        let theirs = try await runLocate(["serve", flag, flag == "--listen" ? "unix:" + path : path, "127.0.0.1:1"], settings: settings)
        #expect(theirs.status == 78 && theirs.stderr.contains("is owned by another user (uid 65534)"), "\(theirs.stderr)")
    }

    /// Another user's connections are refused without a line each: the first is said, then a
    /// count once a minute (2,000 connections, a line or two).
    @Test func anotherUsersFloodIsSaidOnceAMinuteWithACount() async throws {
        guard runsAsRoot() else { return }  // setpriv to another user needs root
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let flood = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                "import socket\nfor _ in range(2000):\n    s = socket.create_connection(('127.0.0.1', \(serve.port)))\n    s.recv(1)\n    s.close()",
            ])
        #expect(try await flood.waitForExit(timeout: 60) == 0, "\(flood.stderr.text)")
        let mine = try serve.client("/usr/bin/gpspipe", ["-w", "-n", "6", serve.endpoint])
        #expect(try await mine.waitForExit() == 0)
        #expect(positionReports(gpsdLines(mine.stdout.text)).count >= 1)
        let refusals = serve.run.stderr.text.split(separator: "\n").filter { $0.contains("refused") }
        #expect(
            refusals.count == 1 && refusals.first?.contains("of user 65534 (more like it are counted, and said once a minute)") == true,
            "\(refusals)")
    }

    /// Answers more than a socket takes at once (300 `?DEVICES;` in one write), to a client that
    /// reads all along, over a Unix socket and over TCP with a small receive buffer: every answer
    /// comes, written as there is room, without serve spinning meanwhile.
    @Test func aBurstOfAnswersLargerThanTheSocketAllComes() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let path = settings.root.appendingPathComponent("serve.sock").path
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, arguments: ["--listen", "unix:" + path])
        for client in [try RawGPSDClient(unixPath: path), try RawGPSDClient(port: serve.port, receiveBuffer: 1024)] {
            try await client.read { !$0.isEmpty }
            let before = serve.cpuTicks
            await client.send(String(repeating: "?DEVICES;", count: 300))
            try await client.read(timeout: 30) { $0.filter { $0.hasPrefix(#"{"class":"DEVICES""#) }.count >= 300 }
            #expect(serve.cpuTicks - before < 100, "serve spun: \(serve.cpuTicks - before) ticks")
        }
    }

    /// What decides a client may change without its app's decision changing: a section pinned
    /// to its program (its app is another from then on), or a directory of the settings made
    /// writable by others (they can no longer be trusted: nothing is delivered). A client that
    /// is connected then stops getting positions at once, and gets them again once the settings
    /// say so.
    @Test func aPinOrAnUntrustedDirectoryStopsAConnectedClient() async throws {
        let gpsd = try await GpsdServer(track: "running", cycle: 0.05)
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let client = try RawGPSDClient(port: serve.port)
        await client.send(#"?WATCH={"enable":true,"json":true};"#)
        try await client.read { positionReports($0).count >= 3 }
        // This test's own executable, pinned to a section that is denied.
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        try settings.write(
            "[location]\nauthorization = always\n[app \"pinned\"]\nprogram = \(program)\nauthorization = denied\n", to: settings.userFile)
        try await client.read { $0.contains { $0.contains("pinned: location permission is denied") } }
        let pinnedAt = client.lines.count
        try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        try await client.read { positionReports(Array($0.dropFirst(pinnedAt))).count >= 3 }
        #expect(
            positionReports(Array(client.lines[pinnedAt...].prefix { !$0.contains(#""class":"TPV","device""#) })).isEmpty,
            "nothing between the ERROR and the unpinning")
        // The settings' own directory, made writable by others.
        let config = settings.root.appendingPathComponent("config").path
        client.drain()
        let trustedUntil = client.lines.count
        #expect(chmod(config, 0o777) == 0)
        try await client.read { $0.dropFirst(trustedUntil).contains { $0.contains("settings_invalid") } }
        let untrustedAt = client.lines.count
        client.drain()
        let during = client.lines.count
        #expect(chmod(config, 0o700) == 0)
        try await client.read { positionReports(Array($0.dropFirst(during))).count >= 3 }
        #expect(positionReports(Array(client.lines[untrustedAt..<during])).isEmpty, "\(client.lines[untrustedAt..<during])")
    }
}
