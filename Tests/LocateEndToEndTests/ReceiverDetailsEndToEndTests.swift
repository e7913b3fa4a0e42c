import Foundation
import Testing

/// Everything the receiver knows, as gpsd reports it: the fix type of each GGA quality, the
/// dilutions, the error estimates, the heading, the magnetic variation and the geoid separation
/// in every record, key by key beside gpsd's own reports; `--min-fix` waiting for RTK; the
/// integrity of each fix; and none of it under reduced accuracy.
struct ReceiverDetailsEndToEndTests {
    /// gpsd's TPV `status` as a record's `fix` (a TPV without one is a plain fix).
    private static let fixNames = [
        2: "dgps", 3: "rtk_fixed", 4: "rtk_float", 5: "dr", 6: "gnss_dr", 7: "surveyed", 8: "simulated", 9: "pps",
    ]

    @Test func everyKeyIsWhatGpsdReports() async throws {
        let gpsd = try await GpsdServer(track: "survey", cycle: 0.1)
        // gpspipe watching from before locate to after it: it ends by itself after enough lines,
        // so that its output is all written.
        let watcher = try RunningProcess(URL(fileURLWithPath: "/usr/bin/gpspipe"), ["-w", "-n", "250", gpsd.endpoint])
        try await watcher.stdout.wait(for: "gpspipe's first TPV") { watcher.stdout.text.contains(#""class":"TPV""#) }
        let run = try await runLocate(["--follow", "--json", "--count", "30", gpsd.endpoint], timeout: 60)
        _ = try await watcher.waitForExit(timeout: 90)
        #expect(run.status == 0, "\(run.stderr)")
        // gpsd's reports in the order it sent them; its ATT lines are not JSON (gpsd 3.22 writes
        // them with a comma doubled and one missing), so their heading is read as text.
        var reports: [(tpv: [String: Any], sky: [String: Any]?, heading: Double?)] = []
        var sky: [String: Any]?
        var heading: Double?
        // gpspipe ends its lines in CR LF, one Character to Swift.
        for line in watcher.stdout.text.split(whereSeparator: \.isNewline).map(String.init) {
            if line.hasPrefix(#"{"class":"ATT""#), let match = line.firstMatch(of: /"heading":([0-9.]+)/) {
                heading = Double(match.1)
            } else if let report = try? jsonObject(line) {
                if report["class"] as? String == "SKY" { sky = report }
                if report["class"] as? String == "TPV", report["time"] != nil { reports.append((report, sky, heading)) }
            }
        }
        // The first is the POLL's. Until locate has seen its first SKY and ATT (which gpsd sends
        // after an epoch's TPV), its records rightly lack what gpspipe, connected earlier, had.
        let records = try run.stdout.split(separator: "\n").map { try jsonObject(String($0)) }.dropFirst()
            .drop { !($0["heading"] is Double && $0["hdop"] is Double) }
        #expect(records.count >= 25)
        #expect(reports.count >= 30, "gpsd's TPVs: \(reports.count): \(watcher.stdout.text.prefix(3000))")
        var fixTypes = Set<String>()
        var previousTime: String?
        for record in records {
            let time = try #require(record["time"] as? String)
            // gpsfake plays the track in a loop: where it starts again, time steps back (a join).
            let isJoin = previousTime.map { time < $0 } ?? false
            previousTime = time
            let candidates = reports.filter { $0.tpv["time"] as? String == time }
            let matching = candidates.contains { report in
                func same(_ key: String, _ value: Any?, within tolerance: Double) -> Bool {
                    switch (record[key], value) {
                    case (is NSNull, nil), (nil, nil): return true
                    case (let mine as Double, let theirs as Double): return abs(mine - theirs) <= tolerance
                    default: return false
                    }
                }
                let status = report.tpv["status"] as? Int
                return record["fix"] as? String == (status.flatMap { Self.fixNames[$0] } ?? "gps")
                    && same("x_acc", report.tpv["epx"], within: 0.05) && same("y_acc", report.tpv["epy"], within: 0.05)
                    && same("time_acc", report.tpv["ept"], within: 0.0005) && same("mag_var", report.tpv["magvar"], within: 0.05)
                    && same("geoid_sep", report.tpv["geoidSep"], within: 0.05) && same("h_acc", report.tpv["eph"], within: 0.05)
                    && same("hdop", report.sky?["hdop"], within: 0.005) && same("vdop", report.sky?["vdop"], within: 0.005)
                    && same("pdop", report.sky?["pdop"], within: 0.005) && same("tdop", report.sky?["tdop"], within: 0.005)
                    && same("gdop", report.sky?["gdop"], within: 0.005) && same("heading", report.heading, within: 0.05)
            }
            #expect(matching, "\(record) against gpsd's \(candidates.map(\.tpv))")
            if let fix = record["fix"] as? String { fixTypes.insert(fix) }
            #expect(record["integrity"] as? String == (isJoin ? "suspect" : "ok"), "\(record)")
        }
        #expect(fixTypes.count >= 3, "several GGA qualities came through: \(fixTypes)")
    }

    @Test func minFixWaitsForRTKAndOtherwiseTimesOutWithTheBestSeen() async throws {
        let survey = try await GpsdServer(track: "survey", cycle: 0.1)
        let fixed = try await runLocate(["--once", "--json", "--min-fix", "rtk_fixed", survey.endpoint], timeout: 60)
        let fixedType = try jsonObject(fixed.stdout)["fix"] as? String
        #expect(fixed.status == 0 && fixedType == "rtk_fixed", "\(fixed.stdout) \(fixed.stderr)")
        let stream = try await runLocate(["--follow", "--json", "--min-fix", "dgps", "--count", "8", survey.endpoint], timeout: 60)
        let types = try stream.stdout.split(separator: "\n").map { try jsonObject(String($0))["fix"] as? String }
        #expect(stream.status == 0 && types.count == 8 && types.allSatisfy { ["dgps", "rtk_float", "rtk_fixed"].contains($0) }, "\(types)")
        let plain = try await GpsdServer(track: "weather")
        let never = try await runLocate(["--once", "--json", "--min-fix", "dgps", "--timeout", "2", plain.endpoint])
        let best = try jsonObject(never.stdout)
        #expect(
            never.status == 75 && best["timed_out"] as? Bool == true && best["fix"] as? String == "gps", "\(never.stdout) \(never.stderr)")
        let typo = try await runLocate(["--once", "--min-fix", "rtk", plain.endpoint])
        #expect(typo.status == 64 && typo.stderr.contains("rtk_float"), "\(typo.stderr)")
    }

    /// A dilution or an RTK status tells where a receiver is about as well as a position does:
    /// under reduced accuracy every one of them is null, and `--min-fix` waits for nothing.
    @Test func reducedAccuracyRevealsNoneOfIt() async throws {
        let survey = try await GpsdServer(track: "survey", cycle: 0.1)
        let settings = try SettingsHome(user: "[location]\nauthorization = always\naccuracy = reduced\n")
        let run = try await runLocate(
            ["--once", "--json", "--min-fix", "rtk_fixed", "--timeout", "20", survey.endpoint], settings: settings)
        let record = try jsonObject(run.stdout)
        #expect(run.status == 0 && record["accuracy"] as? String == "reduced", "\(run.stdout) \(run.stderr)")
        for key in [
            "fix", "hdop", "vdop", "pdop", "tdop", "gdop", "x_acc", "y_acc", "time_acc", "heading", "mag_var", "geoid_sep", "integrity",
        ] {
            #expect(record[key] is NSNull, "\(key) under reduced accuracy: \(record[key] ?? "missing")")
        }
        let text = try await runLocate(
            ["--once", "--format", "[%fix][%hdop][%heading][%geoid_sep][%integrity]", survey.endpoint], settings: settings)
        #expect(text.stdout == "[][][][][]\n", "\(text.stdout)")
        let cached = readWholeFile(settings.root.appendingPathComponent("cache/locate/last-fix.json").path)
        #expect(!cached.contains(#""fix":"rtk"#) && !cached.contains(#""fix":"gps""#) && !cached.contains("65.0"), "\(cached)")
    }

    /// A crafted drive: a fix 80 km off and back (two jumps), a speed the positions deny, and a
    /// second session joined an hour earlier; `--reject-suspect` leaves exactly those out.
    @Test func suspectFixesAreFlaggedAndCanBeLeftOut() async throws {
        let track = Package.track("glitch").path
        let all = try await runLocate(["--follow", "--json", "--replay", track, "--replay-speed", "0"])
        let records = try all.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        let suspect = records.filter { $0["integrity"] as? String == "suspect" }.map {
            "\($0["time"] ?? "") \($0["integrity_reason"] ?? "")"
        }
        #expect(
            suspect == [
                "2026-01-01T09:00:20.000Z jump", "2026-01-01T09:00:21.000Z jump", "2026-01-01T09:00:40.000Z speed",
                "2026-01-01T08:00:00.000Z time_backwards",
            ], "\(suspect)")
        #expect(records.count == 80 && records.allSatisfy { $0["integrity"] as? String != nil })
        let kept = try await runLocate(["--follow", "--csv", "--no-header", "--reject-suspect", "--replay", track, "--replay-speed", "0"])
        #expect(kept.status == 0 && kept.stdout.split(separator: "\n").count == 76 && !kept.stdout.contains("suspect"), "\(kept.stdout)")
        let template = try await runLocate(["--once", "--format", "%integrity %fix", "--replay", track])
        #expect(template.stdout == "ok gps\n", "\(template.stdout)")
    }

    /// `locate status` says how far this machine's clock is from the receiver's: the bundled
    /// tracks are of 2026-01-01, so it is far, and said.
    @Test func statusShowsTheClockOffset() async throws {
        let survey = try await GpsdServer(track: "survey", cycle: 0.1)
        let status = try await runLocate(["status", "--json", survey.endpoint])
        let facts = try jsonObject(status.stdout)
        let offset = try #require(facts["clock_offset"] as? Double, "\(status.stdout)")
        let expected = Date().timeIntervalSince(ISO8601DateFormatter().date(from: "2026-01-01T08:00:00Z") ?? Date())
        #expect(abs(offset - expected) < 120, "\(offset) against \(expected)")
        #expect(["2d", "3d"].contains(facts["mode"] as? String) && facts["fix"] is String, "\(facts)")
        #expect(status.status == 0 && status.stderr.contains("clock is"), "\(status.stderr)")
    }
}
