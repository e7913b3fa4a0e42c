import Foundation
import HostileInput
import Testing

/// `locate geocode --batch` end to end: a record per input line, in order, whatever the lines
/// hold; the same place as every other way of asking; a pipe that closes early.
struct BatchEndToEndTests {
    /// Runs the batch on `input` (written to a file, read as stdin).
    private func batch(
        _ input: [UInt8], _ arguments: [String] = [], settings: SettingsHome
    ) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let file = settings.root.appendingPathComponent("input-\(UUID().uuidString)")
        try Data(input).write(to: file)
        return try await runShell(
            "'\(Package.locate.path)' geocode --batch --lang C \(arguments.joined(separator: " ")) < '\(file.path)'", settings: settings)
    }

    /// The number of records a batch writes for `input`: one per line, the last one counted
    /// even without its line end.
    private func lineCount(_ input: [UInt8]) -> Int {
        input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count - (input.last == UInt8(ascii: "\n") ? 1 : 0)
    }

    @Test func mixedGoodAndBadLinesKeepTheirOrderAndCount() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        let long = String(repeating: "9", count: 70_000)
        let lines = [
            "37.517829 126.886270", "64.1417,-21.9266", "not a point", "", "91 0", "1.2840 , 103.8514\r",
            #"{"type":"fix","lat":50.4501,"lon":30.5234,"city":"stale","source":"gpsd"}"#,
            #"{"type":"status","event":"no_fix","message":"no fix yet"}"#, "65\t105", long, "-48.88 -123.39",
            #"{"lat":"1","lon":2}"#, "0x10 5", "1 2 3",
        ]
        let input = Array((lines.joined(separator: "\n") + "\n").utf8) + [0xFF, 0xFE] + Array("\n9 8".utf8)
        let json = try await batch(input, ["--json"], settings: settings)
        #expect(json.status == 65, "lines that are not points: EX_DATAERR at the end")
        let records = try json.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { try jsonObject(String($0)) }
        #expect(records.count == lineCount(input), "\(json.stdout)")
        #expect(records[0]["city"] as? String == "Seoul" && records[0]["lat"] as? Double == 37.517829)
        #expect(records[1]["city"] as? String == "Reykjavik")
        for (index, line) in [(2, 3), (3, 4), (4, 5), (9, 10), (11, 12), (12, 13), (13, 14), (14, 15)] {
            #expect(records[index]["line"] as? Int == line && records[index]["error"] is String, "\(records[index])")
        }
        #expect(records[5]["country_code"] as? String == "SG", "spaces around the comma and a CRLF line end")
        #expect(
            records[6]["city"] as? String == "Kyiv" && records[6]["source"] as? String == "gpsd"
                && records[6]["timezone"] as? String == "Europe/Kyiv",
            "a record passes through with its place fields replaced")
        #expect(records[7]["event"] as? String == "no_fix" && records[7]["city"] == nil, "status events pass through as they are")
        #expect(records[8]["city"] is NSNull && records[8]["country_code"] as? String == "RU", "far from any city")
        #expect(records[10]["country"] is NSNull && records[10]["distance_m"] is NSNull, "the open ocean")
        #expect(records[15]["country_code"] as? String == "NG", "the last line, without its line end")
        #expect(json.stderr.contains("8 of 16 lines were not points (the first: line 3:"), "\(json.stderr)")

        let text = try await batch(input, settings: settings)
        #expect(text.status == 65)
        let textLines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(textLines.count == lineCount(input))
        #expect(textLines[0] == "Seoul, Republic of Korea" && textLines[2].isEmpty && textLines[8] == "Krasnoyarskiy, Russia")
        #expect(text.stderr.contains("locate: line 3: ") && text.stderr.contains("locate: line 10: longer than 65536 bytes"))

        let csv = try await batch(input, ["--csv"], settings: settings)
        let rows = csv.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.first == "lat,lon,city,state,country,country_code,timezone,distance_m,error")
        #expect(rows.count == lineCount(input) + 1)
        #expect(rows[1].hasPrefix("37.5178290,126.8862700,Seoul,Seoul,Republic of Korea,KR,Asia/Seoul,"))
        #expect(rows[3].hasPrefix(",,,,,,,,\"line 3: "), "the error column, quoted for its comma")
        #expect(
            try await batch(input, ["--csv", "--no-header"], settings: settings).stdout.split(separator: "\n").count == lineCount(input))
    }

    /// One rule everywhere: `locate geocode LAT LON`, the batch, and the place fields of a
    /// record name the same place.
    @Test func theBatchNamesWhatEveryOtherWayNames() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        let points = [
            ("37.517829", "126.886270"), ("48.8584", "2.2945"), ("1.2840", "103.8514"), ("41.9022", "12.4568"), ("65", "105"),
            ("-25", "133"), ("34.0083", "-118.4988"), ("-16.80", "-179.98"), ("31.7202", "-106.4608"),
        ]
        let input = Array(points.map { "\($0.0) \($0.1)" }.joined(separator: "\n").utf8)
        let records = try await batch(input, ["--json"], settings: settings).stdout.split(separator: "\n").map {
            try jsonObject(String($0))
        }
        #expect(records.count == points.count)
        for (record, point) in zip(records, points) {
            let single = try jsonObject(
                try await runLocate(["geocode", "--json", "--lang", "C", "--", point.0, point.1], settings: settings).stdout
                    .trimmingCharacters(in: .newlines))
            for key in ["city", "state", "country", "country_code", "timezone", "distance_m"] {
                #expect("\(record[key] ?? "absent")" == "\(single[key] ?? "absent")", "\(point) \(key)")
            }
        }
        let receiver = try await GpsdServer(track: "weather")
        let fix = try await runLocate(["--json", "--geocode", "--lang", "C", receiver.endpoint], settings: settings).stdout
        let annotated = try jsonObject(
            try await batch(Array(fix.utf8), ["--json"], settings: settings).stdout.trimmingCharacters(in: .newlines))
        let original = try jsonObject(fix.trimmingCharacters(in: .newlines))
        for key in ["city", "state", "country", "country_code", "timezone", "lat", "lon", "time", "source"] {
            #expect("\(annotated[key] ?? "absent")" == "\(original[key] ?? "absent")", "\(key)")
        }
    }

    @Test func aStreamOfRecordsIsAnnotatedAsItComes() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        let receiver = try await GpsdServer(track: "running")
        let run = try await runShell(
            "'\(Package.locate.path)' --follow --json --count 3 \(receiver.endpoint) | '\(Package.locate.path)' geocode --batch --json --lang C",
            settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0["type"] as? String == "fix" && $0["country_code"] is String && $0["mode"] is String })
    }

    @Test func aReaderThatStopsEarlyIsANormalEnd() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        let input = Array(String(repeating: "37.5 126.9\n", count: 50_000).utf8)
        let file = settings.root.appendingPathComponent("many")
        try Data(input).write(to: file)
        let run = try await runShell(
            "'\(Package.locate.path)' geocode --batch < '\(file.path)' | head -2; echo \"status ${PIPESTATUS[0]}\"", settings: settings)
        #expect(run.stdout.hasSuffix("status 0\n"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 3)
        #expect(run.stderr.isEmpty)
    }

    /// What a JSON line brings in (a bidirectional override in a name, a line separator in a
    /// nested value, a status event's message) comes back escaped as every output escapes
    /// outside text: `\u202e`, never the raw character that reorders a terminal.
    @Test func passedThroughTextIsEscapedAsEveryOutputEscapesIt() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        let input =
            "{\"lat\":64.15,\"lon\":-21.94,\"name\":\"a\u{202E}b\",\"x\":{\"y\":\"\u{2028}\u{9B}\"}}\n{\"type\":\"status\",\"message\":\"\u{202E}\"}\n"
        let run = try await batch(Array(input.utf8), ["--json"], settings: settings)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.unicodeScalars.contains { UntrustedScalars.isHidden($0) }, "\(run.stdout.debugDescription)")
        #expect(
            run.stdout.contains(#""name":"a\u202eb""#) && run.stdout.contains(#""y":"\u2028\u009b""#)
                && run.stdout.contains(#""message":"\u202e""#))
        let record = try jsonObject(String(run.stdout.split(separator: "\n")[0]))
        #expect(record["name"] as? String == "a\u{202E}b", "the text itself is kept, escaped")
    }

    /// Every class of hidden scalar (zero-width and tag characters, joiners, fillers, controls,
    /// separators) in every kind of line: a pair that is not a point, a JSON record passed
    /// through with its place added, a status event passed through, an object without a
    /// coordinate. No format writes one raw, on stdout or stderr; JSON parses and gives the
    /// text back as it was; errors show it as `\u{200B}`-style text.
    @Test func hiddenScalarsInTheInputNeverComeOutRaw() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        var input = ""
        for sample in UntrustedScalars.samples {
            // JSON takes any of them raw inside a string but the controls, which it takes escaped.
            let inJSON = sample.text.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
            input += "37.5\(sample.text) 126.9\n"
            input += "{\"lat\":64.15,\"lon\":-21.94,\"name\":\"a\(inJSON)b\",\"x\":{\"y\":[\"\(inJSON)\"]}}\n"
            input += "{\"type\":\"status\",\"event\":\"no_fix\",\"message\":\"m\(inJSON)\"}\n"
            input += "{\"lat\":\"\(inJSON)\",\"lon\":1}\n"
            input += "\(sample.text)\n"
        }
        let lines = UntrustedScalars.samples.count * 5
        for format in [["--json"], ["--csv"], []] {
            let run = try await batch(Array(input.utf8), format, settings: settings)
            #expect(run.status == 65, "\(format): \(run.stderr)")
            #expect(UntrustedScalars.hidden(in: run.stdout).isEmpty, "\(format): \(UntrustedScalars.hidden(in: run.stdout))")
            #expect(UntrustedScalars.hidden(in: run.stderr).isEmpty, "\(format): \(UntrustedScalars.hidden(in: run.stderr))")
            let output = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(output.count == lines + (format == ["--csv"] ? 1 : 0), "\(format): \(run.stdout)")
            // Text says it on stderr, CSV in its error column (JSON below, once decoded).
            let shownLines = format == [] ? run.stderr : run.stdout
            for sample in UntrustedScalars.samples where format != ["--json"] {
                #expect(shownLines.contains("not a coordinate: '37.5\(sample.shown)'"), "\(format) \(sample.name): \(shownLines)")
            }
            guard format == ["--json"] else { continue }
            let records = try output.map { try jsonObject(String($0)) }
            #expect(try await runJQ(".", input: run.stdout, settings: settings).status == 0, "jq reads every line")
            let names = try await runJQ(#"select(.name) | .name, .x.y[0]"#, input: run.stdout, settings: settings)
            let messages = try await runJQ(#"select(.type == "status") | .message"#, input: run.stdout, settings: settings)
            #expect(names.status == 0 && messages.status == 0, "\(names.stderr) \(messages.stderr)")
            #expect(
                names.stdout == UntrustedScalars.samples.map { "a\($0.text)b\n\($0.text)\n" }.joined(),
                "jq reads the text back as it was: \(names.stdout.debugDescription)")
            #expect(messages.stdout == UntrustedScalars.samples.map { "m\($0.text)\n" }.joined(), "\(messages.stdout.debugDescription)")
            for (index, sample) in UntrustedScalars.samples.enumerated() {
                let record = records[index * 5 + 1]
                #expect(record["name"] as? String == "a\(sample.text)b" && record["country_code"] as? String == "IS", "\(sample.name)")
                #expect((records[index * 5]["error"] as? String)?.contains("'37.5\(sample.shown)'") == true, "\(sample.name)")
                #expect(records[index * 5 + 4]["error"] is String && records[index * 5 + 3]["error"] is String, "\(sample.name)")
            }
        }
        // A place name to look up is checked as a batch line is.
        for sample in UntrustedScalars.samples {
            let run = try await runLocate(["geocode", "--json", "Reykja\(sample.text)vik"], settings: settings)
            #expect(run.status == 64 && run.stdout.isEmpty, "\(sample.name): \(run.status)")
            #expect(UntrustedScalars.hidden(in: run.stderr).isEmpty && run.stderr.contains("Reykja\(sample.shown)vik"), "\(run.stderr)")
        }
    }

    /// Hostile input never stops the batch or breaks a record: every line gets exactly one,
    /// whatever bytes it holds.
    @Test func hostileLinesEachGetOneRecord() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        var mutator = Mutator(seed: 65)
        let seeds = ["37.5 126.9", "64.1,-21.9", #"{"lat":1.5,"lon":2.5,"nested":{"a":[1,2,{"b":null}]}}"#, #"{"type":"status"}"#]
        let input = mutator.corpus(from: seeds, count: 60).reduce(into: [UInt8]()) { all, line in
            all += line.filter { $0 != UInt8(ascii: "\n") } + [UInt8(ascii: "\n")]
        }
        let run = try await batch(input, ["--json"], settings: settings)
        #expect(run.status == 0 || run.status == 65)
        let records = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(records.count == lineCount(input))
        for record in records {
            #expect((try? jsonObject(String(record))) != nil, "\(record)")
        }
    }
}
