import Foundation
import Testing

/// `locate record` and `locate history`: what is kept is what was handed out, queries agree with
/// an independent computation over the same fixes, the formats are read by their own readers
/// (gpsbabel, JSONSerialization), and the reader's permission decides what it gets.
struct HistoryEndToEndTests {
    private let utc = ["TZ": "UTC"]

    /// A settings home whose history holds the commute track, recorded by `record`; and the
    /// fixes `--follow --json` hands out of the same track, the independent copy.
    private func recorded(_ settings: SettingsHome) async throws -> [[String: Any]] {
        let replay = ["--replay", Package.track("commute").path, "--replay-speed", "0"]
        let record = try await runLocate(["record"] + replay, settings: settings, environment: utc)
        #expect(record.status == 0 && record.stdout.isEmpty, "\(record.status): \(record.stderr)")
        let follow = try await runLocate(["--follow", "--json"] + replay, settings: settings, environment: utc)
        let fixes = try follow.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(record.stderr.contains("\(fixes.count) positions kept in the history"), "\(record.stderr)")
        return fixes
    }

    private func coordinate(_ record: [String: Any]) -> (latitude: Double, longitude: Double) {
        (record["lat"] as? Double ?? .nan, record["lon"] as? Double ?? .nan)
    }

    /// Great-circle metres on the mean sphere (an independent formula: locate's is geodesic).
    private func haversine(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }

    @Test func theHistoryIsWhatWasHandedOutAndItsQueriesAgreeWithAnIndependentCount() async throws {
        let settings = try SettingsHome.allowingAlways()
        let fixes = try await recorded(settings)
        try #require(fixes.count > 100)
        let all = try await runLocate(["history", "--json"], settings: settings, environment: utc)
        #expect(all.status == 0, "\(all.stderr)")
        let points = try all.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        try #require(points.count == fixes.count, "\(points.count) points, \(fixes.count) fixes")
        for (point, fix) in zip(points, fixes) {
            #expect(point["time"] as? String == fix["time"] as? String && point["source"] as? String == "history")
            #expect(abs(coordinate(point).latitude - coordinate(fix).latitude) < 1e-7)
            #expect(abs(coordinate(point).longitude - coordinate(fix).longitude) < 1e-7)
        }

        // --from and --to: a window of the track's own times.
        let times = fixes.compactMap { $0["time"] as? String }
        let window = try await runLocate(
            ["history", "--json", "--from", times[20], "--to", times[50]], settings: settings, environment: utc)
        #expect(window.stdout.split(separator: "\n").count == 30, "\(window.stderr)")

        // --near: the points within 150 m of a point of the track, by an independent formula (points
        // within a metre of the edge left out of the comparison).
        let center = coordinate(fixes[fixes.count / 2])
        let radius = 150.0
        let near = try await runLocate(
            ["history", "--json", "--near", "\(center.latitude),\(center.longitude),\(radius)"], settings: settings, environment: utc)
        let found = Set(try near.stdout.split(separator: "\n").map { try jsonObject(String($0))["time"] as? String ?? "" })
        for fix in fixes {
            let distance = haversine(center, coordinate(fix))
            guard abs(distance - radius) > 1 else { continue }
            #expect(found.contains(fix["time"] as? String ?? "") == (distance < radius), "\(distance) m")
        }
        #expect(!found.isEmpty && found.count < fixes.count)

        // --days: the day's geodesic length within 1% of the independent sum.
        let days = try await runLocate(["history", "--days", "--json"], settings: settings, environment: utc)
        let day = try jsonObject(days.stdout)
        var length = 0.0
        for (a, b) in zip(fixes, fixes.dropFirst()) { length += haversine(coordinate(a), coordinate(b)) }
        let distance = try #require(day["distance_m"] as? Double)
        #expect(day["date"] as? String == String(times[0].prefix(10)) && day["points"] as? Int == fixes.count)
        #expect(abs(distance - length) <= length * 0.01, "\(distance) m against \(length) m")
        #expect((day["moving_s"] as? Int).map { $0 > 0 && $0 < fixes.count } == true, "\(day)")
    }

    @Test func gpxIsReadBackByGpsbabelAndGeoJSONIsAFeatureCollection() async throws {
        let settings = try SettingsHome.allowingAlways()
        let fixes = try await recorded(settings)
        let gpx = try await runLocate(["history", "--gpx"], settings: settings, environment: utc)
        // A track, as --help and locate-history(1) say: one segment of the points in time order.
        #expect(
            gpx.stdout.components(separatedBy: "<trkpt ").count - 1 == fixes.count && !gpx.stdout.contains("<wpt "),
            "\(gpx.stdout.prefix(300))")
        let file = settings.root.appendingPathComponent("history.gpx")
        try Data(gpx.stdout.utf8).write(to: file)
        let babel = try await runShell("gpsbabel -t -i gpx -f '\(file.path)' -o csv -F -", settings: settings)
        #expect(babel.status == 0, "\(babel.stderr)")
        #expect(babel.stdout.split(separator: "\n").count == fixes.count, "gpsbabel read \(babel.stdout.prefix(200))")

