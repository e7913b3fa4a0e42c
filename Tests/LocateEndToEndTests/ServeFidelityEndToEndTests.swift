import Foundation
import Testing

/// `locate serve` beside gpsd itself, and with the clients nobody here wrote: for an app allowed
/// always at full accuracy, every answer has gpsd's classes and keys; gps3 (Home Assistant's gpsd
/// client, from PyPI) reads the same fix through serve as from gpsd; and clients that flood and
/// exit leave nothing behind.
struct ServeFidelityEndToEndTests {
    /// What a connection was answered: the class of each line in order (a sentence by its
    /// talker and type, `$GPGGA`), and each class's keys, over every line of it.
    private struct Answer: Equatable, CustomStringConvertible {
        var classes: [String] = []
        var keys: [String: Set<String>] = [:]

        init(_ lines: [String]) {
            for line in lines {
                if line.hasPrefix("$") {
                    classes.append(String(line.prefix(6)))
                    continue
                }
                guard let object = try? jsonObject(line), let name = object["class"] as? String else {
                    classes.append("?" + line.prefix(20))
                    continue
                }
                classes.append(name)
                // What an epoch's GGA quality brings (the survey pole changes it from epoch to epoch),
                // so two answers that stop at different epochs differ there alone: not compared.
                keys[name, default: []].formUnion(object.keys.filter { !(name == "TPV" && Self.perEpochKeys.contains($0)) })
            }
        }

        var description: String { "\(classes) \(keys.mapValues { $0.sorted() })" }

        static let perEpochKeys: Set = ["status", "dgpsSta", "dgpsAge"]
    }

    /// A request, and when its answer is whole: the number of lines of a one-time answer, or
    /// how many of a class a stream must have brought.
    private struct Case: Sendable {
        let request: String
        let lines: Int?
        let stream: (class: String, count: Int)?

        static func once(_ request: String, lines: Int) -> Case { Case(request: request, lines: lines, stream: nil) }
        static func stream(_ request: String, until name: String, _ count: Int = 3) -> Case {
            Case(request: request, lines: nil, stream: (name, count))
        }

