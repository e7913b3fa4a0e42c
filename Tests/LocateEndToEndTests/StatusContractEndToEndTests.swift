import Foundation
import Testing

/// The everyday contract: a status never says success after nothing, a signal ends cleanly, and
/// every message names the real cause in one short line.
struct StatusContractEndToEndTests {
    /// A stream that ends without a single fix: 75 when gpsd answered without one, 69 when it
    /// never answered or closed every connection, each with the fallback record and the cause.
    @Test(arguments: [
        ("no fix", 75, "timeout", "no fix from gpsd at"),
        ("stall", 69, "gpsd_unavailable", "did not answer in"),
        ("hangup", 69, "gpsd_unavailable", "closed the connection each time"),
    ])
    func aStreamThatEndsWithoutAFixIsNoSuccess(gpsd kind: String, status: Int32, reason: String, cause: String) async throws {
        let gpsd = kind == "no fix" ? try await GpsdServer(track: "nofix", wait: "report") : try await GpsdServer(misbehaving: kind)
        let run = try await runLocate(["--follow", "--duration", "2", "--json", gpsd.endpoint])
        #expect(run.status == status, "\(kind): \(run.stderr)")
        let records = try run.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(records.count == 1 && records.last?["source"] as? String == "fallback", "\(kind): \(run.stdout)")
        #expect(records.last?["reason"] as? String == reason, "\(kind)")
        #expect(run.stderr.contains(cause), "\(kind): \(run.stderr)")
        let quiet = try await runLocate(["--follow", "--duration", "1", "--no-fallback", gpsd.endpoint])
        #expect(quiet.status == status && quiet.stdout.isEmpty, "\(kind), --no-fallback")
    }

    /// gpsd serves a limited number of clients (64 by default) and closes the connection of any
    /// more: that is the cause a refused client names, not a missing fix.
    @Test func aClientBeyondGpsdsLimitSaysGpsdClosedTheConnection() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let clients = try (0..<70).map { _ in try WatchingClient(port: receiver.port) }
        defer { withExtendedLifetime(clients) {} }
        let follow = try await runLocate(["--follow", "--duration", "2", receiver.endpoint])
        #expect(follow.status == 69)
        #expect(follow.stderr.contains("closed the connection"), "\(follow.stderr)")
        #expect(!follow.stderr.contains("no fix"), "\(follow.stderr)")
        let once = try await runLocate([receiver.endpoint])
        #expect(once.status == 69 && once.stderr.contains("closed the connection"), "\(once.stderr)")
    }

    /// A fix older than --max-age is never the answer, however long the wait: the fallback, 75,
    /// and the age of the youngest fix in the message.
    @Test func aFixOlderThanMaxAgeIsNeverTheAnswer() async throws {
        // The bundled track's receiver times are in January 2026, months before any test run.
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate(["--json", "--max-age", "10", "--timeout", "2", receiver.endpoint])
        #expect(run.status == 75)
        let record = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
        #expect(record["source"] as? String == "fallback" && record["reason"] as? String == "timeout", "\(run.stdout)")
        #expect(run.stderr.contains("old, older than the 10 s asked for"), "\(run.stderr)")
        #expect(!run.stderr.contains(" m in "), "no accuracy was asked for: \(run.stderr)")
    }

    /// SIGHUP (a closed terminal, a logout) ends a stream as SIGTERM does: a closed document and
    /// the stream's own status, not the signal's.
    @Test func sighupClosesTheDocument() async throws {
        let receiver = try await GpsdServer(track: "running")
        let settings = try SettingsHome.allowingAlways()
        let run = try startLocate(["--follow", "--gpx", receiver.endpoint], settings: settings)
        try await run.stdout.wait(for: "a track point") { run.stdout.text.contains("<trkpt") }
        run.signal(SIGHUP)
        #expect(try await run.waitForExit() == 0)
        withExtendedLifetime(settings) {}
        #expect(run.stdout.text.hasSuffix("</trkseg>\n</trk>\n</gpx>\n"), "\(run.stdout.text.suffix(200))")
    }

    @Test func statusWritesNumbersAsNumbers() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let run = try await runLocate(["status", "--json", receiver.endpoint])
        #expect(run.status == 0)
        let facts = try jsonObject(run.stdout.trimmingCharacters(in: .newlines))
        #expect(facts["sats_used"] is NSNumber && !(facts["sats_used"] is String), "\(run.stdout)")
        #expect(((facts["h_acc"] as? NSNumber)?.doubleValue ?? 0) > 0 && !(facts["h_acc"] is String), "\(run.stdout)")
        #expect(facts["authorized_now"] as? Bool == true, "\(run.stdout)")
    }

    /// What LANG often holds is a language: any locale name the C library takes.
    @Test(arguments: [
        ("C.UTF-8", "Munich, Bavaria, Germany"), ("POSIX", "Munich, Bavaria, Germany"), ("de_DE.UTF-8", "München, Bayern, Deutschland"),
        ("de_DE.utf8@euro", "München, Bayern, Deutschland"),
    ])
    func anyLocaleNameIsALanguage(locale: String, place: String) async throws {
        let run = try await runLocate(["geocode", "--lang", locale, "48.1374", "11.5755"], settings: .withPlaceIndex())
        #expect(run.status == 0, "\(locale): \(run.stderr)")
        #expect(run.stdout == place + "\n", "\(locale)")
    }

    /// A repeated format is no conflict, and a conflict of many is one short line.
    @Test func formatErrorsAreOneShortLine() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let repeated = try await runLocate(["--csv", "--csv", "--no-header", receiver.endpoint])
        #expect(repeated.status == 0 && repeated.stdout.hasPrefix("fix,"), "\(repeated.stderr)")
        let many = try await runLocate(Array(repeating: ["--csv", "--json"], count: 5_000).flatMap { $0 } + [receiver.endpoint])
        #expect(many.status == 64)
        let first = many.stderr.split(separator: "\n").first ?? ""
        #expect(first == "locate: error: choose one output format, not --csv and --json", "\(first.prefix(200))")
        #expect(many.stderr.utf8.count < 600, "the message, the usage lines of locate and one hint")
    }
}

/// A client of gpsd that watches, and keeps its connection until it goes away.
final class WatchingClient: Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = streamSocket(AF_INET)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let descriptor = descriptor
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [10]
        guard connected, send(descriptor, watch, watch.count, Int32(MSG_NOSIGNAL)) == watch.count else {
            throw HarnessError(description: "cannot connect to gpsd on port \(port)")
        }
    }

    deinit {
        close(descriptor)
    }
}