        let geojson = try await runLocate(["history", "--geojson"], settings: settings, environment: utc)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        #expect(document["type"] as? String == "FeatureCollection")
        let features = try #require(document["features"] as? [[String: Any]])
        try #require(features.count == fixes.count)
        for (feature, fix) in zip(features, fixes) {
            let geometry = feature["geometry"] as? [String: Any]
            let coordinates = geometry?["coordinates"] as? [Double] ?? []
            #expect(feature["type"] as? String == "Feature" && geometry?["type"] as? String == "Point")
            #expect(coordinates.count >= 2 && abs(coordinates[0] - coordinate(fix).longitude) < 1e-7, "[lon, lat]: \(coordinates)")
            #expect((feature["properties"] as? [String: Any])?["time"] as? String == fix["time"] as? String)
        }
    }

    @Test func aReaderNotAllowedGetsNothingAndAReducedOneCells() async throws {
        let settings = try SettingsHome.allowingAlways()
        let fixes = try await recorded(settings)
        try settings.write(
            "[location]\nauthorization = always\n[app \"snoop\"]\nauthorization = denied\n[app \"coarse\"]\nauthorization = always\naccuracy = reduced\n",
            to: settings.userFile)
        let denied = try await runLocate(["history", "--app", "snoop", "--json"], settings: settings, environment: utc)
        #expect(denied.status == 77 && denied.stdout.isEmpty, "\(denied.status): \(denied.stdout.prefix(200))")
        #expect(denied.stderr.contains("denied"), "\(denied.stderr)")
        let days = try await runLocate(["history", "--app", "snoop", "--days"], settings: settings, environment: utc)
        #expect(days.status == 77 && days.stdout.isEmpty, "not even how many points")

        let coarse = try await runLocate(["history", "--app", "coarse", "--json"], settings: settings, environment: utc)
        let cells = try coarse.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(coarse.status == 0 && !cells.isEmpty && cells.count < fixes.count, "\(cells.count) cells")
        #expect(cells.allSatisfy { $0["accuracy"] as? String == "reduced" && $0["h_acc"] as? Double ?? 0 >= 1000 }, "\(cells.first ?? [:])")
        #expect(Set(cells.map { "\(coordinate($0))" }).isDisjoint(with: Set(fixes.map { "\(coordinate($0))" })))

        // No question about the precise points gets an answer: --near and --from ask what the
        // reader was given (the cells, at most one a clock's five minutes), not the points.
        let precise = coordinate(fixes[0])
        let probe = try await runLocate(
            ["history", "--app", "coarse", "--near", "\(precise.latitude),\(precise.longitude),3"], settings: settings, environment: utc)
        #expect(probe.status == 1 && probe.stdout.isEmpty, "a 3 m question about a precise point: \(probe.stdout)")
        let cell = coordinate(cells[0])
        let atCell = try await runLocate(
            ["history", "--app", "coarse", "--near", "\(cell.latitude),\(cell.longitude),10"], settings: settings, environment: utc)
        #expect(atCell.status == 0 && !atCell.stdout.isEmpty, "the cell itself is near its cell")
        let time = try #require(fixes[30]["time"] as? String)
        let phase = try await runLocate(["history", "--app", "coarse", "--json", "--from", time], settings: settings, environment: utc)
        #expect(!phase.stdout.contains(time), "a chosen start is no cell's time: \(phase.stdout)")

        // A read that handed positions out is in the access log; the refused one handed none.
        let access = try await runLocate(["access", "--json"], settings: settings, environment: utc)
        #expect(access.stdout.contains("\"via\":\"locate history\"") && access.stdout.contains("\"app\":\"coarse\""), "\(access.stdout)")
    }

    @Test func aRecorderNotAllowedKeepsNothingAndForgetDeletes() async throws {
        let settings = try SettingsHome(user: "[location]\nauthorization = always\n[app \"record\"]\nauthorization = denied\n")
        let replay = ["--replay", Package.track("commute").path, "--replay-speed", "0"]
        let refused = try await runLocate(["record"] + replay, settings: settings, environment: utc)
        #expect(refused.status == 77 && refused.stderr.contains("denied"), "\(refused.status): \(refused.stderr)")
        let none = try await runLocate(["history"], settings: settings, environment: utc)
        #expect(none.status == 1 && none.stdout.isEmpty, "\(none.status): \(none.stdout)")

        try settings.write("[location]\nauthorization = always\n", to: settings.userFile)
        let fixes = try await recorded(settings)
        let times = fixes.compactMap { $0["time"] as? String }
        let forget = try await runLocate(["history", "--forget", "--before", times[10]], settings: settings, environment: utc)
        #expect(forget.status == 0 && forget.stderr.contains("forgot 10 points"), "\(forget.stderr)")
        let left = try await runLocate(["history", "--json"], settings: settings, environment: utc)
        #expect(left.stdout.split(separator: "\n").count == fixes.count - 10)
        #expect(try await runLocate(["history", "--forget"], settings: settings, environment: utc).status == 0)
        let after = try await runLocate(["history"], settings: settings, environment: utc)
        #expect(after.status == 1 && after.stdout.isEmpty)
    }
}