        func isWhole(_ lines: [String]) -> Bool {
            if let count = self.lines { return lines.count >= count }
            guard let stream else { return false }
            return lines.filter { $0.hasPrefix(stream.class) || $0.hasPrefix(#"{"class":"\#(stream.class)""#) }.count >= stream.count
        }
    }

    /// On a runner's track, and on a survey pole's (every GGA quality, the dilutions, GST and a
    /// heading: TPV's `status`, `epx`, `epy`, `geoidSep` and gpsd's ATT lines).
    @Test(arguments: ["running", "survey"])
    func everyAnswerHasGpsdsClassesAndKeys(track: String) async throws {
        let gpsd = try await GpsdServer(track: track, cycle: 0.05)
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        // The receiver's path, as gpsd names it.
        let probe = try RawGPSDClient(port: gpsd.port)
        await probe.send("?DEVICES;\n")
        try await probe.read { $0.contains { $0.hasPrefix(#"{"class":"DEVICES""#) } }
        let devices = try jsonObject(try #require(probe.lines.first { $0.hasPrefix(#"{"class":"DEVICES""#) }))
        let device = try #require((devices["devices"] as? [[String: Any]])?.first?["path"] as? String)
        let cases: [Case] = [
            .stream(#"?WATCH={"enable":true,"json":true};"#, until: "TPV"),
            .stream(#"?WATCH={"enable":true,"json":true}"#, until: "TPV"),
            .stream(#"?WATCH={"enable":true,"nmea":true};"#, until: "$GPGGA"),
            .stream(#"?WATCH={"enable":true,"raw":1};"#, until: "$GPGGA"),
            .stream(#"?WATCH={"raw":2}"#, until: "$GPGGA"),
            .stream(#"?WATCH={"enable":true,"json":true,"nmea":true};"#, until: "TPV"),
            .stream(#"?WATCH={"enable":true,"json":true,"scaled":true,"split24":true};"#, until: "TPV"),
            .stream(#"?WATCH={"enable":true,"json":true,"pps":true};"#, until: "TOFF"),
            .stream(#"?WATCH={"enable":true,"json":true,"timing":true};"#, until: "TPV"),
            .stream(#"?WATCH={"enable":true,"json":true,"device":"\#(device)"};"#, until: "TPV"),
            .once(#"?WATCH={"enable":true,"json":true,"device":"/dev/nope"};"#, lines: 2),
            .once("?WATCH;", lines: 3),
            .once("?DEVICES;", lines: 2),
            .once("?DEVICE;", lines: 2),
            .once(#"?DEVICE={"path":"\#(device)"};"#, lines: 2),
            .once("?POLL;", lines: 2),
            .once("?VERSION;", lines: 2),
            .once("?FOO;", lines: 2),
            .once(#"?WATCH={"enable":true,"json":true};?POLL;"#, lines: 4),
        ].filter { item in
            // gpsd sends the survey pole's TOFF only now and then (seven sentences an epoch): the
            // runner's track covers the pps watch.
            track == "running" || !item.request.contains(#""pps":true"#)
        }
        try await withThrowingTaskGroup(of: (String, Answer, Answer).self) { group in
            for item in cases {
                group.addTask {
                    let fromGpsd = try RawGPSDClient(port: gpsd.port)
                    let fromServe = try RawGPSDClient(port: serve.port)
                    // After the banner, as a client sends its request.
                    try await fromGpsd.read { !$0.isEmpty }
                    try await fromServe.read { !$0.isEmpty }
                    await fromGpsd.send(item.request)
                    await fromServe.send(item.request)
                    try await fromGpsd.read(timeout: 30) { item.isWhole($0) }
                    try await fromServe.read(timeout: 30) { item.isWhole($0) }
                    // A one-time answer is its lines alone (a stream may follow a WATCH's).
                    let count = item.lines ?? .max
                    return (item.request, Answer(Array(fromGpsd.lines.prefix(count))), Answer(Array(fromServe.lines.prefix(count))))
                }
            }
            for try await (request, gpsdAnswer, serveAnswer) in group {
                if cases.first(where: { $0.request == request })?.lines != nil {
                    #expect(serveAnswer.classes == gpsdAnswer.classes, "\(request): \(serveAnswer) vs gpsd's \(gpsdAnswer)")
                } else {
                    #expect(Set(serveAnswer.classes) == Set(gpsdAnswer.classes), "\(request): \(serveAnswer) vs gpsd's \(gpsdAnswer)")
                }
                #expect(serveAnswer.keys == gpsdAnswer.keys, "\(request): \(serveAnswer) vs gpsd's \(gpsdAnswer)")
            }
        }
    }

    /// gps3 as Home Assistant's gpsd integration runs it (`AGPS3mechanism`, whose WATCH has no
    /// `;` and no line end): the fix it reads through serve is one gpsd gives it directly, and a
    /// denied app's gets no position at all.
    @Test func gps3ReadsTheFixThroughServeAsFromGpsd() async throws {
        let python = Package.root.appendingPathComponent(".build/python-clients/bin/python3")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "no gps3: run make bootstrap")
        // Two epochs a second, not the tests' five: gps3 sleeps 0.2 s whenever nothing waits and
        // keeps only the first line of each read, so at five a second, in step with it, it saw a
        // TPV first in a read only by chance (10 s here; 0.2-0.4 s at two a second, as at a real
        // receiver's one).
        let gpsd = try await GpsdServer(track: "running", cycle: 0.5)
        let settings = try SettingsHome(user: "[location]\nauthorization = denied\n[app \"python3.11\"]\nauthorization = always\n")
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let script = """
            import json, sys, time
            from gps3.agps3threaded import AGPS3mechanism
            agps = AGPS3mechanism()
            agps.stream_data(host='127.0.0.1', port=int(sys.argv[1]))
            agps.run_thread()
            deadline = time.time() + float(sys.argv[2])
            while time.time() < deadline:
                data = agps.data_stream
                if data.mode in (2, 3) and isinstance(data.lat, float):
                    print(json.dumps({'mode': data.mode, 'lat': data.lat, 'lon': data.lon}))
                    sys.exit(0)
                time.sleep(0.05)
            print(json.dumps({'mode': agps.data_stream.mode, 'lat': agps.data_stream.lat}))
            sys.exit(1)
            """
        let direct = try serve.client(python.path, ["-c", script, String(gpsd.port), "20"])
        let served = try serve.client(python.path, ["-c", script, String(serve.port), "20"])
        #expect(try await direct.waitForExit() == 0, "\(direct.stdout.text) \(direct.stderr.text)")
        #expect(try await served.waitForExit() == 0, "\(served.stdout.text) \(served.stderr.text)")
        let track = try trackPoints("running")
        for run in [direct, served] {
            let fix = try jsonObject(run.stdout.text.trimmingCharacters(in: .whitespacesAndNewlines))
            let lat = try #require(fix["lat"] as? Double)
            let lon = try #require(fix["lon"] as? Double)
            #expect(track.contains { abs($0.latitude - lat) < 1e-6 && abs($0.longitude - lon) < 1e-6 }, "\(fix)")
        }
        try settings.write("[location]\nauthorization = denied\n", to: settings.userFile)
        let denied = try serve.client(python.path, ["-c", script, String(serve.port), "3"])
        #expect(try await denied.waitForExit() == 1)
        #expect(!denied.stdout.text.contains("64."), "\(denied.stdout.text)")
    }

    /// 1,500 clients that send requests they never read the answers of, then exit: serve sees
    /// each go, whether it was reading it or not, and its descriptors and memory come back to
    /// where they were.
    @Test func clientsThatFloodAndExitLeaveNothingBehind() async throws {
        let gpsd = try await GpsdServer(track: "running", cycle: 0.05)
        let settings = try SettingsHome.allowingAlways()
        let path = settings.root.appendingPathComponent("serve.sock").path
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint, arguments: ["--listen", "unix:" + path])
        let flood = Array(String(repeating: "?POLL;?DEVICES;", count: 2000).utf8)
        func wave(_ count: Int, whileConnected check: () async throws -> Void = {}) async throws {
            let clients = try (0..<count).map { _ in try RawGPSDClient(unixPath: path) }
            for client in clients {
                await client.send(Array(#"?WATCH={"enable":true,"json":true};"#.utf8))
                await client.send(flood, timeout: 0.05)
            }
            try await check()
        }
        // One wave first, so that what serve keeps for good (its allocator's arenas) is there;
        // while it is connected, serve's Unix sockets count its clients.
        let unixAtStart = serve.sockets(unixOnly: true)
        try await wave(100) {
            try await waitUntil(
                timeout: 30,
                failing: HarnessError(
                    description: "serve's Unix sockets do not count its clients: \(serve.sockets(unixOnly: true)), from \(unixAtStart)")
            ) { serve.sockets(unixOnly: true) >= unixAtStart + 100 }
        }
        try await waitUntil(timeout: 30, failing: HarnessError(description: "the first wave was not let go")) {
            serve.openDescriptors < 40
        }
        // Its Unix sockets, where the clients are, exactly; its sockets of any kind, give or take
        // its connection to gpsd, which a loaded machine once saw missing at the first count and
        // made again (the settings' watcher may hold an inotify descriptor one moment and not the next).
        let unix = serve.sockets(unixOnly: true)
        let all = serve.sockets()
        let before = serve.descriptorTargets
        let resident = serve.residentKiB
        for _ in 0..<15 { try await wave(100) }
        try await waitUntil(
            timeout: 30,
            failing: HarnessError(
                description:
                    "serve holds \(serve.sockets(unixOnly: true)) Unix sockets, not \(unix), and \(serve.sockets()) in all, not \(all) (+1): "
                    + "\(serve.descriptorTargets) (first \(before))")
        ) { serve.sockets(unixOnly: true) <= unix && serve.sockets() <= all + 1 }
        // What the crowd took is given back once it is gone (within a tick of the last leaving).
        try await waitUntil(
            timeout: 10, failing: HarnessError(description: "serve's memory grew from \(resident) KiB to \(serve.residentKiB) KiB")
        ) { serve.residentKiB - resident < 4 * 1024 }
        // The access log says each session ended once serve has recorded its end (serve's recorder
        // writes the ends of a crowd as it goes, a moment after the descriptors are closed).
        var access = try await runLocate(["access", "--json"], settings: settings)
        let deadline = Date().addingTimeInterval(10)
        while access.stdout.contains(#""receiving":true"#), Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
            access = try await runLocate(["access", "--json"], settings: settings)
        }
        #expect(!access.stdout.contains(#""receiving":true"#), "a gone client listed as receiving: \(access.stdout.prefix(400))")
        #expect(serve.run.process.isRunning)
    }

    /// A POLL right after connecting, as gpsd-py3 and gpsd-client-async ask: for an app the
    /// settings alone decide (always), the fix taken since they last changed, as gpsd gives its
    /// current one; for a when-in-use app, whose process could have been anywhere before it
    /// came, nothing until the next fix.
    @Test func aPollRightAfterConnectingGetsTheCurrentFixWhereTheSettingsAloneDecide() async throws {
        let gpsd = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let serve = try await ServeProcess(settings: settings, gpsd: gpsd.endpoint)
        let watcher = try RawGPSDClient(port: serve.port)
        await watcher.send(#"?WATCH={"enable":true,"json":true};"#)
        try await watcher.read { lines in positionReports(lines).count >= 2 && lines.contains { $0.hasPrefix(#"{"class":"SKY""#) } }
        let poller = try RawGPSDClient(port: serve.port)
        await poller.send(#"?WATCH={"enable":true,"json":true};?POLL;"#)
        try await poller.read { $0.contains { $0.hasPrefix(#"{"class":"POLL""#) } }
        let poll = try jsonObject(try #require(poller.lines.first { $0.hasPrefix(#"{"class":"POLL""#) }))
        let tpv = (poll["tpv"] as? [[String: Any]])?.first
        #expect(tpv?["lat"] is Double && tpv?["mode"] as? Int == 3, "\(poll)")
        #expect((poll["sky"] as? [[String: Any]])?.first?["satellites"] != nil, "\(poll)")
        try settings.write("[location]\nauthorization = when-in-use\n", to: settings.userFile)
        try await watcher.read { $0.contains { $0.contains(#""class":"ERROR""#) } }
        let foreground = settings.root.appendingPathComponent("poll.out")
        let script = """
            import socket, sys
            s = socket.create_connection(('127.0.0.1', \(serve.port)))
            s.sendall(b'?WATCH={"enable":true,"json":true};?POLL;')
            b = b''
            while b'POLL' not in b: b += s.recv(65536)
            sys.stdout.write(b.decode())
            """
        let run = try RunningProcess(
            Package.root.appendingPathComponent("Scripts/with-terminal"),
            ["--stdout", foreground.path, "--", "/usr/bin/python3", "-c", script])
        #expect(try await run.waitForExit() == 0)
        let polled = gpdsPoll(readWholeFile(foreground.path))
        #expect(polled?.contains(#""tpv":[]"#) == true, "\(readWholeFile(foreground.path))")
    }

    private func gpdsPoll(_ text: String) -> String? {
        gpsdLines(text).first { $0.hasPrefix(#"{"class":"POLL""#) }
    }
}
